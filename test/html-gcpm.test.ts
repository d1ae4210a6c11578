/**
 * css-gcpm-3 named strings and running elements, css-break-3 / css-page-3 left, right, recto and verso
 * breaks with :left/:right/:blank page rules. Cases written from the spec text: each renders
 * a small document and reads back which text lands in which margin box of which page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { rewriteGcpm } from '../src/html/css/rewrite.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { OPS } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { openPdf, pageText, pdffonts, popplerText, readText, type PageText, type TextItem } from './helpers/pdf.js';
import { HTML_FIXTURES } from './helpers/html-fixtures.js';
import { expectLinearTime } from './helpers/scaling.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

/** Page margins of 50px (37.5pt) all round: the default page option. */
const M = 37.5;
const RESET = 'body { margin: 0; font-size: 12px; } p, h2, h3 { margin: 0; font-size: 12px; }';

function text(items: TextItem[]): string {
  return items
    .map((i) => i.str)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}
/** Text of one margin area of a page: top or bottom band, left/centre/right third. */
function box(p: PageText, band: 'top' | 'bottom', third: 'left' | 'center' | 'right'): string {
  const inBand = p.items.filter((i) => (band === 'top' ? i.y < M : i.y > p.height - M));
  const x0 = third === 'left' ? 0 : third === 'center' ? p.width / 3 : (2 * p.width) / 3;
  return text(inBand.filter((i) => i.x + i.width / 2 >= x0 && i.x + i.width / 2 < x0 + p.width / 3));
}
/** Text of the page area (between the bands). */
function body(p: PageText): string {
  return text(p.items.filter((i) => i.y >= M && i.y <= p.height - M));
}
/** The fill colours page 1 sets (form XObjects included: pdfjs inlines them), as #rrggbb. */
async function fillColours(pdf: Uint8Array): Promise<string[]> {
  const doc = await openPdf(pdf);
  try {
    const ops = await (await doc.getPage(1)).getOperatorList();
    return ops.fnArray.flatMap((f, i) => (f === OPS.setFillRGBColor ? [String(ops.argsArray[i]?.[0])] : []));
  } finally {
    await doc.destroy();
  }
}
async function render(html: string, css: string): Promise<PageText[]> {
  return readText(await renderHtml(pool, { html, css: `${RESET} ${css}` }));
}

describe('string-set values (css-gcpm-3 §1.1)', () => {
  it('takes content(before), content(after), content(first-letter), strings and several strings in one declaration', async () => {
    const css = `h2::before { content: "§ "; } h2::after { content: " ¶"; }
      h2 { string-set: a content(before), b "x" content(after), c content(first-letter), d "[" content(text) "]"; }
      @page { @top-left { content: string(a); } @top-right { content: string(b); }
              @bottom-left { content: string(c); } @bottom-right { content: string(d); } }`;
    const [p] = await render('<h2>Chapter One</h2><p>body</p>', css);
    expect([
      box(p!, 'top', 'left'),
      box(p!, 'top', 'right'),
      box(p!, 'bottom', 'left'),
      box(p!, 'bottom', 'right'),
    ]).toEqual(['§', 'x ¶', 'C', '[Chapter One]']);
  });

  it('evaluates counter() and counters() at the element, in their counter style, and counters shown by content(before)', async () => {
    const css = `body { counter-reset: chap; } section { counter-reset: sec; }
      h2 { counter-increment: chap; string-set: chap "Ch. " counter(chap, upper-roman); }
      h3::before { counter-increment: sec; content: counter(chap) "." counter(sec) " "; }
      h3 { string-set: sec content(before) content(), path counters(chap, "-") "/" counters(sec, "."); }
      @page { @top-left { content: string(chap); } @top-right { content: string(sec, last); } @bottom-right { content: string(path, last); } }`;
    const html = `<h2>One</h2><section><h3>a</h3><h3>b</h3></section>
      <h2 style="break-before: page">Two</h2><section><h3>c</h3></section>`;
    const pages = await render(html, css);
    expect(pages.map((p) => box(p, 'top', 'left'))).toEqual(['Ch. I', 'Ch. II']);
    expect(pages.map((p) => box(p, 'top', 'right'))).toEqual(['1.2 b', '2.1 c']);
    expect(pages.map((p) => box(p, 'bottom', 'right'))).toEqual(['1/1', '2/0']);
  });

  it('gives counter(page) and counter(pages) of the page the assignment is on', async () => {
    const css = `h2 { string-set: where "on " counter(page) " of " counter(pages); }
      @page { @top-center { content: string(where); } }`;
    const pages = await render(
      '<p>one</p><h2 style="break-before: page">Two</h2><p style="break-before: page">three</p>',
      css,
    );
    expect(pages.map((p) => box(p, 'top', 'center'))).toEqual(['', 'on 2 of 3', 'on 2 of 3']);
  });
});

