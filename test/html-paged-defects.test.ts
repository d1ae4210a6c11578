/**
 * Paged-media defects found by trying small documents: running elements hidden in the flow or offset,
 * named strings inside a running element, left/right breaks inside flex and grid containers, and forced
 * breaks on inline-level elements. Each case reads back the text of each page and where it lands.
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

const M = 37.5;
const RESET = 'body { margin: 0; font-size: 12px; } p, h1, h2 { margin: 0; }';

async function render(html: string, css: string): Promise<PageText[]> {
  return readText(await renderHtml(pool, { html, css: `${RESET} ${css}` }));
}
const header = (p: PageText): string =>
  p.items
    .filter((i) => i.y < M)
    .sort((a, b) => a.x - b.x)
    .map((i) => i.str)
    .join('')
    .trim();
const body = (p: PageText): string =>
  p.items
    .filter((i) => i.y >= M && i.y <= p.height - M)
    .map((i) => i.str)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
/** Pairs of text items on a page whose boxes overlap (text drawn over text). */
const overlaps = (p: PageText): number => {
  const items = p.items.filter((i) => i.str.trim());
  let n = 0;
  for (let a = 0; a < items.length; a++)
    for (let b = a + 1; b < items.length; b++) {
      const A = items[a]!,
        B = items[b]!;
      if (A.x + 1 < B.x + B.width && B.x + 1 < A.x + A.width && A.y + 1 < B.y + B.height && B.y + 1 < A.y + A.height)
        n++;
    }
  return n;
};

describe('running elements', () => {
  it('uses a running element hidden in the flow with display: none, on the page where it stands', async () => {
    const html = `<div class="h">Header one</div><p>Body one</p>
      <div class="h">Header two</div><p style="break-before: page">Body two</p><p style="break-before: page">Body three</p>`;
    const pages = await render(
      html,
      '.h { position: running(hdr); display: none; } @page { @top-center { content: element(hdr); } }',
    );
    expect(pages.map(header)).toEqual(['Header one', 'Header two', 'Header two']);
    expect(pages.map(body)).toEqual(['Body one', 'Body two', 'Body three']);
  });

  it('keeps a running element with offsets (left: 1000px, top: 500px) in the header', async () => {
    const html = '<div class="h">Offset header</div><p>Body one</p><p style="break-before: page">Body two</p>';
    const pages = await render(
      html,
      '.h { position: running(hdr); left: 1000px; top: 500px; } @page { @top-center { content: element(hdr); } }',
    );
    expect(pages.map(header)).toEqual(['Offset header', 'Offset header']);
  });
});

describe('named strings', () => {
  it('shows, in a running element, the string set on the page it is drawn on', async () => {
    const lorem = 'Lorem ipsum dolor sit amet, consectetur adipiscing elit. ';
    const html = `<header class="run">Book — <span class="t"></span></header>
      <h2>First</h2><p>${lorem.repeat(150)}</p><h2>Second</h2><p>${lorem.repeat(2)}</p>`;
    const pages = await render(
      html,
      `h2 { string-set: title content(); } .run { position: running(hdr); } .t::before { content: string(title); }
       @page { @top-center { content: element(hdr); } }`,
    );
    expect(pages.length).toBe(2);
    expect(pages.map(header)).toEqual(['Book — First', 'Book — Second']);
  });
});

describe('left and right breaks in flex and grid containers', () => {
  const cases: Array<[string, string]> = [
    [
      'a heading that starts a row flex container',
      '<p>Cover title</p><div style="display: flex"><h2 class="c">Chapter</h2><p>Chapter text</p></div>',
    ],
    [
      'a heading on its own line of a wrapping flex container',
      '<div style="display: flex; flex-wrap: wrap"><p style="width: 100%">Cover title</p><h2 class="c" style="width: 100%">Chapter</h2><p>Chapter text</p></div>',
    ],
    [
      'a heading in a grid',
      '<div style="display: grid"><p>Cover title</p><h2 class="c">Chapter</h2><p>Chapter text</p></div>',
    ],
    [
      'a heading in a column flex container',
      '<div style="display: flex; flex-direction: column"><p>Cover title</p><section><h2 class="c">Chapter</h2><p>Chapter text</p></section></div>',
    ],
  ];
  it.each(cases)('puts %s on a right page, a blank page before it, nothing drawn over the cover', async (_n, html) => {
    const pages = await render(
      html,
      '.c { break-before: right; } @page { @bottom-center { content: counter(page); } }',
    );
    expect(pages.map(body)).toEqual(['Cover title', '', 'Chapter Chapter text']);
    expect(pages.map(overlaps)).toEqual([0, 0, 0]);
  });
});

describe('forced breaks on inline-level elements', () => {
  it.each([
    [
      'a line break as word processors write it',
      '<p>One</p><br clear="all" style="page-break-before: always"><p>Two</p>',
    ],
    ['a line break inside a paragraph', '<p>One<br style="break-before: always">Two</p>'],
    ['a span', '<p>One <span style="break-before: always">Two</span></p>'],
    ['break-after on a span', '<p><span style="break-after: always">One</span> Two</p>'],
  ])('breaks the page at %s', async (_n, html) => {
    const pages = await render(html, '');
    expect(pages.map(body)).toEqual(['One', 'Two']);
  });
});
