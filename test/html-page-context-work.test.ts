/**
 * The work the overlay's page-context inheritance (src/html/in-page/page-context.ts) costs a render,
 * counted in the page: the probe that asks Chromium which `@page` declarations inherit is a pair of
 * elements and a forced style update (RecalcStyleCount 10 against 9 for the Anvil invoice, ~2-3 % of
 * its render). A page context of the page box's own properties only (size, margins, padding, borders,
 * backgrounds, outlines: every document has the request's size and margins) needs no probe; one with an
 * inherited property (font, colour...) still gets exactly one per distinct context, and its boxes
 * still inherit it.
 */
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageCall, type LayoutState, type PrepareResult } from '../src/html/in-page/contract.js';
import { INPAGE_SOURCE } from '../generated/inpage.js';
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
  /** display:none probe elements the page code put into the document (two per probe). */
  probes: number;
  /** What each overlay page's inline style has after its own (the inherited declarations), its tile's place left out. */
  overlayStyles: string[];
}

/**
 * Loads a document whose footer the overlay draws (a string and counter(page): reading order), with
 * `pageCss` in its `@page` rule, runs prepare() and then `extraLayouts` more layout passes (as render.ts
 * does when its guess of the page numbers was wrong), counting the probes appended to the root meanwhile.
 */
async function render(pageCss: string, extraLayouts = 0): Promise<Work> {
  await page.setContent(`<!doctype html><html><head><style>
    @page { size: 400px 300px; margin: 30px; ${pageCss} @bottom-center { content: "Page " counter(page) } }
    body { margin: 0 }</style></head><body><p>One</p><p style="break-before: page">Two</p></body></html>`);
  await page.evaluate(`window.__probes = [];
    window.__observer = new MutationObserver((records) => { for (const r of records) window.__probes.push(...r.addedNodes) });
    window.__observer.observe(document.documentElement, { childList: true })`);
  const info = (await page.evaluate(`${INPAGE_SOURCE}\n${pageCall('prepare')}`)) as PrepareResult;
  expect(info.overlay).toBe(true);
  for (let i = 0; i < extraLayouts; i++) {
    const state: LayoutState = { ...info.guess, pages: { ...info.guess.pages } };
    await page.evaluate(pageCall('layout', state));
  }
  return (await page.evaluate(`(() => {
    for (const r of window.__observer.takeRecords()) window.__probes.push(...r.addedNodes);
    window.__observer.disconnect();
    const probes = window.__probes.filter((n) => n.localName === 'castpress-probe' && n.style.display === 'none').length;
    const pages = document.getElementById('__fs_overlay').shadowRoot.querySelectorAll('[data-fs-overlay-page]');
    // After the page's own declarations and before its tile's place on the overlay sheet (left, top).
    const inherited = (p) => (p.getAttribute('style') || '').replace(/^[\\s\\S]*counter-reset: page \\d+ pages \\d+;\\s*/, '').replace(/\\s*left: [\\d.]+px; top: [\\d.]+px;$/, '');
    return { probes, overlayStyles: [...pages].map(inherited) };
  })()`)) as Work;
}

describe('page-context inheritance: work per render', () => {
  it('a @page context of size, margins, padding, borders and backgrounds makes no probe', async () => {
    const plain = await render('');
    expect(plain.probes).toBe(0);
    expect(plain.overlayStyles).toHaveLength(2);
    const box = await render(
      'padding: 2px; border: 1px solid red; border-radius: 3px; background: #eee; outline: 1px dotted blue;',
    );
    expect(box.probes).toBe(0);
    expect(plain.overlayStyles).toEqual(['', '']);
    expect(box.overlayStyles).toEqual(['', '']);
  });

  it('an inherited property in the context makes one probe (one pair) per distinct context, and reaches the boxes', async () => {
    const inherited = await render('font-family: monospace; color: rgb(200, 0, 0);', 2);
    // One prepare and two more layout passes over two pages with the same context: one probe pair in all.
    expect(inherited.probes).toBe(2);
    expect(inherited.overlayStyles).toEqual(Array(2).fill('font-family: monospace; color: rgb(200, 0, 0);'));
    // border-spacing and border-collapse inherit: they are asked of the engine too.
    const table = await render('border-spacing: 7px;');
    expect(table.probes).toBe(2);
    expect(table.overlayStyles).toEqual(['border-spacing: 7px;', 'border-spacing: 7px;']);
  });
});