describe('string() page policies (css-gcpm-3 §1.2)', () => {
  const css = (policy: string) =>
    `.s { string-set: h content(); } @page { @top-center { content: string(h, ${policy}); } }`;

  it('start: an inline element at the very top of the page sets the start value', async () => {
    const html = `<p><span class="s">Alpha</span> one</p>
      <p style="break-before: page"><span class="s">Beta</span> two</p>
      <p style="break-before: page">three <span class="s">Gamma</span></p>`;
    expect((await render(html, css('start'))).map((p) => box(p, 'top', 'center'))).toEqual(['Alpha', 'Beta', 'Beta']);
  });

  it('start: the first element on the page sets it even below its container’s margin, border and padding', async () => {
    const html = `<h2 class="s">Alpha</h2><p>one</p>
      <section style="break-before: page; margin-top: 30px; border-top: 2px solid; padding-top: 10px"><h2 class="s" style="margin-top: 6px">Beta</h2><p>two</p></section>
      <section style="break-before: page; margin-top: 30px"><p>three</p><h2 class="s">Gamma</h2></section>`;
    expect((await render(html, css('start'))).map((p) => box(p, 'top', 'center'))).toEqual(['Alpha', 'Beta', 'Beta']);
  });

  it('first, last and first-except choose among the assignments on the page', async () => {
    const html = `<h2 class="s">A</h2><h2 class="s">B</h2><p style="break-before: page">two</p>
      <p style="break-before: page">three</p><h2 class="s">C</h2>`;
    const all = await Promise.all(['first', 'last', 'first-except'].map((p) => render(html, css(p))));
    expect(all.map((pages) => pages.map((p) => box(p, 'top', 'center')))).toEqual([
      ['A', 'B', 'C'],
      ['B', 'B', 'C'],
      ['', 'B', ''],
    ]);
  });

  it('an element with display: none still sets its string, but is never the start of a page', async () => {
    const style = `.s { string-set: h content(); }
      @page { @top-left { content: string(h, start); } @top-right { content: string(h, first); }
              @bottom-center { content: string(h, last); } }`;
    // the last one has nothing rendered after it: the content before it places it
    const html = `<h2 class="s">One</h2><div class="s" style="display: none">Hidden</div><p>one</p>
      <section style="break-before: page"><div class="s" style="display: none">Two</div><p>two</p></section>
      <div class="s" style="display: none">End</div>`;
    const pages = await render(html, style);
    expect(pages.map((p) => [box(p, 'top', 'left'), box(p, 'top', 'right'), box(p, 'bottom', 'center')])).toEqual([
      ['One', 'One', 'Hidden'],
      ['Hidden', 'Two', 'End'],
    ]);
    expect(pages.map(body)).toEqual(['One one', 'two']);
  });
});

describe('running elements (css-gcpm-3 §2)', () => {
  it('lays the element out as position: static in its margin box, with its own styles', async () => {
    const css = `.run { position: absolute; left: 300px; top: 400px; color: rgb(0, 0, 255); }
      .run { position: running(r); } @page { @top-center { content: element(r); } }`;
    const [p] = await render('<div class="run">RUN</div><p>body</p>', css);
    expect(box(p!, 'top', 'center')).toBe('RUN');
    // out of the flow: nothing of it in the page area, and the body text starts the page
    expect(body(p!)).toBe('body');
  });

  it('element(x, start) takes the element that starts the page, below its container’s margin', async () => {
    const css = `.h { position: running(h); } @page { @top-center { content: element(h, start); } }`;
    const html = `<div class="h">A</div><p>one</p>
      <section style="break-before: page; margin-top: 30px"><div class="h">B</div><p>two</p></section>
      <section style="break-before: page"><p>three</p><div class="h">C</div></section>`;
    expect((await render(html, css)).map((p) => box(p, 'top', 'center'))).toEqual(['A', 'B', 'B']);
  });
});

