/**
 * css-gcpm-3 §4 page selectors: `@page :nth(An+B)` and `@page :nth(An+B of <name>)` with page groups, and
 * `name:first` as the first page of each group of that name. Chromium drops rules with `:nth()` and
 * matches `name:first` on the document's first page only: each case reads back which text lands in
 * which margin box of which page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { rewriteGcpm } from '../src/html/css/rewrite.js';
import { decodeNth } from '../src/html/in-page/contract.js';
import { parseAnB } from '../src/html/css/page-selectors.js';
import { readText, type PageText } from './helpers/pdf.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

const M = 37.5;
const RESET = 'body { margin: 0; font-size: 12px; } p, h2 { margin: 0; }';
const band = (p: PageText, which: 'top' | 'bottom'): string =>
  p.items
    .filter((i) => (which === 'top' ? i.y < M : i.y > p.height - M))
    .sort((a, b) => a.x - b.x)
    .map((i) => i.str)
    .join('')
    .replace(/\s+/g, ' ')
    .trim();

async function render(html: string, css: string): Promise<PageText[]> {
  return readText(await renderHtml(pool, { html, css: `${RESET} ${css}` }));
}

/** Pages 1..n of body text, each on a page of its own. */
const pagesOf = (n: number) =>
  Array.from({ length: n }, (_, i) => `<p${i ? ' style="break-before: page"' : ''}>body ${i + 1}</p>`).join('');

describe(':nth(An+B) counts the pages of the document', () => {
  it('selects odd, even, the first three and one page, over the unnamed rule', async () => {
    const css = `@page { @top-left { content: "all" } }
      @page :nth(odd) { @top-left { content: "odd" } }
      @page :nth(2n) { @top-left { content: "even" } }
      @page :nth(-n+3) { @bottom-center { content: "early" } }
      @page :nth(5) { @bottom-center { content: "five" } }`;
    const pages = await render(pagesOf(6), css);
    expect(pages.map((p) => band(p, 'top'))).toEqual(['odd', 'even', 'odd', 'even', 'odd', 'even']);
    expect(pages.map((p) => band(p, 'bottom'))).toEqual(['early', 'early', 'early', '', 'five', '']);
  });

  it('combines with :left and :right and a page name, and the more specific rule wins', async () => {
    const css = `@page :nth(2n+1) { @top-center { content: "nth" } }
      @page :right { @top-center { content: "right" } }
      @page :nth(3):right { @top-center { content: "third" } }
      @page wide { @top-center { content: "wide" } }
      @page wide:nth(4) { @top-center { content: "wide four" } }
      .w { page: wide; }`;
    const html = `${pagesOf(3)}<div class="w"><p>body 4</p><p style="break-before: page">body 5</p></div>`;
    const pages = await render(html, css);
    expect(pages.map((p) => band(p, 'top'))).toEqual(['nth', '', 'third', 'wide four', 'wide']);
  });
});

describe(':nth(An+B of name) and page groups (css-gcpm-3 §4.1)', () => {
  const chapters = (lengths: number[]) =>
    '<section class="cover"><h2>Cover</h2></section>' +
    lengths
      .map(
        (n, c) =>
          `<section class="chapter"><h2>Chapter ${c + 1}</h2>${Array.from({ length: n }, (_, k) => `<p${k ? ' style="break-before: page"' : ''}>ch${c + 1} page ${k + 1}</p>`).join('')}</section>`,
      )
      .join('');
  const css = `.cover { page: cover; } .chapter { page: chapter; break-before: page; }
    @page { @top-center { content: "Running head" } }
    @page :nth(1 of chapter) { @bottom-left { content: "opens" } }
    @page :nth(2n of chapter) { @bottom-right { content: "even in chapter" } }
    @page chapter:first { @top-center { content: none } }`;

  it('counts each chapter’s pages from 1: a named element after a forced break starts a group', async () => {
    const pages = await render(chapters([3, 1, 2]), css);
    expect(pages.map((p) => band(p, 'bottom'))).toEqual([
      '',
      'opens',
      'even in chapter',
      '',
      'opens',
      'opens',
      'even in chapter',
    ]);
  });

  it('takes name:first for the first page of every group of that name, not only the document’s first page', async () => {
    const pages = await render(chapters([2, 2]), css);
    expect(pages.map((p) => band(p, 'top'))).toEqual(['Running head', '', 'Running head', '', 'Running head']);
  });

  it('counts a run of pages of one name without forced breaks as one group', async () => {
    const html = `<div class="a" style="page: part"><p>one</p><p style="break-before: page">two</p></div><div style="page: part"><p>three</p></div><p>free</p>`;
    const pages = await render(html, '@page :nth(n+2 of part) { @top-right { content: "later" } }');
    // one and two are part 1–2; "three" follows "two" on its page (same name, no break: one group), and
    // "free", unnamed, starts a page of the unnamed group.
    expect(pages.map((p) => band(p, 'top'))).toEqual(['', 'later', '']);
    // Tagged output gives pdf.js an empty item where a structure element ends: words only.
    const body = (p: PageText) =>
      p.items
        .filter((i) => i.y > M && i.str.trim() !== '')
        .map((i) => i.str)
        .join(' ');
    expect(pages.map(body)).toEqual(['one', 'two three', 'free']);
  });
});

