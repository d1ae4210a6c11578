/**
 * The in-page work of building the overlay (src/html/in-page/overlay), counted per overlay page: a report
 * whose every page shows a running header (one per chapter) and "Page X of Y" is built at two sizes, and the
 * `layout` call that rebuilds the overlay counts its style reads (getComputedStyle), the CSS text it
 * parses (inline `cssText` and `style` attributes written) and the HTML it parses (`innerHTML`). The pages
 * differ only in their counter text and which header they show: a page's structure is built once per
 * distinct style and cloned, each header's copy is parsed once and cloned for the pages that show it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCall, type PrepareResult } from '../src/html/in-page/contract.js';
import { INPAGE_SOURCE } from '../generated/inpage.js';
import { rewriteGcpm } from '../src/html/css/rewrite.js';
import { closeBrowser } from './helpers/close.js';
import { launchTestPage } from './helpers/browser.js';

let browser: Browser;
let page: Page;

beforeAll(async () => {
  ({ browser, page } = await launchTestPage());
}, 60_000);

afterAll(async () => {
  await closeBrowser(browser);
}, 30_000);

interface Work {
  tiles: number;
  computed: number;
  cssText: number;
  html: number;
  /** Each tile's text, in order. */
  texts: string[];
}

/** Chapters of two pages each, with a running header and a numbered footer. */
async function build(chapters: number): Promise<Work> {
  let body = '';
  for (let c = 1; c <= chapters; c++)
    body += `<section><div class="head">Chapter ${c}</div><h1>Chapter ${c}</h1><p>One</p><p>Two</p></section>`;
  const css = rewriteGcpm(`
    @page { size: 400px 300px; margin: 40px; @top-center { content: element(head) }
      @bottom-center { content: "Page " counter(page) " of " counter(pages) } }
    body { margin: 0 } .head { position: running(head) } h1, p + p { break-before: page } h1, p { margin: 0 }`);
  await page.setContent(`<!doctype html><html><head><style>@property --fs-running { syntax: "*"; inherits: false; }
    ${css}</style></head><body>${body}</body></html>`);
  const info = (await page.evaluate(`${INPAGE_SOURCE}\n${pageCall('prepare')}`)) as PrepareResult;
  expect(info.overlay).toBe(true);
  await page.evaluate(`(() => {
    const w = (window.__work = { computed: 0, cssText: 0, html: 0 });
    const gcs = window.getComputedStyle;
    window.getComputedStyle = function (...a) { w.computed++; return gcs.apply(this, a); };
    const wrap = (proto, name, key) => {
      const d = Object.getOwnPropertyDescriptor(proto, name);
      Object.defineProperty(proto, name, { ...d, set(v) { w[key]++; d.set.call(this, v); } });
    };
    wrap(CSSStyleDeclaration.prototype, 'cssText', 'cssText');
    wrap(Element.prototype, 'innerHTML', 'html');
    const setAttribute = Element.prototype.setAttribute;
    Element.prototype.setAttribute = function (n, v) { if (n === 'style') w.cssText++; return setAttribute.call(this, n, v); };
  })()`);
  await page.evaluate(pageCall('layout', { ...info.guess, pages: { ...info.guess.pages } }));
  return (await page.evaluate(`(() => {
    const tiles = [...document.getElementById('__fs_overlay').shadowRoot.querySelectorAll('[data-fs-overlay-page]')];
    // A header is a light-DOM copy slotted into its box.
    const text = (t) => [...t.querySelectorAll('slot')].map((s) => s.assignedElements().map((e) => e.textContent).join('')).join('') + ' ' + t.textContent;
    const texts = tiles.map((t) => text(t).replace(/\\s+/g, ' ').trim());
    return { ...window.__work, tiles: tiles.length, texts };
  })()`)) as Work;
}

describe('overlay: in-page work per overlay page', () => {
  it('reads no computed style per tile and parses CSS and HTML per distinct header, not per tile, at two sizes', async () => {
    const small = await build(4);
    const large = await build(16);
    expect(small.tiles).toBe(8);
    expect(large.tiles).toBe(32);
    // Each page shows its chapter's header and its own number.
    expect(small.texts[0]).toBe('Chapter 1 Page 1 of 8');
    expect(small.texts[3]).toBe('Chapter 2 Page 4 of 8');
    expect(large.texts[31]).toBe('Chapter 16 Page 32 of 32');
    // The style reads do not grow with the pages (one for the root's direction).
    expect(large.computed - small.computed).toBe(0);
    // CSS text and HTML are parsed once per distinct header (a running element's wrapper and copy), not
    // per page: 12 more chapters, 24 more tiles.
    expect(large.cssText - small.cssText).toBeLessThanOrEqual(16 - 4);
    expect(large.html - small.html).toBeLessThanOrEqual(16 - 4);
  });
});
