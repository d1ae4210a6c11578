/**
 * css-gcpm-3 §2 footnotes: `float: footnote`, `::footnote-call`, `::footnote-marker`, the `@footnote` area,
 * the `footnote` counter, `footnote-display` and `footnote-policy`. Each case renders a small document and
 * reads back where the text of calls, notes and body lands (pdfjs), and pixels where a rule is drawn.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { rewriteGcpm } from '../src/html/css/rewrite.js';
import { readText, type PageText, type TextItem } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';
import { expectGolden } from './helpers/golden.js';

let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({ maxPages: 2 });
});
afterAll(async () => {
  await pool.close();
});

/** Letter pages with the default 50px (37.5pt) margins. */
const M = 37.5;
const BASE = 'body { margin: 0; font-size: 12px; } p { margin: 0 0 8px; } .fn { float: footnote; font-size: 10px; }';
const LOREM =
  'Lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod tempor incididunt ut labore et dolore magna aliqua. ';

async function render(html: string, css: string): Promise<PageText[]> {
  return readText(await renderHtml(pool, { html, css: `${BASE} ${css}` }));
}
const notesOf = (p: PageText): TextItem[] => p.items.filter((i) => /Note \d+/.test(i.str));
const bodyOf = (p: PageText): TextItem[] =>
  p.items.filter((i) => /Lorem|Claim|aliqua|tempor/.test(i.str) && !/Note \d+/.test(i.str));
const numbersIn = (items: TextItem[], re: RegExp): number[] =>
  items.flatMap((i) => [...i.str.matchAll(re)].map((m) => Number(m[1])));

/** Paragraphs with one note each ("Claim n" calls "Note n"), of varied length, seeded. */
function essay(count: number, noteWords = 1, seed = 7): string {
  let s = seed;
  const rand = (n: number) => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return s % n;
  };
  let html = '';
  for (let i = 1; i <= count; i++) {
    const note = `Note ${i} says this. ${'And more words. '.repeat(noteWords * rand(4))}`;
    html += `<p>${LOREM.repeat(1 + rand(4))}Claim ${i}<span class="fn">${note}</span> ${LOREM.repeat(rand(3))}</p>`;
  }
  return html;
}

/** Each page: no body text reaches the top of its footnote area, every call's note is on its page and only there. */
function expectNotesWithCalls(pages: PageText[]): void {
  const placed: number[] = [];
  pages.forEach((p, k) => {
    const notes = notesOf(p);
    const claims = numbersIn(bodyOf(p), /Claim (\d+)/g);
    const noted = numbersIn(notes, /Note (\d+)/g);
    expect({ page: k + 1, noted }).toEqual({ page: k + 1, noted: claims });
    placed.push(...noted);
    if (!notes.length) return;
    const areaTop = Math.min(...notes.map((n) => n.y));
    const lowest = Math.max(...bodyOf(p).map((b) => b.baseline));
    expect(lowest).toBeLessThan(areaTop);
    // The area sits on the bottom margin: its last line ends within one line of the content box's bottom.
    const last = Math.max(...notes.map((n) => n.baseline));
    expect(last).toBeLessThanOrEqual(p.height - M + 1);
    expect(last).toBeGreaterThan(p.height - M - 16);
  });
  expect(placed).toEqual([...placed].sort((a, b) => a - b));
}