describe('left, right, recto and verso breaks (css-break-3 §3.1, css-page-3 page progression)', () => {
  const ltr = '';
  const rtl = 'html { direction: rtl; }';
  it.each([
    ['ltr break-before: right', ltr, '<p>A</p><p style="break-before: right">B</p>', ['A', '', 'B']],
    ['ltr break-before: left', ltr, '<p>A</p><p style="break-before: left">B</p>', ['A', 'B']],
    ['ltr break-before: recto', ltr, '<p>A</p><p style="break-before: recto">B</p>', ['A', '', 'B']],
    [
      'ltr break-before: verso',
      ltr,
      '<p>A</p><p style="break-before: page">X</p><p style="break-before: verso">B</p>',
      ['A', 'X', '', 'B'],
    ],
    [
      'ltr page-break-before: left',
      ltr,
      '<p>A</p><p style="page-break-before: always">X</p><p style="page-break-before: left">B</p>',
      ['A', 'X', '', 'B'],
    ],
    ['ltr page-break-after: right', ltr, '<p style="page-break-after: right">A</p><p>B</p>', ['A', '', 'B']],
    ['rtl break-before: right', rtl, '<p>A</p><p style="break-before: right">B</p>', ['A', 'B']],
    ['rtl break-before: left', rtl, '<p>A</p><p style="break-before: left">B</p>', ['A', '', 'B']],
    ['rtl break-before: recto', rtl, '<p>A</p><p style="break-before: recto">B</p>', ['A', '', 'B']],
    ['rtl break-after: verso', rtl, '<p style="break-after: verso">A</p><p>B</p>', ['A', 'B']],
  ])('%s', async (_name, dir, html, want) => {
    expect(await pageText(await renderHtml(pool, { html, css: `${RESET} ${dir}` }))).toEqual(want);
  });

  const sides = `@page :left { margin-left: 100px; @top-left { content: "LEFT"; } }
    @page :right { @top-right { content: "RIGHT"; } }
    @page :blank { @bottom-center { content: "BLANK"; } }`;

  it('the inserted page is :blank and takes the :left rules (margins, margin boxes)', async () => {
    const pages = await render('<p>A</p><p style="break-before: right">B</p>', sides);
    expect(pages.map((p) => [box(p, 'top', 'left'), box(p, 'top', 'right'), box(p, 'bottom', 'center')])).toEqual([
      ['', 'RIGHT', ''],
      ['LEFT', '', 'BLANK'],
      ['', 'RIGHT', ''],
    ]);
    // the @top-left box starts at the :left page's 100px left margin
    const left = pages[1]!.items.find((i) => i.str.includes('LEFT'))!;
    expect(left.x).toBeGreaterThan(75 - 1);
    expect(left.x).toBeLessThan(75 + 20);
  });

  it('the same when the overlay draws the margin boxes (element() in use), also in RTL', async () => {
    const run = `.h { position: running(h); } @page { @top-center { content: element(h); } }`;
    const pages = await render('<div class="h">H</div><p>A</p><p style="break-before: right">B</p>', `${sides} ${run}`);
    expect(
      pages.map((p) => [
        box(p, 'top', 'left'),
        box(p, 'top', 'center'),
        box(p, 'top', 'right'),
        box(p, 'bottom', 'center'),
      ]),
    ).toEqual([
      ['', 'H', 'RIGHT', ''],
      ['LEFT', 'H', '', 'BLANK'],
      ['', 'H', 'RIGHT', ''],
    ]);
    // right-to-left: page 1 is a left page, a break to the left adds a blank right page
    const rtlPages = await render(
      '<div class="h">H</div><p>A</p><p style="break-before: left">B</p>',
      `${rtl} ${sides} ${run}`,
    );
    expect(rtlPages.map((p) => [box(p, 'top', 'left'), box(p, 'top', 'right'), box(p, 'bottom', 'center')])).toEqual([
      ['LEFT', '', ''],
      ['', 'RIGHT', 'BLANK'],
      ['LEFT', '', ''],
    ]);
  });
});

