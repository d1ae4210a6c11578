/**
 * How many times a paged-media document is printed: each `page.pdf()` is a whole print, the largest part
 * of a render, and a wrong first guess of where pages end costs one more. Common documents are guessed
 * right and print once (counted steps, no clock): a report whose first heading breaks before it, with a
 * table of contents of leaders and target-counter(), a running header and "Page X of Y"; a long run of
 * paragraphs with counter(page) in body elements; WeasyPrint's report (named pages, a right-hand break
 * that needs a blank page). The numbers printed are the right ones.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtmlDocument, type HtmlRenderRequest } from '../src/html/index.js';
import { A4, FIXTURE_ORIGIN, HTML_FIXTURES, fixtureResolver } from './helpers/html-fixtures.js';
import { readText, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
let prints = 0;
let restore: () => void = () => undefined;

beforeAll(async () => {
  pool = new BrowserPool({ maxPages: 1, resolver: fixtureResolver });
  // Every print goes through Page.pdf: counted on the class of the pool's own page.
  await pool.run(async ({ page }: { page: Page }) => {
    const proto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = proto.pdf;
    proto.pdf = function (this: Page, ...args: Parameters<Page['pdf']>) {
      prints++;
      return pdf.apply(this, args);
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

async function render(request: HtmlRenderRequest): Promise<{ pages: PageText[]; prints: number }> {
  prints = 0;
  const out = await renderHtmlDocument(pool, request);
  return { pages: await readText(out.pdf), prints };
}

const line = (p: PageText, pattern: RegExp): string =>
  p.items
    .filter((i) => pattern.test(i.str))
    .map((i) => i.str)
    .join(' ');

/** Chapters that each start a page, a few pages long; the table of contents comes first, after its own heading's break. */
function report(chapters: number): HtmlRenderRequest {
  let toc = '<nav class="toc"><h1>Contents</h1>';
  let body = '';
  for (let c = 1; c <= chapters; c++) {
    toc += `<p><a href="#c${c}">Chapter ${c}</a></p>`;
    body += `<section><div class="head">Report, chapter ${c}</div><h1 id="c${c}">Chapter ${c}</h1>`;
    for (let s = 1; s <= 4; s++) {
      body += `<h2>Section ${c}.${s}</h2>`;
      for (let p = 1; p <= 5; p++)
        body += `<p>Paragraph ${p} of section ${s}: the figures for the period as the offices reported them, with enough words to wrap over three or four lines of the page, so that the chapter fills several pages.</p>`;
    }
    body += '</section>';
  }
  return {
    html: `${toc}</nav>${body}`,
    css: `body { font-size: 11pt; line-height: 1.4; } h1 { break-before: page; } .head { position: running(head); }
      .toc a::after { content: leader('.') " " target-counter(attr(href), page); }
      @page { size: A4; margin: 25mm 20mm; @top-center { content: element(head); }
        @bottom-center { content: "Page " counter(page) " of " counter(pages); } }`,
  };
}

describe('a paged-media document prints once when its first guess holds', () => {
  it('a report that starts with a heading breaking before it (ToC with leaders and target-counter, running header, page X of Y)', async () => {
    const { pages, prints } = await render(report(6));
    expect(prints).toBe(1);
    // The table of contents gives each chapter the page its heading is on; every footer counts all pages.
    const onPage = (c: number) => pages.findIndex((p, k) => k > 0 && p.items.some((i) => i.str === `Chapter ${c}`));
    for (let c = 1; c <= 6; c++) {
      const title = pages[0]!.items.find((i) => i.str.startsWith(`Chapter ${c}`))!;
      const row = pages[0]!.items.filter((i) => Math.abs(i.baseline - title.baseline) < 1).sort((a, b) => a.x - b.x);
      expect(row.map((i) => i.str).join('')).toMatch(new RegExp(`^Chapter ${c}\\.{10,} ?${onPage(c) + 1}$`));
    }
    pages.forEach((p, i) => expect(line(p, /^Page /)).toBe(`Page ${i + 1} of ${pages.length}`));
  });

  it('a long run of paragraphs with counter(page) in body elements', async () => {
    const long = Array.from(
      { length: 400 },
      (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`,
    ).join('');
    const { pages, prints } = await render({
      html: `<div class="pn"></div>${long}<div class="pn"></div>`,
      css: '.pn::after { content: "page " counter(page) " of " counter(pages); }',
    });
    expect(prints).toBe(1);
    const n = pages.length;
    expect(n).toBeGreaterThan(10);
    expect(line(pages[0]!, /^page \d+ of \d+$/)).toBe(`page 1 of ${n}`);
    expect(line(pages[n - 1]!, /^page \d+ of \d+$/)).toBe(`page ${n} of ${n}`);
  });

  it("WeasyPrint's report: named pages, full-page boxes, a right-hand break that needs a blank page", async () => {
    const html = await readFile(path.join(HTML_FIXTURES, 'weasyprint-report/report.html'), 'utf8');
    const { pages, prints } = await render({
      html,
      baseUrl: `${FIXTURE_ORIGIN}weasyprint-report/report.html`,
      page: A4,
    });
    expect(prints).toBe(1);
    // Cover, blank left page, contents on page 3 (a right page), then the chapters.
    expect(pages).toHaveLength(8);
    expect(pages[1]!.items.filter((i) => i.str.trim())).toEqual([]);
    expect(line(pages[2]!, /Table of contents/)).toBe('Table of contents');
  });

  it('page floats: one more print when one moves, none when each already sits where it belongs', async () => {
    const css = 'p { margin: 0; line-height: 20px; } .fig { height: 100px; }';
    const lines = (n: number): string => '<p>line</p>'.repeat(n);
    const moved = await render({ html: `${lines(50)}<div class="fig" style="float: top">FIG</div>${lines(50)}`, css });
    expect(moved.prints).toBe(2);
    // At the document's start a top float is at its page's top already.
    const still = await render({ html: `<div class="fig" style="float: top">FIG</div>${lines(50)}`, css });
    expect(still.prints).toBe(1);
  });
});
