import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { pageCount, pageText, qpdfCheck, readText, type PageText, type TextItem } from './helpers/pdf.js';

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
function count(page: PageText, str: string): number {
  return page.items.filter((it) => it.str.includes(str)).length;
}
function rows(n: number, label = 'Row'): string {
  return Array.from({ length: n }, (_, i) => `<tr><td>${label} ${i + 1}</td></tr>`).join('');
}

describe('tables', () => {
  it('repeats thead and tfoot on every page by default', async () => {
    const html = `<table><thead><tr><th>HEAD</th></tr></thead><tfoot><tr><td>FOOT</td></tr></tfoot><tbody>${rows(120)}</tbody></table>`;
    const pages = await readText(await renderHtml(pool, { html, css: RESET }));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    for (const p of pages) {
      expect(count(p, 'HEAD')).toBe(1);
      expect(count(p, 'FOOT')).toBe(1);
      // the header is the first thing on the page
      const head = item(p, 'HEAD')!;
      expect(p.items.filter((it) => it.str.startsWith('Row')).every((it) => it.y > head.y)).toBe(true);
    }
  });

  it('does not repeat with -fs-table-paginate: none', async () => {
    const html = `<table style="-fs-table-paginate: none"><thead><tr><th>HEAD</th></tr></thead><tfoot><tr><td>FOOT</td></tr></tfoot><tbody>${rows(120)}</tbody></table>`;
    const pages = await readText(await renderHtml(pool, { html, css: RESET }));
    expect(pages.length).toBeGreaterThanOrEqual(3);
    expect(pages.map((p) => count(p, 'HEAD'))).toEqual([1, ...pages.slice(1).map(() => 0)]);
    expect(pages.map((p) => count(p, 'FOOT'))).toEqual([...pages.slice(1).map(() => 0), 1]);
  });

  it('honours -fs-table-paginate from a stylesheet rule', async () => {
    const html = `<table class="t"><thead><tr><th>HEAD</th></tr></thead><tbody>${rows(120)}</tbody></table>`;
    const pages = await readText(await renderHtml(pool, { html, css: `${RESET} .t { -fs-table-paginate: none; }` }));
    expect(pages.map((p) => count(p, 'HEAD'))).toEqual([1, ...pages.slice(1).map(() => 0)]);
  });
});

describe('page breaks and page numbers', () => {
  it('starts a new page at page-break-before: always', async () => {
    const html =
      '<p>Alpha</p><p style="page-break-before: always">Beta</p><p style="page-break-before: always">Gamma</p>';
    const texts = await pageText(await renderHtml(pool, { html, css: RESET }));
    expect(texts).toEqual(['Alpha', 'Beta', 'Gamma']);
  });

  it('prints literal page numbers in ordinary elements ::after, on every page', async () => {
    const paragraphs = Array.from({ length: 140 }, (_, i) => `<p>Line ${i + 1}</p>`).join('');
    const html = `<div class="pn">A</div>${paragraphs}<div class="pn">B</div><div style="break-before: page" class="pn">C</div>`;
    const css = `${RESET} .pn::after { content: " is on page " counter(page) " of " counter(pages); }`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    const n = pages.length;
    expect(n).toBeGreaterThanOrEqual(3);
    const joined = pages.map((p) => p.items.map((i) => i.str).join(''));
    expect(joined[0]).toContain(`A is on page 1 of ${n}`);
    const bPage = joined.findIndex((t) => t.includes('B is on page'));
    expect(bPage).toBeGreaterThan(0);
    expect(joined[bPage]).toContain(`B is on page ${bPage + 1} of ${n}`);
    expect(joined[n - 1]).toContain(`C is on page ${n} of ${n}`);
  });

  it('places the pageCount option in the chosen margin box', async () => {
    const html = '<p>One</p><p style="break-before: page">Two</p>';
    const pages = await readText(await renderHtml(pool, { html, css: RESET, page: { pageCount: 'bottomRight' } }));
    expect(pages).toHaveLength(2);
    pages.forEach((p, i) => {
      const pn = item(p, `Page ${i + 1} of 2`)!;
      expect(pn).toBeDefined();
      expect(pn.x + pn.width).toBeGreaterThan(p.width - 37.5 - 2);
      expect(pn.x).toBeGreaterThan(p.width / 2);
      expect(pn.y).toBeGreaterThan(p.height - 37.5);
    });
    const top = await readText(await renderHtml(pool, { html, css: RESET, page: { pageCount: 'topLeft' } }));
    const pn = item(top[1]!, 'Page 2 of 2')!;
    expect(pn.x).toBeCloseTo(37.5, 0);
    expect(pn.y).toBeLessThan(37.5);
  });
});