describe('notes at the bottom of their page (css-gcpm-3 §2.1)', () => {
  it('moves the note out of the sentence into the area above the bottom margin, with its call and marker numbered', async () => {
    const [page, ...rest] = await render(
      `<p>Footnotes<span class="fn">Note 1 is a comment.</span> are essential, and readers read them<span class="fn">Note 2 often.</span>.</p>`,
      '',
    );
    expect(rest).toEqual([]);
    // The sentence closes up where the notes were; the calls are superscript numbers (Noto Sans's sups glyphs).
    const sentence = page!.items
      .filter((i) => i.y < 100)
      .map((i) => i.str)
      .join('');
    expect(sentence).toBe('Footnotes¹ are essential, and readers read them².');
    const notes = notesOf(page!);
    expect(notes.map((n) => n.str)).toEqual(['1. Note 1 is a comment.', '2. Note 2 often.']);
    expect(Math.max(...notes.map((n) => n.baseline))).toBeGreaterThan(page!.height - M - 16);
    expect(Math.max(...notes.map((n) => n.baseline))).toBeLessThanOrEqual(page!.height - M);
  });

  it('shrinks the page area by the notes: body text continues on the next page instead of running under them', async () => {
    const pages = await render(essay(40, 2), '');
    expect(pages.length).toBeGreaterThan(2);
    expectNotesWithCalls(pages);
    // No words are lost or doubled: every claim shows once, in order.
    expect(pages.flatMap((p) => numbersIn(bodyOf(p), /Claim (\d+)/g))).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 1),
    );
  });

  it('moves a call whose note no longer fits on its page to the next page, with its note', async () => {
    // One tall paragraph fills the page; the call sits near its bottom and its note is long.
    const html = `<p>${LOREM.repeat(50)}</p><p>${LOREM.repeat(2)}Claim 1<span class="fn">Note 1 ${'is long and goes on. '.repeat(40)}</span> ${LOREM.repeat(4)}</p>`;
    const pages = await render(html, 'p { orphans: 1; widows: 1; }');
    const on = (n: number) => pages.findIndex((p) => numbersIn(bodyOf(p), /Claim (\d+)/g).includes(n));
    const noteOn = (n: number) => pages.findIndex((p) => numbersIn(notesOf(p), /Note (\d+)/g).includes(n));
    expect(on(1)).toBe(1);
    expect(noteOn(1)).toBe(1);
    // Page 1 still holds the text before the call's line.
    expect(bodyOf(pages[0]!).length).toBeGreaterThan(20);
  });

  it('keeps notes with their calls in lists, tables and next to boxes', async () => {
    let n = 0;
    const claim = () => `Claim ${++n}<span class="fn">Note ${n} about it.</span>`;
    let html = '';
    for (let s = 0; s < 4; s++) {
      html += `<h2>Part ${s}</h2><p>${LOREM.repeat(2)}${claim()} ${LOREM}</p>`;
      html += `<ul>${Array.from({ length: 6 }, (_, i) => `<li>${LOREM.slice(0, 70)} ${i % 2 ? claim() : ''}</li>`).join('')}</ul>`;
      html += `<table border="1"><tr><th>Head</th></tr>${Array.from({ length: 8 }, (_, i) => `<tr><td>${LOREM.slice(0, 50)} ${i % 3 ? '' : claim()}</td></tr>`).join('')}</table>`;
      html += `<div style="height: 150px; background: #ddd"></div><p>${LOREM.repeat(3)}${claim()}</p>`;
    }
    const pages = await render(html, 'h2 { break-after: avoid; }');
    expectNotesWithCalls(pages);
    expect(pages.flatMap((p) => numbersIn(bodyOf(p), /Claim (\d+)/g))).toEqual(
      Array.from({ length: n }, (_, i) => i + 1),
    );
  });
});

describe('the footnote counter and the call and marker (css-gcpm-3 §2.2, §2.4)', () => {
  it('counts notes through the document, and from 1 on each page under @page { counter-reset: footnote }', async () => {
    const html = essay(14);
    const through = await render(html, '');
    const perPage = await render(html, '@page { counter-reset: footnote; }');
    const markers = (pages: PageText[]) => pages.map((p) => numbersIn(notesOf(p), /(\d+)\. Note/g));
    expect(markers(through).flat()).toEqual(Array.from({ length: 14 }, (_, i) => i + 1));
    expect(markers(perPage).length).toBeGreaterThan(1);
    for (const page of markers(perPage)) expect(page).toEqual(page.map((_, i) => i + 1));
  });

  it('restarts the count where an element resets it', async () => {
    const chapter = (t: string) =>
      `<h2>${t}</h2><p>A<span class="fn">Note 1 one.</span> B<span class="fn">Note 2 two.</span></p>`;
    const [page] = await render(chapter('One') + chapter('Two'), 'h2 { counter-reset: footnote; }');
    expect(numbersIn(notesOf(page!), /(\d+)\. Note/g)).toEqual([1, 2, 1, 2]);
  });

  it('takes the author’s ::footnote-call and ::footnote-marker content and counter style', async () => {
    const [page] = await render(
      `<p>Text<span class="fn">Note 1 here.</span> and more<span class="fn">Note 2 there.</span></p>`,
      `.fn::footnote-call { content: "[" counter(footnote, lower-roman) "]"; font-variant-position: normal; }
       .fn::footnote-marker { content: "(" counter(footnote, upper-alpha) ") "; }`,
    );
    expect(page!.items.map((i) => i.str).join('')).toContain('Text[i] and more[ii]');
    expect(notesOf(page!).map((n) => n.str)).toEqual(['(A) Note 1 here.', '(B) Note 2 there.']);
  });
});