describe('margin boxes: what they inherit and where they come in the content (css-page-3 §4.1, §5)', () => {
  const pacifico = readFileSync(path.join(HTML_FIXTURES, 'weasyprint-invoice/pacifico.ttf')).toString('base64');

  it("inherit the page context's font, size, colour and text-transform when the overlay draws them", async () => {
    // string() puts the document on the overlay (before: it did not inherit from @page at all)
    const css = `h2 { string-set: t content(); }
      @page { font-family: 'Liberation Mono'; font-size: 20px; text-transform: uppercase; color: rgb(0, 128, 0);
              @top-left { content: string(t); } @bottom-right { content: "footer"; font-size: 10px; } }`;
    const pdf = await renderHtml(pool, { html: '<h2>Chapter</h2><p>body</p>', css: `${RESET} ${css}` });
    const [p] = await readText(pdf);
    expect([box(p!, 'top', 'left'), box(p!, 'bottom', 'right'), body(p!)]).toEqual([
      'CHAPTER',
      'FOOTER',
      'Chapter body',
    ]);
    // the body is Noto Sans: Liberation Mono is the margin boxes' font
    expect((await pdffonts(pdf)).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''))).toContain('LiberationMono');
    const head = p!.items.find((i) => i.str.includes('CHAPTER'))!;
    const foot = p!.items.find((i) => i.str.includes('FOOTER'))!;
    // 20px = 15pt from @page, the box's own 10px = 7.5pt wins over it
    expect(head.height).toBeCloseTo(15, 0);
    expect(foot.height).toBeCloseTo(7.5, 0);
    // green, from @page
    expect(await fillColours(pdf)).toContain('#008000');
  });

  it('a web font named only by @page reaches a footer, which comes after the page area in the content', async () => {
    const css = `@font-face { font-family: PageOnly; src: url(data:font/ttf;base64,${pacifico}); }
      @page { font-family: PageOnly; @bottom-left { content: "Thank you"; } @top-center { content: "Head"; }
              @bottom-right { content: "p. " counter(page, upper-roman) " / " counter(pages); } }`;
    const pdf = await renderHtml(pool, {
      html: '<p>first page</p><p style="break-before: page">second page</p>',
      css: `${RESET} ${css}`,
    });
    // poppler's raw order is the content stream's: the header (Chromium's box) first, the page area, then the
    // footer (the overlay). Before, Chromium painted both bands first: "Head Thank you p. I / 2 first page".
    expect((await popplerText(pdf)).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual([
      'Head first page Thank you p. I / 2',
      'Head second page Thank you p. II / 2',
    ]);
    expect((await pdffonts(pdf)).map((f) => f.name.replace(/^[A-Z]{6}\+/, ''))).toContain('Pacifico-Regular');
    const [p] = await readText(pdf);
    const thanks = p!.items.find((i) => i.str.includes('Thank'))!;
    expect(thanks.x).toBeCloseTo(M, 0);
    expect(thanks.y).toBeGreaterThan(p!.height - M);
  });

  it("boxes the overlay cannot draw as Chromium does (an image) stay Chromium's, in its order", async () => {
    const dot =
      'data:image/svg+xml,' + encodeURIComponent('<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"/>');
    const css = `@page { @bottom-left { content: url("${dot}") " logo"; } }`;
    const pdf = await renderHtml(pool, { html: '<p>body</p>', css: `${RESET} ${css}` });
    expect((await popplerText(pdf)).map((t) => t.replace(/\s+/g, ' ').trim())).toEqual(['logo body']);
  });
});

describe('the CSS rewrite of these properties', () => {
  it('renames @page :blank to the blank pages’ name, keeps named :blank rules, and makes running elements static', () => {
    expect(
      rewriteGcpm(
        '@page :blank { margin: 0 } @page :left:blank{} @page:blank:right{} @page ch:blank {} @page :left {}',
      ),
    ).toBe(
      '@page __fs_blank { margin: 0 } @page __fs_blank:left{} @page __fs_blank:right{} @page ch:blank {} @page :left {}',
    );
    expect(rewriteGcpm('.h { position: running(hdr) !important; } .f { position:running(f) }')).toBe(
      '.h { position: static !important; --fs-running: hdr !important; } .f { position: static; --fs-running: f }',
    );
  });

  it('the :blank rename is linear in the CSS', async () => {
    const inputs = [(n: number) => '@page' + ':blank'.repeat(n), (n: number) => '@page :' + 'a:'.repeat(n) + '{'];
    const out = await expectLinearTime(
      '@page :blank',
      async (n) => inputs.map((css) => rewriteGcpm(css(n))),
      2_000,
      16_000,
    );
    expect(out[0]!.startsWith('@page __fs_blank')).toBe(true);
  });
});
