/**
 * The overlay's margin boxes are printed as tiles of a few large sheets, not a page per body page (each
 * printed page costs Chromium about as much as its content), and cut back per page by the kernel. Counted:
 * the pages of Chromium's own print; read back (pdfjs, form XObjects included): each output page shows its
 * own header and page number and no other page's.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtmlDocument, type HtmlRenderRequest } from '../src/html/index.js';
import { readText, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
let printed: Buffer[] = [];
let restore: () => void = () => undefined;

beforeAll(async () => {
  pool = new BrowserPool({ maxPages: 1 });
  await pool.run(async ({ page }: { page: Page }) => {
    const proto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = proto.pdf;
    proto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      const bytes = await pdf.apply(this, args);
      printed.push(bytes);
      return bytes;
    };
    restore = () => {
      proto.pdf = pdf;
    };
  });
});
afterAll(async () => {
  restore();
  await pool.close();
});

async function render(request: HtmlRenderRequest): Promise<{ pages: PageText[]; printPages: number }> {
  printed = [];
  const out = await renderHtmlDocument(pool, request);
  const last = printed[printed.length - 1]!;
  return { pages: await readText(out.pdf), printPages: (await readText(last)).length };
}

/** Chapters that each start a page, with a running header naming the chapter and "Page N of M" below. */
function report(chapters: number, size = 'A4', paragraphs = 30): HtmlRenderRequest {
  let body = '';
  for (let c = 1; c <= chapters; c++) {
    body += `<section><div class="head">Header of chapter ${c}</div><h1>Chapter ${c}</h1>`;
    for (let p = 1; p <= paragraphs; p++)
      body += `<p>Paragraph ${p}: the figures for the period as the offices reported them, with enough words to wrap over three or four lines of the page, so that the chapter fills a few pages.</p>`;
    body += '</section>';
  }
  return {
    html: body,
    css: `body { font-size: 11pt; line-height: 1.4; } h1 { break-before: page; } .head { position: running(head); }
      @page { size: ${size}; margin: 25mm 20mm; @top-center { content: element(head); }
        @bottom-center { content: "Page " counter(page) " of " counter(pages); } }`,
  };
}

const strings = (p: PageText): string[] => p.items.map((i) => i.str.trim()).filter(Boolean);

/** Each page has one header, of the chapter whose heading is last on or before it, and its own page number. */
function expectOwnMargins(pages: PageText[]): void {
  let chapter = 0;
  pages.forEach((p, i) => {
    const s = strings(p);
    const heading = s.filter((x) => /^Chapter \d+$/.test(x)).at(-1);
    // The running header is the first one on the page (css-gcpm-3's default policy) or the entry value.
    const first = s.find((x) => /^Chapter \d+$/.test(x));
    if (first) chapter = Number(first.split(' ')[1]);
    expect(s.filter((x) => x.startsWith('Header of chapter'))).toEqual([`Header of chapter ${chapter}`]);
    expect(s.filter((x) => x.startsWith('Page '))).toEqual([`Page ${i + 1} of ${pages.length}`]);
    if (heading) chapter = Number(heading.split(' ')[1]);
  });
}

describe('the overlay is printed as tiles of large sheets', () => {
  it('prints the margin boxes of a report on one sheet; each page shows only its own header and page number', async () => {
    const { pages, printPages } = await render(report(6));
    expect(pages.length).toBeGreaterThanOrEqual(12);
    // Body pages and one sheet, not a second page per body page.
    expect(printPages).toBe(pages.length + 1);
    expectOwnMargins(pages);
  });

  it('fills more than one sheet when a sheet cannot hold them all, and pairs each tile with its page', async () => {
    // 5,000 pt pages: two by two fit in PDF's 14,400 units a side.
    const { pages, printPages } = await render(report(6, '5000pt 5000pt', 3));
    expect(pages.length).toBeGreaterThan(4);
    expect(printPages).toBe(pages.length + Math.ceil(pages.length / 4));
    expectOwnMargins(pages);
  });
});
