import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { openPdf, readText, type PageText, type TextItem } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

const RESET = 'body { margin: 0; font-size: 12px; } p { margin: 0; }';

function item(page: PageText, str: string): TextItem | undefined {
  return page.items.find((it) => it.str.includes(str));
}

describe('side margin boxes', () => {
  const sides = ['left-top', 'left-middle', 'left-bottom', 'right-top', 'right-middle', 'right-bottom'];
  const label = (side: string): string => side.toUpperCase().replace('-', '');
  // A 300 × 450 pt page with 60 pt margins: the page area runs from 60 to 390 pt down the page.
  const PAGE = 'size: 400px 600px; margin: 80px; font-size: 8px;';

  /** Centre of each box's text: [x, y] in points from the page's top left. */
  async function centres(css: string, html: string, names: string[]): Promise<Array<Record<string, [number, number]>>> {
    const pages = await readText(await renderHtml(pool, { html, css }));
    return pages.map((p) => {
      const out: Record<string, [number, number]> = {};
      for (const name of names) {
        const found = p.items.filter((i) => i.str === name);
        expect(found, `${name} once on each page`).toHaveLength(1);
        const it = found[0]!;
        out[name] = [it.x + it.width / 2, it.y + it.height / 2];
      }
      return out;
    });
  }

  // Three ways to fill the same boxes: Chromium draws them itself when a value needs it (attr() here, empty),
  // castpress's overlay draws strings (for reading order) and running elements.
  const running = sides.map((s) => `.${s} { position: running(${s}); font-size: 8px; }`).join(' ');
  const ways: Array<[string, (s: string) => string]> = [
    ['Chromium', (s) => `"${label(s)}" attr(data-none)`],
    ['overlay string', (s) => `"${label(s)}"`],
    ['overlay element', (s) => `element(${s})`],
  ];
  const body = `${sides.map((s) => `<div class="${s}">${label(s)}</div>`).join('')}<p>one</p><p style="break-before:page">two</p>`;

  it('draws the six side boxes in the side margins on every page, castpress where Chromium does', async () => {
    const drawn: Array<Array<Record<string, [number, number]>>> = [];
    for (const [, content] of ways) {
      const css = `${RESET} ${running} @page { ${PAGE} ${sides.map((s) => `@${s} { content: ${content(s)}; }`).join(' ')} }`;
      drawn.push(await centres(css, body, sides.map(label)));
    }
    for (const pages of drawn) {
      expect(pages).toHaveLength(2);
      for (const page of pages) {
        for (const s of sides) {
          const [x, y] = page[label(s)]!;
          // Centred across their margin (text-align: center; pdf.js widths end a little past the glyphs).
          expect(Math.abs(x - (s.startsWith('left') ? 30 : 270)), `${s} x`).toBeLessThan(3);
          // css-page-3's default vertical-align: top, middle, bottom, in the page area's height (60 to 390)
          const want = s.endsWith('top') ? 60 + 3 : s.endsWith('middle') ? 225 : 390 - 3;
          expect(Math.abs(y - want), `${s} y`).toBeLessThan(2);
        }
      }
    }
    // The overlay's boxes where Chromium's are.
    for (const [k, [way]] of ways.entries())
      for (let p = 0; p < 2; p++)
        for (const s of sides) {
          const [cx, cy] = drawn[0]![p]![label(s)]!;
          const [x, y] = drawn[k]![p]![label(s)]!;
          expect(Math.abs(x - cx), `${way} ${s} x`).toBeLessThan(1);
          expect(Math.abs(y - cy), `${way} ${s} y`).toBeLessThan(1);
        }
  });

  it('aligns side boxes by text-align and vertical-align, in Chromium’s boxes and castpress’s', async () => {
    for (const [way, content] of ways) {
      const css = `${RESET} ${running} @page { ${PAGE}
        @left-top { content: ${content('left-top')}; vertical-align: bottom; text-align: left; }
        @left-bottom { content: ${content('left-bottom')}; vertical-align: top; text-align: right; }
        @right-middle { content: ${content('right-middle')}; vertical-align: bottom; text-align: right; } }`;
      const [page] = await readText(await renderHtml(pool, { html: body, css }));
      const find = (s: string): TextItem => {
        const found = page!.items.filter((i) => i.str === label(s));
        expect(found, `${way} ${s}`).toHaveLength(1);
        return found[0]!;
      };
      const leftTop = find('left-top');
      const leftBottom = find('left-bottom');
      const rightMiddle = find('right-middle');
      // left-top: at the page's left edge, at the bottom of its box (above the middle)
      expect(leftTop.x, way).toBeLessThan(1);
      expect(leftTop.y, way).toBeGreaterThan(100);
      expect(leftTop.y, way).toBeLessThan(225);
      // left-bottom: its right end at the page area's left edge, at the top of its box (below the middle)
      expect(Math.abs(leftBottom.x + leftBottom.width - 60), way).toBeLessThan(1);
      expect(leftBottom.y, way).toBeGreaterThan(225);
      expect(leftBottom.y, way).toBeLessThan(330);
      // right-middle, alone on its side: at the page's right edge
      expect(Math.abs(rightMiddle.x + rightMiddle.width - 300), way).toBeLessThan(1);
    }
  });
});