describe('page options', () => {
  const cases: Array<[string, string, number, number]> = [
    ['210mm', '297mm', 595.3, 841.9],
    ['21cm', '14.8cm', 595.3, 419.5],
    ['6in', '9in', 432, 648],
    ['500pt', '700pt', 500, 700],
    ['40pc', '50pc', 480, 600],
    ['800px', '600px', 600, 450],
    ['40em', '50em', 480, 600],
    ['40rem', '30rem', 480, 360],
  ];
  it.each(cases)('page size %s × %s', async (width, height, w, h) => {
    const [p] = await readText(await renderHtml(pool, { html: '<p>x</p>', page: { width, height } }));
    // Chromium quantises page sizes to 1/300 in.
    expect(Math.abs(p!.width - w)).toBeLessThan(1);
    expect(Math.abs(p!.height - h)).toBeLessThan(1);
  });

  it('applies margin shorthand and per-side overrides in any unit', async () => {
    const html = '<p>Corner</p>';
    const [p] = await readText(
      await renderHtml(pool, { html, css: RESET, page: { margin: '1in 2cm', marginLeft: '3pc' } }),
    );
    const c = item(p!, 'Corner')!;
    expect(c.x).toBeCloseTo(36, 0); // 3pc
    expect(c.y).toBeGreaterThan(72 - 1);
    expect(c.y).toBeLessThan(72 + 6);
  });

  it("lets the document's own @page rules win where they set the same thing", async () => {
    const html = '<p>Corner</p>';
    const css = `${RESET} @page { margin-left: 1in; }`;
    const [p] = await readText(
      await renderHtml(pool, {
        html,
        css,
        page: { width: '5in', height: '5in', margin: '10mm', pageCount: 'bottomCenter' },
      }),
    );
    expect(p!.width).toBeCloseTo(360, 0); // size from the options (the document sets none)
    const c = item(p!, 'Corner')!;
    expect(c.x).toBeCloseTo(72, 0); // left margin from the document
    expect(c.y).toBeLessThan(28.35 + 6); // top margin from the options (10mm)
    const docBox = await readText(
      await renderHtml(pool, {
        html,
        css: `${RESET} @page { @bottom-center { content: "custom footer"; } }`,
        page: { pageCount: 'bottomCenter' },
      }),
    );
    expect(item(docBox[0]!, 'custom footer')).toBeDefined();
    expect(item(docBox[0]!, '1 of 1')).toBeUndefined();
  });

  it('refuses lengths that are not plain CSS lengths', async () => {
    await expect(renderHtml(pool, { html: 'x', page: { width: '10in; } body { color: red' } })).rejects.toMatchObject({
      status: 400,
    });
  });
});

