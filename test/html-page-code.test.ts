/**
 * The in-page code (src/html/in-page) as bundled by esbuild, run in Chromium on small documents: its
 * functions one by one (through test/page/html-page-probe.ts, bundled the way the real entry is),
 * the shipped INPAGE_SOURCE through its contract, and the checked-in bundles being current.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bundlePage, generatePageCode } from '../scripts/generate-page-code.mjs';
import { pageCall, type PrepareResult } from '../src/html/in-page/contract.js';
import { INPAGE_SOURCE } from '../generated/inpage.js';
import { CLIENT_SCRIPT } from '../generated/signing-client.js';
import { closeBrowser } from './helpers/close.js';
import { launchTestPage } from './helpers/browser.js';

let browser: Browser;
let page: Page;
let probe: string;

beforeAll(async () => {
  probe = await bundlePage('test/page/html-page-probe.ts');
  ({ browser, page } = await launchTestPage());
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
}, 30_000);

/** Loads `html`, defines the probe and evaluates `call` (an expression on `P`, the probe) in the page. */
async function run<T>(html: string, call: string): Promise<T> {
  await page.setContent(html);
  return (await page.evaluate(`${probe}\n(() => { const P = window.__castpressProbe; return ${call}; })()`)) as T;
}

describe('the bundles', () => {
  it('checked-in generated/ modules are what the page code bundles to', async () => {
    expect(await generatePageCode({ check: true })).toEqual([]);
  });

  it('are classic scripts without imports or esbuild helpers', () => {
    for (const source of [INPAGE_SOURCE, CLIENT_SCRIPT]) {
      expect(source).not.toMatch(/^\s*(import|export)\s/m);
      expect(source).not.toMatch(/\b__(name|defProp|export|toESM|commonJS|publicField|async)\b/);
      expect(source).toMatch(/^"use strict";\n\(\(\) => \{/);
    }
    // The signing page loads pdf.js from this server at run time: its one dynamic import.
    expect(CLIENT_SCRIPT.match(/\bimport\(/g)).toHaveLength(1);
  });
});

describe('CSS text', () => {
  it('splits at top-level separators only and reads the sentinels back', async () => {
    const out = await run<unknown[]>(
      '<p>x</p>',
      `[
      P.splitTop('a, f(b, c), "d, e", g', ','),
      P.splitSentinels('p. __fs_fn__target-counter(attr(href), page) of __fs_string__(title|last)'),
      P.tokens('"Page " counter(page) " / " counters(pages, ".") "__fs_element__(hdr|start)" \\'__fs_string__(t)\\''),
      P.parseSelectors(':first, chapter:left, bad selector, :blank'),
      P.unescapeCss('\\\\41 \\\\"x'), P.cssString('a"b\\nc'),
      [P.side('recto'), P.side(' verso'), P.side('page')],
    ]`,
    );
    expect(out).toEqual([
      ['a', 'f(b, c)', '"d, e"', 'g'],
      ['p. ', { name: 'target-counter', args: 'attr(href), page' }, ' of ', { name: 'string', args: 'title' }],
      [
        { text: 'Page ' },
        { counter: 'page' },
        { text: ' / ' },
        { counter: 'pages' },
        { element: { name: 'hdr', policy: 'start' } },
        { string: { name: 't', policy: 'first' } },
      ],
      [
        { name: '', pseudos: ['first'], spec: 10 },
        { name: 'chapter', pseudos: ['left'], spec: 101 },
        { name: '', pseudos: ['blank'], spec: 10 },
      ],
      'A"x',
      '"a\\"b\\A c"',
      ['right', 'left', null],
    ]);
  });
});

describe('pages', () => {
  it('sizes: named, lengths, orientation', async () => {
    const sizes = await run<Array<[number, number]>>(
      '<p>x</p>',
      `P.pageSizes(['a4', 'a4 landscape', 'letter portrait', '100px 200px', '3in', '', 'ledger landscape'])`,
    );
    const mm = 96 / 25.4;
    expect(sizes.map(([w, h]) => [Math.round(w * 100) / 100, Math.round(h * 100) / 100])).toEqual([
      [Math.round(210 * mm * 100) / 100, Math.round(297 * mm * 100) / 100],
      [Math.round(297 * mm * 100) / 100, Math.round(210 * mm * 100) / 100],
      [816, 1056],
      [100, 200],
      [288, 288],
      [816, 1056],
      [1632, 1056],
    ]);
  });

  it('css-page-3 cascade: :first, :left/:right, named pages, !important, margin boxes', async () => {
    const css = `@page { size: 400px 600px; margin: 10px; @top-center { content: "all" } }
      @page :first { margin-top: 50px; @top-center { content: "first" } }
      @page :left { margin-left: 30px !important }
      @page :left { margin-left: 5px }
      @page wide { size: 800px 600px; @bottom-right { content: "__fs_element__(hdr|start)" } }
      @page { quotes: "__fs_bleed__" "6px"; content: "__fs_marks__crop" }`;
    const out = await run<{ overlay: boolean; usesStart: boolean; pages: Array<Record<string, unknown>> }>(
      `<style>${css}</style><p>x</p>`,
      `P.resolvePages([[0, ''], [1, ''], [2, 'wide']])`,
    );
    expect(out.overlay).toBe(true);
    expect(out.usesStart).toBe(true);
    const [first, left, wide] = out.pages;
    expect(first).toMatchObject({ w: 400, h: 600, top: 50, right: 10, left: 10, bleed: 6, crop: true, cross: false });
    // The page rules as read before the overlay switched Chromium's own margin boxes off.
    expect(first!.boxes).toEqual({ 'top-center': { content: '"first"' } });
    expect(left).toMatchObject({ top: 10, left: 30 });
    expect(wide).toMatchObject({ w: 800, h: 600, top: 10 });
    expect(Object.keys(wide!.boxes as object).sort()).toEqual(['bottom-right', 'top-center']);
  });

  it('footers and side boxes go to the overlay (drawn after the page area) when it draws them as Chromium does', async () => {
    type Routed = { overlay: boolean; overlayOnly: string[] | null; pages: Array<{ context: Record<string, string> }> };
    const route = (css: string) => run<Routed>(`<style>${css}</style><p>x</p>`, `P.resolvePages([[0, '']])`);
    const top = '@top-center { content: "Head" } @top-left-corner { content: counter(page) }';
    // a header alone: Chromium's boxes (read first, where they are)
    expect(await route(`@page { ${top} }`)).toMatchObject({ overlay: false, overlayOnly: null });
    // text below or beside the page area: those boxes (not the header's) are the overlay's
    const routed = await route(
      `@page { font-family: serif; ${top} @bottom-center { content: "p. " counter(page, lower-roman) } } @page :left { @left-middle { content: "" } }`,
    );
    expect(routed).toMatchObject({ overlay: true, overlayOnly: ['bottom-center', 'left-middle'] });
    expect(routed.pages[0]!.context).toMatchObject({ 'font-family': 'serif' });
    // an image, attr() or another counter in such a box: Chromium's boxes (the overlay would lose them)
    for (const content of ['url("data:image/png;base64,AA==") "x"', 'attr(title)', 'counter(chapter)'])
      expect(await route(`@page { @bottom-center { content: ${content} } }`)).toMatchObject({ overlay: false });
    // the page context counts pages its own way: Chromium's boxes show that, the overlay's would not
    expect(await route('@page { counter-increment: page 2; @bottom-center { content: counter(page) } }')).toMatchObject(
      {
        overlay: false,
      },
    );
    // boxes without text need no reordering
    expect(await route('@page { @bottom-center { content: ""; border-top: 1px solid } }')).toMatchObject({
      overlay: false,
    });
    // element()/string() anywhere: every box is the overlay's, as before
    expect(await route(`@page { ${top} @bottom-center { content: "__fs_string__(t)" } }`)).toMatchObject({
      overlay: true,
      overlayOnly: null,
    });
    expect(
      await run<unknown[]>(
        '<p>x</p>',
        `[P.overlayDraws('"a" counter(page, upper-roman) \\'b\\' counter(pages)'), P.overlayDraws('counters(page, ".")'),
          P.contentHasText('"" \\' \\''), P.contentHasText('counter(page)'), P.tokens('counter(page, lower-alpha)')]`,
      ),
    ).toEqual([true, false, false, true, [{ counter: 'page', style: 'lower-alpha' }]]);
  });

  it('guesses pages from the screen layout, cut at forced breaks and named pages', async () => {
    const html = `<style>@page { size: 400px 300px; margin: 0 } body { margin: 0 } div { height: 100px } .br { break-before: page } .ch { page: chapter }</style>
      <div id="a"></div><div id="b" class="br"></div><div id="c"></div><section id="d" class="ch"><div></div></section><div id="e"></div>`;
    const g = await run<{ total: number; pages: Record<string, number>; names: string[] }>(html, 'P.guess()');
    expect(g.pages).toMatchObject({ a: 0, b: 1, c: 1, d: 2, e: 3 });
    expect(g.total).toBe(4);
    expect(g.names).toEqual(['', '', 'chapter', '']);
  });
});

describe('the counter model', () => {
  it('counts lists, resets, nesting and display:none as Chromium shows them', async () => {
    const html = `<style>h2 { counter-increment: sec } h2::before { content: counter(sec) ". " } .skip { display: none }
      section { counter-reset: sub } h3 { counter-increment: sub }</style>
      <ol start="4"><li id="l1">a</li><li id="l2" value="10">b</li><li id="l3">c</li></ol>
      <ol reversed><li id="r1">a</li><li id="r2">b</li></ol>
      <h2 id="s1">one</h2><h2 class="skip" id="s2">hidden</h2><section><h2 id="s3">two</h2><h3 id="t1">x</h3><h3 id="t2">y</h3></section>`;
    const lists = await run<Array<{ at: Record<string, number[]> } | null>>(html, `P.counters('li', ['list-item'])`);
    expect(lists.map((v) => v?.at['list-item'])).toEqual([[4], [10], [11], [2], [1]]);
    const secs = await run<Array<{ at: Record<string, number[]> } | null>>(
      html,
      `P.counters('h2, h3', ['sec', 'sub'])`,
    );
    expect(secs.map((v) => v && v.at)).toEqual([
      { sec: [1] },
      null,
      { sec: [2], sub: [0] },
      { sec: [2], sub: [1] },
      { sec: [2], sub: [2] },
    ]);
  });
});

describe('margin-box policies and controls', () => {
  it('choose: first, start, last, first-except', async () => {
    const items = JSON.stringify([
      { id: 'a', slack: 0 },
      { id: 'b', slack: 0 },
      { id: 'c', slack: 20 },
    ]);
    const state = JSON.stringify({
      total: 3,
      pages: { a: 0, b: 1, c: 1 },
      names: [],
      sizes: [],
      tops: { b: 40, c: 10 },
    });
    const picks = await run<Array<string | null>>(
      '<p>x</p>',
      `['first', 'start', 'last', 'first-except'].flatMap((p) => [0, 1, 2].map((i) => P.choose(${items}, p, i, ${state})))`,
    );
    // start: b is 40pt down its page (not at its start), a has no known offset.
    expect(picks).toEqual(['a', 'b', 'c', null, 'a', 'c', 'a', 'c', 'c', null, null, 'c']);
  });

  it('describes a form control from its computed style', async () => {
    const html = `<form><input name="who" value="Ann" maxlength="12" required style="width: 120px; font-size: 14px; border: 2px dashed rgb(255, 0, 0)"><input type="checkbox" name="ok" checked><select name="s"><option value="1">One</option><option value="2" selected>Two</option></select><input type="file" name="f"></form>`;
    const [text, box, select, file] = await run<Array<Record<string, unknown> | null>>(
      html,
      `['[name=who]', '[name=ok]', '[name=s]', '[name=f]'].map((s) => P.describe(s))`,
    );
    expect(text).toMatchObject({
      id: 'probe',
      kind: 'text',
      name: 'who',
      value: 'Ann',
      maxLength: 12,
      required: true,
      readOnly: false,
      fontSize: 14,
      look: { borderStyle: 'dashed', borderWidth: 2, borderColor: 'rgb(255, 0, 0)' },
    });
    expect(box).toMatchObject({ kind: 'checkbox', checked: true });
    expect(box).not.toHaveProperty('value');
    expect(select).toMatchObject({
      kind: 'combo',
      options: [
        ['1', 'One', false],
        ['2', 'Two', true],
      ],
    });
    expect(file).toBeNull();
  });

  it('named-string values: strings, content(), attr()', async () => {
    const out = await run<{ value: string; content: string }>(
      '<h1 title="T1">  Chapter\n one </h1>',
      `P.strings('h1', '"Ch. " content() " (" attr(title) ")"', 'first-letter')`,
    );
    expect(out).toEqual({ value: 'Ch. Chapter one (T1)', content: 'C' });
  });
});

describe('INPAGE_SOURCE through its contract', () => {
  it('prepare() reads headings, meta, running elements and page counters; layout() writes the numbers', async () => {
    const html = `<!doctype html><html><head><meta name="author" content=" Ann "><meta name="keywords" content="a, b">
      <style>@page { size: 400px 300px; margin: 20px; @top-center { content: "__fs_element__(hdr)" } }
      header { --fs-running: hdr } .n::after { content: counter(page) " of " counter(pages) }</style></head>
      <body><header>Head</header><h1>One</h1><p class="n">p</p><h2>Two</h2></body></html>`;
    await page.setContent(html);
    const info = (await page.evaluate(`${INPAGE_SOURCE}\n${pageCall('prepare')}`)) as PrepareResult;
    expect(info.meta).toEqual({ author: 'Ann', subject: null, keywords: 'a, b' });
    expect(info.bookmarks.map((b) => [b.level, b.label])).toEqual([
      [1, 'One'],
      [2, 'Two'],
    ]);
    expect(info.running.map((r) => r.name)).toEqual(['hdr']);
    expect(info).toMatchObject({ overlay: true, needsLayout: true, needsDests: true, usesStart: false, sheet: null });
    expect(info.counters).toHaveLength(1);
    expect(info.guess.total).toBe(1);
    const counter = info.counters[0]!;
    const seven = <T>(v: T) => Array.from({ length: 7 }, () => v);
    await page.evaluate(
      pageCall('layout', {
        total: 7,
        pages: { ...info.guess.pages, [counter]: 4 },
        names: seven(''),
        sizes: seven(info.guess.sizes[0]!),
      }),
    );
    const reset = await page.evaluate(
      `document.getElementById(${JSON.stringify(counter)}).style.getPropertyValue('counter-reset')`,
    );
    expect(reset).toBe('page 5 pages 7');
    // One overlay page per body page, each with the running element's copy slotted in.
    const overlay = await page.evaluate(
      `document.getElementById('__fs_overlay').shadowRoot.querySelectorAll('[data-fs-overlay-page]').length`,
    );
    expect(overlay).toBe(7);
    const margins = await page.evaluate(pageCall('resolvePages', ['', '']));
    expect(margins).toEqual([
      { top: 20, right: 20, bottom: 20, left: 20, width: 400 },
      { top: 20, right: 20, bottom: 20, left: 20, width: 400 },
    ]);
  });
});

describe('signing page script', () => {
  it('initials of a name, and the pad: strokes drawn with the mouse, Clear, Type instead', async () => {
    const source = await bundlePage('test/page/signing-page-probe.ts');
    await page.setContent(`<div id="draw"><canvas id="pad" width="680" height="160" style="width: 340px; height: 80px"></canvas>
      <button id="clear">Clear</button><button id="use-typed">Type instead</button></div><div id="type" hidden><input id="typed"></div>`);
    await page.setViewportSize({ width: 400, height: 300 });
    await page.evaluate(`${source}\nwindow.__signingProbe.setUp(false)`);
    const call = <T>(expr: string) => page.evaluate(`window.__signingProbe.${expr}`) as Promise<T>;
    expect(
      await page.evaluate(`['anna maria  van Dijk', 'élise', ''].map((n) => window.__signingProbe.initialsOf(n))`),
    ).toEqual(['AMVD', 'É', '']);
    const box = (await page.locator('#pad').boundingBox())!;
    await page.mouse.move(box.x + 10, box.y + 10);
    await page.mouse.down();
    await page.mouse.move(box.x + 50, box.y + 40, { steps: 4 });
    await page.mouse.up();
    await page.mouse.click(box.x + 100, box.y + 20); // a dot: left out
    const strokes = await call<Array<Array<{ x: number; y: number }>>>('drawn()');
    expect(strokes).toHaveLength(1);
    // CSS pixels of the pad, whatever its canvas resolution (signature_pad: the page sizes the
    // canvas by the device pixel ratio itself; the service takes {x, y} lists in these units).
    expect(strokes[0]![0]).toEqual({ x: 10, y: 10 });
    expect(strokes[0]!.at(-1)).toEqual({ x: 50, y: 40 });
    await page.click('#clear');
    expect(await call('drawn()')).toEqual([]);
    await page.click('#use-typed');
    expect(await call('typedMode()')).toBe(true);
    expect(
      await page.evaluate(`[document.getElementById('draw').hidden, document.getElementById('type').hidden]`),
    ).toEqual([true, false]);
    await page.setViewportSize({ width: 360, height: 10 });
  });
});