describe('widows and orphans', () => {
  // A page area of ten 20px lines; `before` one-line paragraphs, then a five-line paragraph.
  async function split(before: number, rule: string): Promise<number[]> {
    const css = `${RESET} @page { size: 400px 400px; margin: 100px 50px; } p { line-height: 20px; } .para { ${rule} }
      .ref::after { content: target-counter(attr(href url), page); }`;
    const lines = Array.from({ length: 5 }, (_, i) => `L${i + 1}`);
    lines[4] = '<span id="last">L5</span>';
    const html = `<p><a class="ref" href="#last">last line on page </a></p>${'<p>filler</p>'.repeat(before - 1)}<p class="para">${lines.join('<br>')}</p>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    const perPage = pages.map((p) => p.items.filter((i) => /^L\d$/.test(i.str.trim())).length);
    // castpress's own page model (target-counter) agrees with Chromium's split.
    const lastPage = pages.findIndex((p) => p.items.some((i) => i.str.trim() === 'L5')) + 1;
    expect(joinFirst(pages[0]!)).toContain(`last line on page ${lastPage}`);
    return perPage;
  }
  function joinFirst(page: PageText): string {
    return page.items.map((i) => i.str).join('');
  }

  it('keeps widows lines on the next page: 1 allows one, 3 moves two more', async () => {
    expect(await split(7, 'widows: 1; orphans: 1;')).toEqual([3, 2]);
    expect(await split(9, 'widows: 1; orphans: 1;')).toEqual([1, 4]);
    expect(await split(9, 'widows: 1; orphans: 2;')).toEqual([0, 5]);
    expect(await split(6, 'widows: 3; orphans: 1;')).toEqual([2, 3]);
    expect(await split(6, 'widows: 1; orphans: 1;')).toEqual([4, 1]);
  });

  it('keeps orphans lines on the first page or moves the paragraph', async () => {
    expect(await split(8, 'widows: 1; orphans: 3;')).toEqual([0, 5]);
    expect(await split(8, 'widows: 1; orphans: 2;')).toEqual([2, 3]);
  });
});

describe('internal links', () => {
  /** Each link annotation: its page, the target page and the top of the view it asks for (points from the page's top). */
  async function links(pdf: Uint8Array): Promise<Array<{ page: number; target: number; top: number; left: number }>> {
    const doc = await openPdf(pdf);
    try {
      const out: Array<{ page: number; target: number; top: number; left: number }> = [];
      for (let i = 1; i <= doc.numPages; i++) {
        const page = await doc.getPage(i);
        for (const a of (await page.getAnnotations()) as Array<Record<string, unknown>>) {
          if (a.subtype !== 'Link' || a.dest === undefined) continue;
          const dest = (typeof a.dest === 'string' ? await doc.getDestination(a.dest) : a.dest) as unknown[] | null;
          expect(dest, `destination ${String(a.dest)}`).toBeTruthy();
          const target = await doc.getPageIndex(dest![0] as { num: number; gen: number });
          const height = (await doc.getPage(target + 1)).getViewport({ scale: 1 }).height;
          expect((dest![1] as { name: string }).name).toBe('XYZ');
          out.push({ page: i - 1, target, top: height - (dest![3] as number), left: Number(dest![2] ?? 0) });
        }
      }
      return out;
    } finally {
      await doc.destroy();
    }
  }

  const filler = (n: number): string => '<p>filler</p>'.repeat(n);
  // [case, css, html before the links, @page additions, left edge of the page area (pt)]
  const cases: Array<[string, string, string, string, number]> = [
    ['nothing else (one print, one update)', '', '', '', 90],
    [
      'margin boxes castpress draws (overlay, layout passes)',
      '.r { position: running(r); }',
      '<div class="r">HEAD</div>',
      '@top-center { content: element(r); }',
      90,
    ],
    ['bookmarks only', '', '<h1 style="font-size:12px;margin:0">Title</h1>', '', 90],
    [
      'footnotes and a right-hand break',
      '.fn { float: footnote; } #far { break-before: right; }',
      '<p>a note<span class="fn">the note</span></p>',
      '',
      90,
    ],
    // The sheet is the page and a 7.5 pt bleed on each side.
    ['a bleed and crop marks (the sheet is larger than the page)', '', '', 'bleed: 10px; marks: crop;', 97.5],
  ];
  it.each(cases)(
    'points at the target’s page and top, below the page margin: %s',
    async (_, extraCss, head, page, left) => {
      const css = `${RESET} ${extraCss} @page { size: 400px 600px; margin: 100px 60px 80px 120px; ${page} }`;
      const html = `${head}<p><a href="#mid">to mid</a> and <a href="#far">to far</a></p>${filler(30)}<p id="mid">MIDDLE target</p>${filler(30)}<h2 id="far" style="margin: 20px 0 0; font-size: 14px">FAR target</h2><p><a href="#mid">back</a></p>`;
      const pdf = await renderHtml(pool, { html, css });
      const pages = await readText(pdf);
      const where = (s: string): { page: number; top: number } => {
        const page = pages.findIndex((p) => item(p, s));
        expect(page, s).toBeGreaterThanOrEqual(0);
        return { page, top: item(pages[page]!, s)!.y };
      };
      const mid = where('MIDDLE target');
      const far = where('FAR target');
      expect(far.page).toBeGreaterThan(mid.page);
      const found = await links(pdf);
      expect(found.map((l) => l.page)).toEqual([0, 0, far.page]);
      for (const [l, t] of [
        [found[0]!, mid],
        [found[1]!, far],
        [found[2]!, mid],
      ] as const) {
        expect(l.target).toBe(t.page);
        // The view's top is at the element's top: just above its first line's glyphs (the h2's 15 pt
        // margin after a forced break is above it), never the top margin (75 pt) higher.
        expect(t.top - l.top).toBeGreaterThanOrEqual(0);
        expect(t.top - l.top).toBeLessThan(4);
        // and its left edge at the page area's
        expect(l.left).toBe(left);
      }
    },
  );
});