describe('@page selectors and named pages', () => {
  it('applies :first, :left and :right rules to the right pages', async () => {
    const css = `${RESET}
      @page { @top-center { content: "ANY"; } }
      @page :first { margin-top: 2in; @top-center { content: "FIRST"; } }
      @page :left { @bottom-left { content: "LEFT"; } }
      @page :right { @bottom-right { content: "RIGHT"; } }`;
    const html =
      '<p>p1</p><p style="break-before:page">p2</p><p style="break-before:page">p3</p><p style="break-before:page">p4</p>';
    const pages = await readText(await renderHtml(pool, { html, css }));
    const has = (i: number, s: string) => item(pages[i]!, s) !== undefined;
    expect([has(0, 'FIRST'), has(0, 'ANY'), has(0, 'RIGHT'), has(0, 'LEFT')]).toEqual([true, false, true, false]);
    expect([has(1, 'ANY'), has(1, 'LEFT'), has(1, 'RIGHT')]).toEqual([true, true, false]);
    expect([has(2, 'ANY'), has(2, 'RIGHT')]).toEqual([true, true]);
    expect(item(pages[0]!, 'p1')!.y).toBeGreaterThan(144 - 1);
    expect(item(pages[1]!, 'p2')!.y).toBeLessThan(37.5 + 6);
  });

  it('gives named pages their own size', async () => {
    const css = `${RESET} @page wide { size: A4 landscape; } @page small { size: 100mm 150mm; } .w { page: wide; } .s { page: small; }`;
    const html =
      '<p>portrait</p><div class="w" id="wide-1"><p>landscape</p></div><div class="s" id="small-1"><p>small</p></div><p>back</p>';
    const pages = await readText(await renderHtml(pool, { html, css }));
    expect(pages.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual([
      [612, 792],
      [842, 595],
      [283, 425],
      [612, 792],
    ]);
    expect(item(pages[1]!, 'landscape')).toBeDefined();
    expect(item(pages[2]!, 'small')).toBeDefined();
  });
});

describe('running elements', () => {
  const boxes = [
    'top-left-corner',
    'top-left',
    'top-center',
    'top-right',
    'top-right-corner',
    'bottom-left-corner',
    'bottom-left',
    'bottom-center',
    'bottom-right',
    'bottom-right-corner',
  ];

  it('shows a running element in each of the ten margin boxes, on every page', async () => {
    const css = `${RESET} .run { position: running(r); font-size: 7px; } @page { margin: 60px; ${boxes.map((b) => `@${b} { content: element(r); }`).join(' ')} }`;
    const html = '<div class="run">RUN</div><p>one</p><p style="break-before:page">two</p>';
    const pdf = await renderHtml(pool, { html, css });
    await qpdfCheck(pdf);
    const pages = await readText(pdf);
    expect(pages).toHaveLength(2);
    // pdfjs merges neighbouring boxes on one line into one item: count occurrences.
    const runs = (items: TextItem[]) => items.reduce((n, i) => n + (i.str.match(/RUN/g) ?? []).length, 0);
    for (const p of pages) {
      expect(runs(p.items)).toBe(10);
      // 5 in the top margin (45pt), 5 in the bottom margin
      expect(runs(p.items.filter((r) => r.y < 45))).toBe(5);
      expect(runs(p.items.filter((r) => r.y > p.height - 45))).toBe(5);
      // the left corners start inside the left margin, the right corners end inside the right one
      for (const band of [p.items.filter((r) => r.y < 45), p.items.filter((r) => r.y > p.height - 45)]) {
        const withRun = band.filter((r) => r.str.includes('RUN'));
        expect(Math.min(...withRun.map((r) => r.x))).toBeLessThan(45);
        expect(Math.max(...withRun.map((r) => r.x + r.width))).toBeGreaterThan(p.width - 45);
      }
    }
    // not in the flow
    expect(pages[0]!.items.filter((i) => i.str.includes('one'))[0]!.y).toBeLessThan(50);
  });

  it('shows a running element from the page where it occurs onward', async () => {
    const css = `${RESET} .hdr { position: running(header); } @page { @top-center { content: element(header); } @bottom-center { content: counter(page) "/" counter(pages); } }`;
    const html = `<p>page one</p>
      <p style="break-before:page">page two</p><div class="hdr">HEADER-A</div>
      <p style="break-before:page">page three</p>
      <p style="break-before:page">page four</p><div class="hdr">HEADER-B</div>
      <p style="break-before:page">page five</p>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    expect(pages).toHaveLength(5);
    const header = pages.map((p) =>
      p.items
        .filter((i) => i.y < 37.5)
        .map((i) => i.str)
        .join(''),
    );
    expect(header).toEqual(['', 'HEADER-A', 'HEADER-A', 'HEADER-B', 'HEADER-B']);
    const footer = pages.map((p) =>
      p.items
        .filter((i) => i.y > p.height - 37.5)
        .map((i) => i.str)
        .join(''),
    );
    expect(footer).toEqual(['1/5', '2/5', '3/5', '4/5', '5/5']);
  });

  it('lets margin-top shift the running element (also negative)', async () => {
    const render = async (mt: string) => {
      const css = `${RESET} .hdr { position: running(h); margin-top: ${mt}; } @page { margin: 100px 50px; @top-center { content: element(h); } }`;
      const [p] = await readText(await renderHtml(pool, { html: '<div class="hdr">HDR</div><p>body</p>', css }));
      return item(p!, 'HDR')!.y;
    };
    const base = await render('0px');
    // The box centres the element with its margins (as Flying Saucer does): about half of 20px = 7.5pt.
    const down = (await render('20px')) - base;
    const up = (await render('-20px')) - base;
    expect(down).toBeGreaterThan(6);
    expect(down).toBeLessThan(10);
    expect(up).toBeLessThan(-6);
    expect(up).toBeGreaterThan(-10);
  });

  it('lets a :first string win over element() and keeps counters inside running elements', async () => {
    const css = `${RESET} .f { position: running(foot); } .f .n::after { content: counter(page) " of " counter(pages); }
      @page { @bottom-left { content: element(foot); } @top-center { content: element(foot); } }
      @page :first { @top-center { content: "TITLE PAGE"; } }`;
    const html = '<div class="f">Footer <span class="n"></span></div><p>1</p><p style="break-before:page">2</p>';
    const pages = await pageText(await renderHtml(pool, { html, css }));
    expect(pages[0]).toContain('TITLE PAGE');
    expect(pages[0]).toContain('Footer 1 of 2');
    expect(pages[0]!.match(/Footer/g)).toHaveLength(1);
    expect(pages[1]!.match(/Footer 2 of 2/g)).toHaveLength(2);
  });
  it('draws the margin boxes of named pages of another size at that page size', async () => {
    const css = `${RESET} .hdr { position: running(h); } @page wide { size: A4 landscape; } .w { page: wide; }
      @page { @top-right { content: element(h); } @bottom-center { content: counter(page) "/" counter(pages); } }`;
    const html = '<div class="hdr">HDR</div><p>portrait</p><div class="w"><p>landscape</p></div><p>back</p>';
    const pdf = await renderHtml(pool, { html, css });
    await qpdfCheck(pdf);
    const pages = await readText(pdf);
    expect(pages.map((p) => [Math.round(p.width), Math.round(p.height)])).toEqual([
      [612, 792],
      [842, 595],
      [612, 792],
    ]);
    pages.forEach((p, i) => {
      const hdr = item(p, 'HDR')!;
      // right-aligned in the top-right box: ends at the right content edge (50px = 37.5pt)
      expect(hdr.x + hdr.width).toBeGreaterThan(p.width - 37.5 - 3);
      expect(hdr.x + hdr.width).toBeLessThan(p.width - 37.5 + 1);
      expect(hdr.y).toBeLessThan(37.5);
      const foot = item(p, `${i + 1}/3`)!;
      expect(foot.y).toBeGreaterThan(p.height - 37.5);
      expect(Math.abs(foot.x + foot.width / 2 - p.width / 2)).toBeLessThan(2);
    });
  });

  it('draws an !important margin box once when the overlay draws the margin boxes', async () => {
    const css = `${RESET} .hdr { position: running(h); } @page { @top-center { content: element(h); } @bottom-center { content: "FOOT" !important; } }`;
    const [page] = await readText(await renderHtml(pool, { html: '<div class="hdr">HDR</div><p>body</p>', css }));
    expect(count(page!, 'FOOT')).toBe(1);
    expect(count(page!, 'HDR')).toBe(1);
  });

  it('keeps native margin boxes when element() appears only where it does not apply', async () => {
    // a header: a footer would go to the overlay anyway, for reading order (html-gcpm.test.ts)
    const css = `${RESET} .hdr { position: running(h); } @media screen { @page { @top-center { content: element(h); } } }
      @page { @top-center { content: "NATIVE " counter(page); } }`;
    const [page] = await readText(await renderHtml(pool, { html: '<div class="hdr">HDR</div><p>body</p>', css }));
    expect(item(page!, 'NATIVE 1')).toBeDefined();
    expect(item(page!, 'NATIVE 1')!.y).toBeLessThan(37.5);
  });
});

/** Top margin text of each page (the margin is 50px = 37.5pt by default). */
function header(pages: PageText[]): string[] {
  return pages.map((p) =>
    p.items
      .filter((i) => i.y < 37.5)
      .map((i) => i.str)
      .join('')
      .trim(),
  );
}

describe("castpress's helpers leave the author's CSS alone", () => {
  it(':last-of-type and :last-child still match the last author element of <body>', async () => {
    // counter(page) in an ordinary element makes castpress add its destination links
    const css = `${RESET} body > div:last-of-type { margin-top: 100px; } body > p:last-child { margin-top: 50px; } .n::after { content: counter(page); }`;
    const html = '<div class="n">A</div><div>B</div><p>C</p>';
    const [page] = await readText(await renderHtml(pool, { html, css }));
    // Tagged output draws the element's text and its ::after as two runs (two marked-content sequences).
    const a = item(page!, 'A')!;
    expect(item(page!, '1')!.y).toBeCloseTo(a.y, 0);
    const b = item(page!, 'B')!;
    const c = item(page!, 'C')!;
    expect(b.y - a.y).toBeGreaterThan(9 + 75 - 2);
    expect(c.y - b.y).toBeGreaterThan(9 + 37.5 - 2);
  });

  it('author rules for span and div do not reach the margin boxes castpress builds', async () => {
    const css = `${RESET} span::before, div::before { content: "ZZ"; } .run { position: running(r); }
      @page { @top-center { content: element(r); } @bottom-right { content: "P" counter(page); } }`;
    const pages = await readText(
      await renderHtml(pool, { html: '<p class="run">HEAD</p><p>one</p><p style="break-before:page">two</p>', css }),
    );
    expect(pages).toHaveLength(2);
    for (const p of pages) {
      expect(p.items.map((i) => i.str).join('')).not.toContain('ZZ');
      expect(count(p, 'HEAD')).toBe(1);
    }
  });

  it('a last element with break-after: page adds no blank page', async () => {
    const html = '<p>a</p><p style="break-after:page">b</p>';
    expect(await pageCount(await renderHtml(pool, { html, css: RESET }))).toBe(1);
    // also when castpress adds its destinations and overlay
    const css = `${RESET} .run { position: running(r); } @page { @top-center { content: element(r); } }`;
    expect(await pageCount(await renderHtml(pool, { html: `<p class="run">H</p>${html}`, css }))).toBe(1);
  });

  it('break-before and break-after: always start new pages', async () => {
    const html =
      '<p>Alpha</p><p style="break-before: always">Beta</p><p style="break-after: always">Gamma</p><p>Delta</p>';
    expect(await pageText(await renderHtml(pool, { html, css: RESET }))).toEqual(['Alpha', 'Beta\nGamma', 'Delta']);
    const sheet = await pageText(
      await renderHtml(pool, { html: '<p>Alpha</p><h2>Beta</h2>', css: `${RESET} h2 { break-before: always; }` }),
    );
    expect(sheet).toHaveLength(2);
  });
});

describe('running elements: counters, policies, floats, invalid content', () => {
  const doc = (policy: string) => ({
    css: `${RESET} .h { position: running(h); } @page { @top-center { content: element(h${policy ? `, ${policy}` : ''}); } }`,
    html: `<div class="h">A</div><div class="h">B</div><p>one</p>
      <p style="break-before:page">two</p>
      <p style="break-before:page">three</p><div class="h">C</div>`,
  });

  it('keeps the counter effects of a running element in the flow', async () => {
    const css = `${RESET} .run { position: running(r); counter-increment: chap 5; } .x::before { content: "C" counter(chap) ":"; }
      @page { @top-center { content: element(r); } }`;
    const texts = await pageText(
      await renderHtml(pool, { html: '<div class="run">HDR</div><p class="x">after</p>', css }),
    );
    expect(texts[0]).toContain('C5:after');
  });

  it('shows the counter values a running element has at its place in the flow', async () => {
    const css = `${RESET} h1 { position: running(t); counter-increment: chap; font-size: 12px; margin: 0; } h1::before { content: "Ch " counter(chap) ". "; }
      .x::before { content: "[" counter(chap) "]"; } @page { @top-center { content: element(t); } }`;
    const html =
      '<h1>A</h1><p class="x">one</p><p style="break-before:page">two</p><p style="break-before:page">three</p><h1>B</h1><p class="x">b</p>';
    const pages = await readText(await renderHtml(pool, { html, css }));
    // page 2 repeats chapter 1 (the overlay used to count every clone: "Ch 2. A" there, "Ch 3. B" after)
    expect(header(pages)).toEqual(['Ch 1. A', 'Ch 1. A', 'Ch 2. B']);
    // Tagged output: the ::before content (an artifact: Chromium leaves generated content out of its tree)
    // and the paragraph's text are two text items.
    expect(pageTextOf(pages[2]!)).toContain('[2] b');
  });

  it('shows counters() of nested scopes in a running element as they were at its place', async () => {
    // section resets nest (2.x inside the second section); after the inner section ends its counter is out
    // of scope (the outer one has that name); a reset inside a sibling subtree (the div) does not reach .run
    const css = `${RESET} section { counter-reset: sec; } h2 { counter-increment: sec; font-size: 12px; margin: 0; }
      h2::before { content: counters(sec, ".") " "; } .run { position: running(r); } .run::before { content: "S " counters(sec, ".") " "; }
      @page { @top-center { content: element(r); } }`;
    const html = `<section><h2>A</h2><h2>B</h2><section><h2>B1</h2><div class="run">h</div>
      <h2 style="break-before: page">B2</h2><h2>B3</h2><div class="run">h</div></section>
      <h2 style="break-before: page">C</h2><div><p style="counter-reset: sec 50">sib</p></div><div class="run">h</div></section>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    expect(header(pages)).toEqual(['S 2.1 h', 'S 2.3 h', 'S 3 h']);
    expect(pageTextOf(pages[2]!)).toContain('3 C');
  });

  it.each([
    ['', ['A', 'B', 'C']],
    ['first', ['A', 'B', 'C']],
    ['last', ['B', 'B', 'C']],
    ['start', ['A', 'B', 'B']],
    ['first-except', ['', 'B', '']],
  ])('element(h, %s) picks GCPM’s element', async (policy, want) => {
    const { css, html } = doc(policy);
    expect(header(await readText(await renderHtml(pool, { html, css })))).toEqual(want);
  });

  it('keeps the float side of a floated running element', async () => {
    const css = `${RESET} .h { position: running(h); float: right; } .l { position: running(l); float: left; }
      @page { @top-center { content: element(h); } @bottom-center { content: element(l); } }`;
    const [p] = await readText(
      await renderHtml(pool, { html: '<div class="h">RIGHT</div><div class="l">LEFT</div><p>body</p>', css }),
    );
    const r = item(p!, 'RIGHT')!;
    const l = item(p!, 'LEFT')!;
    expect(r.x + r.width).toBeGreaterThan(p!.width - 37.5 - 2);
    expect(l.x).toBeLessThan(37.5 + 2);
  });

  it('leaves content mixing element() with strings invalid, so the previous declaration applies', async () => {
    const css = `${RESET} .h { position: running(h); } @page { @top-center { content: "FALLBACK"; content: "X " element(h); } }`;
    const [p] = await readText(await renderHtml(pool, { html: '<div class="h">HDR</div><p>body</p>', css }));
    expect(header([p!])).toEqual(['FALLBACK']);
    expect(item(p!, 'HDR')).toBeUndefined();
  });
});

describe('string-set and string()', () => {
  const html = `<h2>Alpha</h2><p>one</p><h2>Beta</h2>
    <p style="break-before:page">two</p>
    <p style="break-before:page">three</p><h2>Gamma</h2>`;
  const css = (content: string) =>
    `${RESET} h2 { font-size: 12px; margin: 0; string-set: head content(); } @page { @top-center { content: ${content}; } }`;

  it.each([
    ['string(head)', ['Alpha', 'Beta', 'Gamma']],
    ['string(head, last)', ['Beta', 'Beta', 'Gamma']],
    ['string(head, start)', ['Alpha', 'Beta', 'Beta']],
    ['string(head, first-except)', ['', 'Beta', '']],
    ['"Chapter: " string(head) " / " counter(page)', ['Chapter: Alpha / 1', 'Chapter: Beta / 2', 'Chapter: Gamma / 3']],
  ])('content: %s', async (content, want) => {
    expect(header(await readText(await renderHtml(pool, { html, css: css(content) })))).toEqual(want);
  });

  it('string() in the document gives the value at that place', async () => {
    const doc = '<p class="r">zero</p><h2>Alpha</h2><p class="r">one</p><h2>Beta</h2><p class="r">two</p>';
    const style = `${RESET} h2 { font-size: 12px; margin: 0; string-set: head content(); } .r::before { content: "in " string(head) ": "; }`;
    expect(await pageText(await renderHtml(pool, { html: doc, css: style }))).toEqual([
      'in : zero\nAlpha\nin Alpha: one\nBeta\nin Beta: two',
    ]);
  });

  it('sets several strings from literal strings, content() and attr()', async () => {
    const doc = '<section title="Part I"><h2>Intro</h2><p>x</p></section>';
    const style = `${RESET} h2 { string-set: chap "Ch. " content(text), tag attr(class); } section { string-set: part attr(title); }
      h2::before { content: "§ "; }
      @page { @top-left { content: string(part); } @top-right { content: string(chap) "|" string(tag); } }`;
    const [p] = await readText(await renderHtml(pool, { html: doc.replace('<h2>', '<h2 class="big">'), css: style }));
    expect(header([p!])[0]!.replace(/\s+/g, ' ')).toMatch(/^Part I ?Ch\. Intro\|big$/);
  });
});

describe('target-counter() and target-text()', () => {
  it('prints the page number and text of link targets, also from nested rules and in counter styles', async () => {
    const css = `${RESET} h2 { break-before: page; font-size: 12px; margin: 0; }
      .toc a { &::before { content: target-text(attr(href)) " "; } &::after { content: "p. " target-counter(attr(href url), page); } }
      .toc a.roman::after { content: target-counter(attr(href), page, upper-roman); }`;
    const filler = Array.from({ length: 60 }, (_, i) => `<p>filler ${i}</p>`).join('');
    const html = `<div class="toc"><p><a href="#one"></a></p><p><a href="#two"></a></p><p><a href="#three" class="roman"></a></p></div>
      <h2 id="one">First chapter</h2>${filler}<h2 id="two">Second <em>chapter</em></h2>${filler}${filler}<h2 id="three">Third</h2>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    // 1-based page of a heading (the table of contents is page 1)
    const at = (s: string) => pages.findIndex((p, i) => i > 0 && p.items.some((it) => it.str.startsWith(s))) + 1;
    const toc = pageTextOf(pages[0]!);
    expect(at('First chapter')).toBe(2);
    expect(toc).toContain(`First chapter p. 2`);
    expect(toc).toContain(`Second chapter p. ${at('Second')}`);
    expect(at('Second')).toBeGreaterThan(2);
    expect(toc).toContain(`Third ${['', 'I', 'II', 'III', 'IV', 'V', 'VI', 'VII', 'VIII'][at('Third')]}`);
    expect(at('Third')).toBeGreaterThan(at('Second'));
  });
});

describe('target-counter() and target-counters() of other counters (counter model)', () => {
  it('agrees with Chromium’s own counters() on every element: nested and sibling resets, set, pseudo-element effects, display:none', async () => {
    // Each element with an id shows counters(c) itself (Chromium's count); the links show target-counters() (castpress's).
    const body = `<div class=r>
      <span id=a1></span><span id=a2 class=i></span>
      <span class=r><span id=a3 class=i></span><span id=a4 class="r i"></span><span id=a5 class=i></span></span>
      <span id=a6 class=i></span>
      <span class=rb><span id=a7 class=i></span><span class=r></span><span id=a8 class=i></span></span>
      <span id=a9 class="i s"></span><span class=h><span class=r></span><span class=i></span></span><span id=a10 class=i></span>
      <span class=ib></span><span id=a11></span><span class=ia><span class=i></span></span><span id=a12 class=i2></span>
    </div>
    <span id=b1 class=i></span><span class=r></span><span id=b2 class=i></span><div><span class=r></span><span id=b3 class=i></span></div><span id=b4 class=i></span>`;
    const ids = [...body.matchAll(/id=(\w+)/g)].map((m) => m[1]!);
    const css = `${RESET} .r { counter-reset: c; } .i { counter-increment: c; } .i2 { counter-increment: c 5; } .s { counter-set: c 40; } .h { display: none; }
      .rb::before { counter-reset: c 7; content: "R"; } .ib::before { counter-increment: c 10; content: "B"; } .ia::after { counter-increment: c 100; content: "A"; }
      [id]::before { content: "<" counters(c, ".") ">"; } .toc a::after { content: "{" target-counters(attr(href), c, ".") "}"; }`;
    const html = `<p class="toc">${ids.map((i) => `<a href="#${i}"></a>`).join(' ')}</p>${body}`;
    const [text] = await pageText(await renderHtml(pool, { html, css }));
    const shown = [...text!.matchAll(/<([\d.]+)>/g)].map((m) => m[1]);
    const targeted = [...text!.matchAll(/\{([\d.]*)\}/g)].map((m) => m[1]);
    expect(shown).toHaveLength(ids.length);
    expect(targeted).toEqual(shown);
    // the cases the document is made of, spelled out
    expect(shown).toEqual([
      '0',
      '1',
      '1.1',
      '1.1.1',
      '1.2',
      '2',
      '3',
      '4',
      '40',
      '41',
      '51',
      '157',
      '158',
      '1',
      '2',
      '3',
    ]);
  });

  it('prints chapter and section numbers in counter styles in a table of contents, next to the page', async () => {
    const css = `${RESET} h1, h2 { font-size: 12px; margin: 0; } h1 { counter-increment: chapter; counter-reset: section; } h2 { counter-increment: section; }
      .gone { display: none; } .toc a::after { counter-reset: x 5; counter-increment: x;
        content: " " target-counter(attr(href), chapter, upper-roman) "." target-counter(attr(href), section) " p" target-counter(attr(href), page) "/" target-counter(attr(href), pages) " #" counter(x); }`;
    const html = `<div class="toc"><p><a href="#a">A</a></p><p><a href="#b">B</a></p><p><a href="#c">C</a></p><p><a href="#nowhere">D</a></p><p><a href="#gone">E</a></p></div>
      <h1>One</h1><h2>s1</h2><h2 class="gone" id="gone">hidden</h2><h2 id="a">s2</h2><h1>Two</h1><h1 id="b">Three</h1><h2 style="break-before: page">s1</h2><h2 id="c">s2</h2>`;
    const [toc] = await pageText(await renderHtml(pool, { html, css }));
    // the display:none heading does not count; a missing or display:none target has no values (the strings
    // stay); the pseudo-element's own counter-reset survives the private counters castpress resets there (#6)
    expect(toc!.split('\n').slice(0, 5)).toEqual([
      'A I.2 p1/2 #6',
      'B III.0 p1/2 #6',
      'C III.2 p2/2 #6',
      'D . p/ #6',
      'E . p/2 #6',
    ]);
  });

  it('numbers list items as their markers do: nested lists, start, value, reversed', async () => {
    const css = `${RESET} .toc a::after { content: " " target-counters(attr(href), list-item, "-") " " target-counter(attr(href), list-item, lower-alpha); }`;
    const html = `<p class="toc"><a href="#x">x</a> <a href="#y">y</a> <a href="#z">z</a> <a href="#s">s</a> <a href="#r">r</a></p>
      <ol><li>a</li><li>b<ol><li>b1</li><li id="x">b2<ul><li id="y">b21</li></ul></li></ol></li><li value="7">c</li><li id="z">d</li></ol>
      <ol start="4"><li>e</li><li id="s">f</li></ol><ol reversed><li>g</li><li id="r">h</li><li>i</li></ol>`;
    const [text] = await pageText(await renderHtml(pool, { html, css }));
    expect(text!.split('\n')[0]).toBe('x 2-2 b y 2-2-1 a z 8 h s 5 e r 2 b');
  });
});

describe('target-counter() inside a running element', () => {
  it('prints the page number in the margin-box copy too', async () => {
    const css = `${RESET} h2 { break-before: page; font-size: 12px; margin: 0; } .hdr { position: running(h); }
      .hdr a::after { content: " (see p. " target-counter(attr(href), page) ")"; } @page { @top-center { content: element(h); } }`;
    const pages = await readText(
      await renderHtml(pool, {
        html: '<div class="hdr">Header <a href="#end">end</a></div><p>one</p><h2 id="end">End</h2>',
        css,
      }),
    );
    expect(header(pages)).toEqual(['Header end (see p. 2)', 'Header end (see p. 2)']);
  });
});

function pageTextOf(p: PageText): string {
  return p.items
    .map((i) => i.str)
    .join(' ')
    .replace(/\s+/g, ' ');
}

describe('leader()', () => {
  it('fills the rest of the line with the leader and ends the text after it at the line end', async () => {
    const css = `${RESET} h2 { break-before: page; font-size: 12px; margin: 0; } ul { list-style: none; padding: 0; margin: 0; width: 300px; }
      .toc a::before { content: target-text(attr(href)); } .toc a::after { content: leader('.') " " target-counter(attr(href), page); }
      .dash { width: 300px; } .dash::after { content: leader("-") " end"; }`;
    const html = `<ul class="toc"><li><a href="#one"></a></li><li><a href="#two"></a></li></ul><p class="dash">Dashes</p>
      <h2 id="one">One</h2><h2 id="two">A much longer second title</h2>`;
    const [toc] = await readText(await renderHtml(pool, { html, css }));
    const lines = new Map<number, TextItem[]>();
    for (const i of toc!.items)
      if (i.str.trim()) lines.set(Math.round(i.baseline), [...(lines.get(Math.round(i.baseline)) ?? []), i]);
    const rows = [...lines.values()].map((l) => l.sort((a, b) => a.x - b.x));
    expect(rows).toHaveLength(3);
    const right = 37.5 + 225; // the ul's 300px
    for (const [row, title, end] of [
      [rows[0]!, 'One', '2'],
      [rows[1]!, 'A much longer second title', '3'],
      [rows[2]!, 'Dashes', 'end'],
    ] as const) {
      const text = row.map((i) => i.str).join('');
      expect(text.startsWith(title)).toBe(true);
      expect(text.endsWith(end)).toBe(true);
      const last = row[row.length - 1]!;
      expect(last.x + last.width).toBeGreaterThan(right - 3);
      expect(last.x + last.width).toBeLessThan(right + 1);
      // the leader fills the gap between title and number
      const fill = text.slice(title.length, text.length - end.length).trim();
      expect(fill.length).toBeGreaterThan(10);
      expect(new Set(fill.replace(/\s/g, ''))).toEqual(new Set([end === 'end' ? '-' : '.']));
    }
  });

  it('measures the leader at the content width of the page its line is on', async () => {
    // page 1 is Letter (537 pt of content), page 2 a named A4 landscape page (842 pt wide)
    const css = `${RESET} @page wide { size: A4 landscape; } .wide { page: wide; } h2 { break-before: page; font-size: 12px; margin: 0; }
      .toc a::before { content: target-text(attr(href)); } .toc a::after { content: leader('.') " " target-counter(attr(href), page); }`;
    const html = `<p class="toc"><a href="#b"></a></p><div class="wide"><p class="toc"><a href="#b"></a></p><p>wide</p></div><h2 id="b">Bee</h2>`;
    const pages = await readText(await renderHtml(pool, { html, css }));
    expectLeaderRow(pages[0]!, 'Bee', '3', 612 - 37.5);
    expectLeaderRow(pages[1]!, 'Bee', '3', 841.89 - 37.5);
  });

  it('measures the leader at the width of a document @page size, not the request page', async () => {
    const css = `${RESET} @page { size: A4 landscape; } .toc a::before { content: target-text(attr(href)); } .toc a::after { content: leader('.') " " target-counter(attr(href), page); }`;
    const [p] = await readText(
      await renderHtml(pool, {
        html: '<p class="toc"><a href="#b"></a></p><h2 id="b" style="font-size: 12px">Bee</h2>',
        css,
      }),
    );
    expectLeaderRow(p!, 'Bee', '1', 841.89 - 37.5);
  });
});

/** The topmost line starting with `title` reads title, dots, end, and ends at `right` (pt). */
function expectLeaderRow(page: PageText, title: string, end: string, right: number): void {
  const baseline = page.items.filter((j) => j.str.startsWith(title)).sort((a, b) => a.y - b.y)[0]!.baseline;
  const row = page.items.filter((i) => i.str.trim() && Math.abs(i.baseline - baseline) < 1).sort((a, b) => a.x - b.x);
  expect(row.map((i) => i.str).join('')).toMatch(new RegExp(`^${title}\\.{10,} ?${end}$`));
  const last = row[row.length - 1]!;
  expect(last.x + last.width).toBeGreaterThan(right - 3);
  expect(last.x + last.width).toBeLessThan(right + 1);
}

describe('margin boxes with their own sizes (css-page-3, the WeasyPrint report header)', () => {
  it('resolves percentages against the margin area and moves boxes smaller than their band toward the page area', async () => {
    const { renderPages } = await import('./helpers/render.js');
    // Overlay mode (string()), as in the report: a 1 cm square at the left, a 2px rule 100% wide in the middle,
    // a running head 100% wide on the right, in a 2 cm top margin of an A4 page with 2 cm side margins.
    const css = `@page { size: 210mm 297mm; margin: 2cm;
      @top-left { content: "7"; background: #f00; width: 1cm; height: 1cm; }
      @top-center { content: ""; background: #00f; height: 2px; width: 100%; }
      @top-right { content: string(head); width: 100%; } }
      h1 { string-set: head content() }`;
    const pdf = await renderHtml(pool, { html: `<style>${css}</style><h1>Chapter head</h1><p>x</p>` });
    const [page] = await readText(pdf);
    // The copy in the top margin (the h1 itself is in the body).
    const head = page!.items.find((i) => i.str.includes('Chapter head') && i.y < 56)!;
    // The running head ends at the content box's right edge (it was pushed out of the page before).
    expect(head.x + head.width).toBeGreaterThan(595.28 - 56.7 - 3);
    expect(head.x + head.width).toBeLessThan(595.28 - 56.7 + 1);
    const scale = 2;
    const [image] = await renderPages(pdf, scale);
    const at = (x: number, y: number) => {
      const i = (Math.round(y * scale) * image!.width + Math.round(x * scale)) * 4;
      return [image!.rgba[i]!, image!.rgba[i + 1]!, image!.rgba[i + 2]!];
    };
    const cm = 72 / 2.54;
    // The square: at the band's start, in the lower half of the top margin (toward the page area).
    expect(at(2 * cm + 0.5 * cm, 1.5 * cm)).toEqual([255, 0, 0]);
    expect(at(2 * cm + 0.5 * cm, 0.5 * cm)).toEqual([255, 255, 255]);
    // The rule: along the whole band, at its bottom edge (2px = 1.5pt above the content box).
    for (const x of [2 * cm + 2 * cm, 10.5 * cm, 21 * cm - 2 * cm - 0.3 * cm])
      expect(at(x, 2 * cm - 0.75)).toEqual([0, 0, 255]);
  });
});