describe('the margins :nth() and page groups add (css-page-3 §7.1 page-margin properties)', () => {
  const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt. ';
  const bodyItems = (p: PageText) => p.items.filter((i) => i.y > M - 1 && i.y < p.height - M && /\w/.test(i.str));

  it('ends even pages earlier for @page :nth(2n) { margin-bottom } and keeps every line', async () => {
    const html = Array.from({ length: 60 }, (_, i) => `<p>Para ${i} ${lorem.repeat(3)}</p>`).join('');
    const pages = await render(html, 'p { margin: 0 0 6px; } @page :nth(2n) { margin-bottom: 300px; }');
    expect(pages.length).toBeGreaterThan(3);
    pages.forEach((p, k) => {
      const last = Math.max(...bodyItems(p).map((i) => i.baseline));
      // 300px is 225pt: even pages end above 792 - 225; odd ones run to the 37.5pt margin.
      if (k % 2 === 1) expect(last).toBeLessThan(p.height - 225);
      else if (k < pages.length - 1) expect(last).toBeGreaterThan(p.height - 225);
    });
    const paras = pages.flatMap((p) =>
      p.items.flatMap((i) => [...i.str.matchAll(/Para (\d+)/g)].map((m) => Number(m[1]))),
    );
    expect(paras).toEqual(Array.from({ length: 60 }, (_, i) => i));
  });

  it('moves a chapter’s first page down for @page :nth(1 of chapter) { margin-top }, and its header with it', async () => {
    const chapter = (c: number) =>
      `<section class="chapter"><h2>Chapter ${c}</h2>${Array.from({ length: 14 }, (_, i) => `<p>C${c} ${lorem.repeat(3)}</p>`).join('')}</section>`;
    const html = `<section class="cover"><h2>Cover</h2></section>${chapter(1)}${chapter(2)}`;
    const css = `p { margin: 0 0 6px; } .cover { page: cover; } .chapter { page: chapter; break-before: page; }
      @page :nth(1 of chapter) { margin-top: 250px; @top-center { content: "opener"; } }`;
    const pages = await render(html, css);
    const heading = (n: number) => pages.findIndex((p) => p.items.some((i) => i.str === `Chapter ${n}`));
    for (const n of [1, 2]) {
      const p = pages[heading(n)]!;
      const h = p.items.find((i) => i.str === `Chapter ${n}`)!;
      // 250px is 187.5pt below the page top; the opener is centred in that margin.
      expect(h.y).toBeGreaterThan(186);
      expect(h.y).toBeLessThan(200);
      const opener = p.items.find((i) => i.str === 'opener')!;
      expect(opener.y).toBeGreaterThan(70);
      expect(opener.y).toBeLessThan(110);
      // The chapter's second page starts at the ordinary margin.
      expect(Math.min(...bodyItems(pages[heading(n) + 1]!).map((i) => i.y))).toBeLessThan(M + 4);
    }
  });
});

describe('the rewrite of :nth() page selectors', () => {
  it('turns each :nth() selector into a page name no element has and back', () => {
    const css = rewriteGcpm('@page :nth(2n+1), chapter:nth(-n + 3 of chapter):left, :first { margin: 1in }');
    const names = [...css.matchAll(/__fs_nth_\w+/g)].map((m) => decodeNth(m[0]));
    expect(names).toEqual([
      { a: 2, b: 1, group: null, name: '' },
      { a: -1, b: 3, group: 'chapter', name: 'chapter' },
    ]);
    expect(css).toMatch(/__fs_nth_\w+:left, :first \{ margin: 1in \}$/);
    // A selector that does not parse is left for Chromium to drop with its rule.
    expect(rewriteGcpm('@page :nth(x) {}')).toBe('@page :nth(x) {}');
  });

  it('reads An+B as css-syntax-3 does', () => {
    expect(['odd', 'even', '3', '-n+2', '2n + 1', 'n', '+5', '-2n-1', 'x'].map(parseAnB)).toEqual([
      [2, 1],
      [2, 0],
      [0, 3],
      [-1, 2],
      [2, 1],
      [1, 0],
      [0, 5],
      [-2, -1],
      null,
    ]);
  });
});
