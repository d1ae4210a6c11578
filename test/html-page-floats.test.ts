/**
 * Page floats (`float: top | bottom`, as Prince and Vivliostyle place them): at the top or bottom of the
 * page their place in the text falls on. Positions read back through pdf.js.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { readText, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

// A 300 × 450 pt page with 45 pt margins: the page area runs from 45 to 405 pt down the page.
const CSS = `body { margin: 0; font-size: 12px; } p { margin: 0; line-height: 20px; }
  @page { size: 400px 600px; margin: 60px; }
  .fig { height: 100px; margin: 0; background: #ddd; font-size: 12px; line-height: 20px; }`;
const lines = (from: number, n: number): string =>
  Array.from({ length: n }, (_, i) => `<p>line ${from + i}</p>`).join('');

function find(pages: PageText[], str: string): { page: number; y: number; baseline: number } {
  for (const [page, p] of pages.entries()) {
    const it = p.items.find((i) => i.str === str);
    if (it) return { page, y: it.y, baseline: it.baseline };
  }
  throw new Error(`${str} not found`);
}

describe('page floats', () => {
  it('moves float: top to the top of the page its place falls on; the text before it on that page follows it', async () => {
    // 24 lines of 20px fill a page (480px); the figure's place is after line 30, on page 2.
    const html = `${lines(1, 30)}<div class="fig" style="float: top">FIGURE</div>${lines(31, 30)}`;
    const pages = await readText(await renderHtml(pool, { html, css: CSS }));
    const fig = find(pages, 'FIGURE');
    expect(fig.page).toBe(1);
    // its first line at the top of the page area
    expect(fig.y).toBeGreaterThanOrEqual(45);
    expect(fig.y).toBeLessThan(50);
    // line 25, which started page 2, now follows the figure (100px = 75 pt lower)
    const l25 = find(pages, 'line 25');
    expect(l25.page).toBe(1);
    expect(l25.y - fig.y).toBeGreaterThan(74);
    expect(l25.y - fig.y).toBeLessThan(78);
    // nothing is lost or doubled
    for (let i = 1; i <= 60; i++)
      expect(pages.flatMap((p) => p.items).filter((it) => it.str === `line ${i}`)).toHaveLength(1);
  });

  it('moves float: bottom to the bottom of its page; the text after it fills the room above', async () => {
    const html = `${lines(1, 3)}<div class="fig" style="float: bottom">FIGURE</div>${lines(4, 40)}`;
    const pages = await readText(await renderHtml(pool, { html, css: CSS }));
    const fig = find(pages, 'FIGURE');
    expect(fig.page).toBe(0);
    // the figure's box (75 pt, its text on the first line) ends at the page area's bottom (405 pt)
    expect(fig.y).toBeGreaterThan(405 - 75 - 3);
    expect(fig.y).toBeLessThan(405 - 75 + 5);
    // line 4 follows line 3 at once (the figure no longer sits between them)
    const l3 = find(pages, 'line 3');
    const l4 = find(pages, 'line 4');
    expect(l4.page).toBe(0);
    expect(l4.y - l3.y).toBeCloseTo(15, 0);
    // and page 1's text ends above the figure
    const last = pages[0]!.items.filter((i) => i.str.startsWith('line')).map((i) => i.y);
    expect(Math.max(...last)).toBeLessThan(fig.y);
  });

  it('moves a float whose page starts inside a paragraph above that paragraph’s first line there', async () => {
    // One paragraph of 40 lines (br), the figure after it: page 2 starts inside the paragraph.
    const para = `<p>${Array.from({ length: 40 }, (_, i) => `row ${i + 1}`).join('<br>')}</p>`;
    const html = `${para}<div class="fig" style="float: top">FIGURE</div><p>after</p>`;
    const pages = await readText(await renderHtml(pool, { html, css: CSS }));
    const fig = find(pages, 'FIGURE');
    expect(fig.page).toBe(1);
    expect(fig.y).toBeLessThan(50);
    const row = pages[1]!.items.filter((i) => i.str.startsWith('row')).sort((a, b) => a.y - b.y)[0]!;
    expect(row.y).toBeGreaterThan(fig.y + 70);
  });

  it('keeps two top floats of one page in their order, and page numbers after them right', async () => {
    // Both figures' places are on page 2; moved, they push ten lines on, and the cross-reference (a
    // castpress page number) reads the page its target prints on after that.
    const css = `${CSS} .ref::after { content: target-counter(attr(href url), page); }`;
    const html = `<p><a class="ref" href="#end">end on page </a></p>${lines(2, 28)}<div class="fig" style="float: top">FIG-A</div>${lines(30, 3)}<div class="fig" style="float: top">FIG-B</div>${lines(33, 30)}<p id="end">END</p>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    const a = find(pages, 'FIG-A');
    const b = find(pages, 'FIG-B');
    expect(a.page).toBe(1);
    expect(b.page).toBe(1);
    expect(a.y).toBeLessThan(50);
    expect(b.y - a.y).toBeCloseTo(75, 0);
    const end = find(pages, 'END');
    expect(pages[0]!.items.map((i) => i.str).join('')).toContain(`end on page ${end.page + 1}`);
  });
});
