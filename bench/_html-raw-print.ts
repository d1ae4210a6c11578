/**
 * Chromium's raw print of the report (bench/html-report.ts), before castpress's steps:
 * `npx tsx bench/_html-raw-print.ts [chapters] [out.pdf]` writes the last `page.pdf()` of one render, to read
 * its content streams (`qpdf --qdf out.pdf -`). It prints the page count of that print.
 */
import { writeFileSync } from 'node:fs';
import type { Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument } from './html-report.js';

const chapters = Number(process.argv[2] ?? 2);
const out = process.argv[3] ?? '/tmp/raw-print.pdf';
const pool = new BrowserPool({ maxPages: 1 });
let last: Buffer | undefined;
await pool.run(
  async ({ page }: { page: Page }) => {
    const proto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = proto.pdf;
    proto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      return (last = await pdf.apply(this, args));
    };
  },
  async () => ({}),
);
const result = await renderHtmlDocument(pool, reportDocument(chapters));
await pool.close();
if (last) writeFileSync(out, last);
const pages = last?.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
console.log(`output ${result.pageCount} pages; last print ${pages} pages, written to ${out}`);
