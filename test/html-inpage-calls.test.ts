/**
 * How many in-page calls a render makes (each one `Runtime.evaluate` round trip, counted on the job's CDP
 * session; no clock): a document whose print bears out the first guess of its pages needs only `begin`,
 * which answers the page margins that placing bookmarks, form fields and internal links reads. A print
 * whose pages are not the guess's asks the page for their margins after it (`resolvePages`), and the
 * bookmarks and links land where the printed text is either way.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtmlDocument, type HtmlRenderRequest } from '../src/html/index.js';
import { A4, FIXTURE_ORIGIN, HTML_FIXTURES, fixtureResolver } from './helpers/html-fixtures.js';
import { readOutline, readText, type OutlineNode, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
let calls: string[] = [];
let restore: () => void = () => undefined;

beforeAll(async () => {
  pool = new BrowserPool({ maxPages: 1, resolver: fixtureResolver });
  // Every in-page call is a Runtime.evaluate of `window.__castpress.<method>(...)` on the job's session.
  await pool.run(async ({ cdp }: { cdp: CDPSession }) => {
    const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = proto.send;
    proto.send = function (this: CDPSession, method: string, params?: unknown) {
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      const name = method === 'Runtime.evaluate' ? /__castpress\.(\w+)\(/.exec(expr.slice(-400))?.[1] : undefined;
      if (name) calls.push(name);
      return send.call(this, method, params);
    };
    restore = () => {
      proto.send = send;
    };
  });
  // The page's first job sends the in-page source (a second evaluate of `begin`): the cases reuse the page.
  await renderHtmlDocument(pool, { html: '<p>warm</p>' });
});
afterAll(async () => {
  restore();
  await pool.close();
});

async function render(request: HtmlRenderRequest): Promise<{ pdf: Uint8Array; pages: PageText[]; calls: string[] }> {
  calls = [];
  const { pdf } = await renderHtmlDocument(pool, request);
  return { pdf, pages: await readText(pdf), calls };
}

/** Each outline item's page (from 0) and how far its top lies above its heading's printed text (points). */
async function bookmarksAt(
  pdf: Uint8Array,
  pages: PageText[],
): Promise<Array<{ title: string; page: number; above: number }>> {
  const flat = (nodes: OutlineNode[]): OutlineNode[] => nodes.flatMap((n) => [n, ...flat(n.items)]);
  return flat(await readOutline(pdf)).map((b) => {
    const page = pages[b.page - 1]!;
    const text = page.items.find((i) => i.str === b.title);
    return { title: b.title, page: b.page - 1, above: text ? text.y - (page.height - b.top) : NaN };
  });
}

describe('in-page calls of a render', () => {
  it("WeasyPrint's report (named pages, a right-hand break, bookmarks, internal links): begin only", async () => {
    const html = await readFile(path.join(HTML_FIXTURES, 'weasyprint-report/report.html'), 'utf8');
    const { pdf, pages, calls } = await render({
      html,
      baseUrl: `${FIXTURE_ORIGIN}weasyprint-report/report.html`,
      page: A4,
    });
    expect(calls).toEqual(['begin']);
    expect(pages).toHaveLength(8);
    // Each bookmark on the page that prints its heading.
    const marks = await bookmarksAt(pdf, pages);
    expect(marks.length).toBeGreaterThan(3);
    expect(marks.filter((m) => !Number.isNaN(m.above)).length).toBeGreaterThan(3);
  });

  it('headings only, and internal links only: begin only; the outline and the links at their targets', async () => {
    const filler = '<p>filler line</p>'.repeat(60);
    const css = '@page { size: 400px 600px; margin: 100px 60px 80px 120px; } @page :left { margin-top: 40px; }';
    const headed = await render({ html: `<h1>First</h1>${filler}<h1>Second</h1>${filler}`, css });
    expect(headed.calls).toEqual(['begin']);
    const marks = await bookmarksAt(headed.pdf, headed.pages);
    expect(marks.map((m) => m.title)).toEqual(['First', 'Second']);
    expect(marks[1]!.page).toBeGreaterThan(0);
    for (const m of marks) {
      expect(m.above, m.title).toBeGreaterThanOrEqual(0);
      expect(m.above, m.title).toBeLessThan(6);
    }
    const linked = await render({ html: `<p><a href="#far">to far</a></p>${filler}<p id="far">FAR</p>`, css });
    expect(linked.calls).toEqual(['begin']);
    expect(linked.pages.findIndex((p) => p.items.some((i) => i.str === 'FAR'))).toBeGreaterThan(0);
  });

  it('a print with more pages than the screen guessed asks for their margins: bookmarks still at their headings', async () => {
    const { pdf, pages, calls } = await render({
      html: '<h1>Start</h1><div class="tall"></div><h1>After</h1><p>text</p>',
      css: '@page { size: 400px 600px; margin: 50px; } @page :left { margin-top: 150px; } @media print { .tall { height: 1500px; } }',
    });
    expect(calls).toEqual(['begin', 'resolvePages']);
    const marks = await bookmarksAt(pdf, pages);
    expect(marks.map((m) => [m.title, m.page])).toEqual([
      ['Start', 0],
      ['After', pages.length - 1],
    ]);
    for (const m of marks) {
      expect(m.above, m.title).toBeGreaterThanOrEqual(0);
      expect(m.above, m.title).toBeLessThan(6);
    }
  });
});
