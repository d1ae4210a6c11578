/**
 * CPU time (this process and its Chromium, from /proc) of one HTML render tagged and with
 * `tagged: false`, and of the bare print both ways, runs interleaved: CPU is steadier than wall time on
 * a loaded machine. Default: the `html-report` document (~96 pages). `npx tsx bench/_html-tagged-cpu.ts
 * [chapters] [runs]`; `invoice` as the first argument takes the hosted API's invoice template instead.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { REPORT_CHAPTERS, reportDocument } from './html-report.js';
import { treeCpuMs } from './_proc-stats.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const read = (p: string): string => readFileSync(path.resolve(here, '../test/fixtures/html', p), 'utf8');
const which = process.argv[2] ?? String(REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 5);
const request =
  which === 'invoice'
    ? {
        html: read('anvil-invoice/invoice.html'),
        css: read('anvil-invoice/invoice.css') + read('anvil-invoice/invoice-pdf.css'),
      }
    : reportDocument(Number(which));

const pool = new BrowserPool({ maxPages: 1 });
const built = await buildDocument(request, { maxResourceBytes: 50_000_000 });
// A bare print on the pool's own browser: the same process tree is measured.
const bare = (tagged: boolean) =>
  pool.run(async ({ page }) => {
    await page.setContent(built, { waitUntil: 'load' });
    await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged });
  });
const kinds = {
  'castpress tagged': () => renderHtmlDocument(pool, request),
  'castpress tagged: false': () => renderHtmlDocument(pool, { ...request, tagged: false }),
  'bare tagged print': () => bare(true),
  'bare untagged print': () => bare(false),
} as const;
const cpu: Record<string, number[]> = {};
for (const run of Object.values(kinds)) await run();
for (let i = 0; i < runs; i++)
  for (const [name, run] of Object.entries(kinds)) {
    const before = treeCpuMs([process.pid]);
    await run();
    (cpu[name] ??= []).push(treeCpuMs([process.pid]) - before);
  }
await pool.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const m = Object.fromEntries(Object.entries(cpu).map(([k, v]) => [k, median(v)]));
console.table(Object.entries(m).map(([name, ms]) => ({ name, 'CPU ms (median)': ms })));
console.log(
  `castpress untagged / tagged: ${(m['castpress tagged: false']! / m['castpress tagged']!).toFixed(2)}; ` +
    `castpress untagged / bare untagged: ${(m['castpress tagged: false']! / m['bare untagged print']!).toFixed(2)}; ` +
    `castpress tagged / bare tagged: ${(m['castpress tagged']! / m['bare tagged print']!).toFixed(2)}; ` +
    `bare tagged / bare untagged: ${(m['bare tagged print']! / m['bare untagged print']!).toFixed(2)}`,
);