describe('the footnote area (css-gcpm-3 §2.3)', () => {
  it('draws the area’s border and padding above the notes', async () => {
    const css = '@page { @footnote { border-top: 2px solid rgb(255, 0, 0); padding-top: 10px; margin-top: 0; } }';
    const pdf = await renderHtml(pool, {
      html: `<p>Text<span class="fn">Note 1 here.</span></p>`,
      css: `${BASE} ${css}`,
    });
    const [p] = await readText(pdf);
    const note = notesOf(p!)[0]!;
    const [img] = await renderPages(pdf, 2);
    const redRows: number[] = [];
    for (let y = 0; y < img!.height; y++) {
      let red = 0;
      for (let x = 0; x < img!.width; x++) {
        const o = (y * img!.width + x) * 4;
        if (img!.rgba[o]! > 200 && img!.rgba[o + 1]! < 60 && img!.rgba[o + 2]! < 60) red++;
      }
      if (red > img!.width / 2) redRows.push(y / 2);
    }
    // A red rule across the content width, 10px (7.5pt) of padding above the note's glyphs.
    expect(redRows.length).toBeGreaterThan(0);
    const rule = Math.max(...redRows);
    expect(note.y - rule).toBeGreaterThan(7);
    expect(note.y - rule).toBeLessThan(14);
  });

  it('lays notes out inline with footnote-display: inline', async () => {
    const [page] = await render(
      `<p>One<span class="fn">Note 1 short.</span> two<span class="fn">Note 2 short.</span></p>`,
      '.fn { footnote-display: inline; }',
    );
    const notes = notesOf(page!);
    const line = notes.map((n) => n.str).join(' ');
    expect(line).toContain('1. Note 1 short.');
    expect(line).toContain('2. Note 2 short.');
    expect(new Set(notes.map((n) => n.baseline.toFixed(1))).size).toBe(1);
  });

  it('moves notes past the area’s max-height to the next page with their calls', async () => {
    const pages = await render(
      essay(12, 2),
      '@page { @footnote { max-height: 40px; } } .fn { font-size: 10px; line-height: 12px; }',
    );
    expectNotesWithCalls(pages);
    for (const p of pages) {
      const notes = notesOf(p);
      if (notes.length > 1)
        expect(Math.max(...notes.map((n) => n.baseline)) - Math.min(...notes.map((n) => n.y))).toBeLessThan(31);
    }
  });

  it('moves the call’s whole paragraph with footnote-policy: block', async () => {
    const html = `<p>${LOREM.repeat(48)}</p><p>${LOREM.repeat(3)}Claim 1<span class="fn">Note 1 ${'is long. '.repeat(60)}</span> ${LOREM}</p>`;
    const pages = await render(html, '.fn { footnote-policy: block; }');
    // The second paragraph starts page 2: nothing of it stays on page 1.
    expect(pages[1]!.items[0]!.str.startsWith('Lorem')).toBe(true);
    expect(bodyOf(pages[0]!).every((i) => i.y < pages[1]!.height / 1.2)).toBe(true);
    expect(numbersIn(bodyOf(pages[1]!), /Claim (\d+)/g)).toEqual([1]);
    expect(numbersIn(notesOf(pages[1]!), /Note (\d+)/g)).toEqual([1]);
  });

  it('matches its golden page', async () => {
    const css =
      '@page { size: 400px 300px; margin: 30px; @footnote { border-top: 1px solid black; padding-top: 4px; } } .fn::footnote-call { color: rgb(200, 0, 0); }';
    const pdf = await renderHtml(pool, {
      html: `<p>${LOREM}Claim<span class="fn">Note 1 on the first page.</span> ${LOREM.repeat(2)}</p>`,
      css: `${BASE} ${css}`,
    });
    await expectGolden('html/footnotes', pdf);
  });
});

describe('the CSS rewrite of footnotes', () => {
  it('renames the properties, rewrites the pseudo-elements and lifts @footnote out of its page rule', () => {
    expect(
      rewriteGcpm(
        `.fn { float: footnote; footnote-display: inline; footnote-policy: line } p .fn::footnote-call, h1 { color: red }
         ::footnote-marker { content: "x" } @page :left { margin: 1in; @footnote { border-top: 1px solid } }`,
      ),
    ).toBe(
      `.fn { --fs-footnote: footnote; --fs-footnote-display: inline; --fs-footnote-policy: line } :is(p .fn) + castpress-fn-call::before, h1 { color: red }
         :is(*) > castpress-fn-marker::before{ content: "x" } @page :left { margin: 1in;  }castpress-footnote-rule{ border-top: 1px solid }`,
    );
  });
});
