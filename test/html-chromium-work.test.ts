/**
 * Work Chromium does for a render, counted (DevTools Performance metrics of the pool's one page): what
 * grows with the document must be the document's own layout, not a relayout per element castpress reads.
 */
import type { CDPSession, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { pageCount, readText } from './helpers/pdf.js';

let pool: BrowserPool;
let cdp: CDPSession;
/** Pages of each print Chromium made (body and overlay pages together). */
let printed: number[] = [];
/** Structure elements (tagged PDF) of the last print. */
let structElems = 0;
let restore: () => void = () => undefined;
beforeAll(async () => {
  // One page, reused by every job (scripts off): its DevTools session counts across documents.
  pool = new BrowserPool({ maxPages: 1, jobTimeoutMs: 120_000 });
  await pool.run(async (lease: { page: Page; cdp: CDPSession }) => {
    cdp = lease.cdp;
    await cdp.send('Performance.enable');
    // Every print goes through Page.pdf: counted on the class of the pool's own page.
    const proto = Object.getPrototypeOf(lease.page) as { pdf: Page['pdf'] };
    const pdf = proto.pdf;
    proto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      const bytes = await pdf.apply(this, args);
      printed.push(await pageCount(bytes));
      structElems =
        Buffer.from(bytes)
          .toString('latin1')
          .match(/\/Type\s*\/StructElem\b/g)?.length ?? 0;
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

async function metric(name: string): Promise<number> {
  return (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? NaN;
}

/** Layouts Chromium ran for one render of `request`. */
async function layoutsOf(request: { html: string; css: string }): Promise<number> {
  const before = await metric('LayoutCount');
  await renderHtml(pool, request);
  return (await metric('LayoutCount')) - before;
}

/** `n` chapters, each on its own page with a running header of its own. */
function chapters(n: number): { html: string; css: string } {
  let html = '';
  for (let c = 1; c <= n; c++)
    html += `<section><div class="head">Head ${c}</div><h1>Chapter ${c}</h1><p>Text of chapter ${c}.</p></section>`;
  return {
    html,
    css: '.head { position: running(head) } h1 { break-before: page } @page { @top-center { content: element(head) } }',
  };
}

describe('layouts per render', () => {
  it(
    'running elements are read on one layout: 32 of them cost no more layouts than 8',
    { timeout: 240_000 },
    async () => {
      await layoutsOf(chapters(8)); // the page's code is installed by the first document
      const few = await layoutsOf(chapters(8));
      const many = await layoutsOf(chapters(32));
      expect(few).toBeGreaterThan(0);
      // Taking each out of the flow before reading the next laid the document out once per element (+24 here).
      expect(many - few).toBeLessThanOrEqual(3);
    },
  );
});

/**
 * A table of contents of `n` entries on A5 pages (content box narrower than the screen's), with or without
 * leaders, before `n` chapters of `paragraphs` paragraphs each.
 */
function contents(n: number, leader: boolean, paragraphs = 1): { html: string; css: string } {
  let toc = '';
  let body = '';
  const text = '<p>Text of the chapter, long enough to wrap over two lines or three on an A5 page.</p>';
  for (let c = 1; c <= n; c++) {
    toc += `<p class="toc"><a href="#c${c}">Chapter ${c}</a></p>`;
    body += `<section><h1 id="c${c}">Chapter ${c}</h1>${text.repeat(paragraphs)}</section>`;
  }
  return {
    html: toc + body,
    css:
      'h1 { break-before: page } @page { size: A5; margin: 20mm } ' +
      `.toc a::after { content: ${leader ? "leader('.') " : ''}target-counter(attr(href), page) }`,
  };
}

interface TraceEvent {
  name: string;
  ph: string;
  tdur?: number;
  args?: { beginData?: { stackTrace?: Array<{ functionName: string }> } };
}

/** Thread CPU time (µs) of each layout made by `atContentWidth` (the in-page code's measuring at a page width). */
async function pageWidthLayouts(request: { html: string; css: string }): Promise<number[]> {
  const events: TraceEvent[] = [];
  const collect = (e: { value: unknown[] }) => events.push(...(e.value as TraceEvent[]));
  cdp.on('Tracing.dataCollected', collect);
  const done = new Promise<void>((resolve) => cdp.once('Tracing.tracingComplete', () => resolve()));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline.stack',
    transferMode: 'ReportEvents',
  });
  try {
    await renderHtml(pool, request);
  } finally {
    await cdp.send('Tracing.end');
    await done;
    cdp.off('Tracing.dataCollected', collect);
  }
  return events
    .filter((e) => e.name === 'Layout' && e.ph === 'X')
    .filter((e) => e.args?.beginData?.stackTrace?.some((f) => f.functionName === 'atContentWidth'))
    .map((e) => e.tdur ?? 0);
}

describe('leaders', () => {
  it('are measured on one layout at their page width, none at the screen width', { timeout: 240_000 }, async () => {
    await layoutsOf(contents(12, false));
    const plain = await layoutsOf(contents(12, false));
    const leaders = await layoutsOf(contents(12, true));
    expect(plain).toBeGreaterThan(0);
    // One layout at the A5 content width for all twelve (the screen's width and the leader strings' widths
    // were read first, each on a layout of its own at the screen's width: +3).
    expect(leaders - plain).toBe(1);
  });

  it(
    "measured at a page width other than the screen's, lay the document out only as far as the last of them",
    { timeout: 240_000 },
    async () => {
      // Thread CPU time (not wall time) of the first layout that measures, the cheapest of three renders.
      const cost = async (paragraphs: number) => {
        const runs: number[] = [];
        for (let i = 0; i < 3; i++) {
          const layouts = await pageWidthLayouts(contents(12, true, paragraphs));
          expect(layouts.length).toBeGreaterThan(0);
          runs.push(layouts[0] as number);
        }
        return Math.min(...runs);
      };
      // The same twelve-entry table of contents before 12 chapters of 2 and of 24 paragraphs.
      await layoutsOf(contents(12, true, 2));
      const small = await cost(2);
      const large = await cost(24);
      // Laid out whole at the page width, the larger document costs ~9x as much (12x the paragraphs); as far
      // as the last leader, ~1x.
      expect(large / small).toBeLessThan(3);
    },
  );
});

describe('overlay pages', () => {
  it(
    'only body pages with something in their margins get one: a note on one page of twelve prints one',
    { timeout: 240_000 },
    async () => {
      let html = '';
      for (let p = 1; p <= 12; p++)
        html += `<h1>Part ${p}</h1><p>Body of part ${p}${p === 3 ? '<span class="fn">The one note, of part 3.</span>' : ''}.</p>`;
      printed = [];
      const pdf = await renderHtml(pool, {
        html,
        css: 'h1 { break-before: page } h1:first-child { break-before: auto } .fn { float: footnote }',
      });
      const pages = await readText(pdf);
      expect(pages).toHaveLength(12);
      expect(printed.length).toBeGreaterThan(0);
      // The last print holds the body and the overlay: one overlay page, for part 3's note (12 before: one per page).
      expect(printed.at(-1)! - pages.length).toBe(1);
      const noteOn = pages.map((p) => p.items.map((i) => i.str).join(' ')).findIndex((t) => t.includes('The one note'));
      expect(noteOn).toBe(2);
    },
  );

  it(
    'a running header on the first page only prints one overlay page; every page with one gets its own tile of one sheet, with no structure elements',
    { timeout: 240_000 },
    async () => {
      let html = '<div class="title">The title page header</div>';
      for (let p = 1; p <= 6; p++) html += `<h1>Part ${p}</h1><p>Body of part ${p}.</p>`;
      const css = (pages: string) =>
        `.title { position: running(title) } h1 { break-before: page } @page${pages} { @top-center { content: element(title) } }`;
      printed = [];
      const first = await readText(await renderHtml(pool, { html, css: css(':first') }));
      const firstElems = structElems;
      expect(printed.at(-1)! - first.length).toBe(1);
      expect(first.map((p) => p.items.some((i) => i.str.includes('The title page header')))).toEqual([
        true,
        false,
        false,
        false,
        false,
        false,
      ]);
      printed = [];
      const every = await readText(await renderHtml(pool, { html, css: css('') }));
      // Six overlay pages, printed as six tiles of one sheet (a printed page each costs Chromium as much as its content).
      expect(printed.at(-1)! - every.length).toBe(1);
      // The overlay is hidden from Chromium's accessibility tree: its pages add no structure elements to the
      // print (castpress dropped them after parsing them, ~10 a page).
      expect(firstElems).toBeGreaterThan(0);
      expect(structElems).toBe(firstElems);
      expect(every.every((p) => p.items.some((i) => i.str.includes('The title page header')))).toBe(true);
    },
  );
});
