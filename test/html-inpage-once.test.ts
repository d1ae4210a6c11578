/**
 * The in-page code is sent once per page (the invoice row): a reused page (JavaScript off) keeps its
 * Window through setContent, so the next document only calls the installer the first job defined, which makes
 * a fresh state. These cases check that the source is not evaluated again on a reused page, that nothing of
 * the last document's state reaches the next (the same output as on a new page), and that a Window without
 * the code gets the source again.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { readText } from './helpers/pdf.js';

const FIXTURES = path.resolve('test/fixtures/html');

/** A document with much in-page state: running elements, named strings, a right-hand break, page counters. */
const FIRST = {
  html: `<div class="foot">FIRST-FOOTER</div><h1>Alpha</h1><p>One</p><h1>Beta</h1><p>Two</p>`,
  css: `@page { @top-center { content: string(chapter) } @bottom-left { content: element(foot) }
    @bottom-right { content: "p. " counter(page) " / " counter(pages) } }
    h1 { string-set: chapter content(text); break-before: right } .foot { position: running(foot) }`,
};

/** The first document's margin boxes without anything that sets them: they must stay empty whatever ran before. */
const SECOND = {
  html: '<p>Second</p>',
  css: '@page { @top-center { content: string(chapter) } @bottom-left { content: element(foot) } }',
};

let invoice: { html: string; css: string };
let pool: BrowserPool;
beforeAll(async () => {
  invoice = {
    html: await readFile(path.join(FIXTURES, 'anvil-invoice/invoice.html'), 'utf8'),
    css:
      (await readFile(path.join(FIXTURES, 'anvil-invoice/invoice.css'), 'utf8')) +
      (await readFile(path.join(FIXTURES, 'anvil-invoice/invoice-pdf.css'), 'utf8')),
  };
  // One page: every job after the first reuses it.
  pool = new BrowserPool({ maxPages: 1 });
});
afterAll(async () => {
  await pool.close();
});

/** Evaluates `expression` in the pool's (one) page without loading a document: the Window as the last job left it. */
function inPage(expression: string): Promise<{ reused: boolean; value: unknown }> {
  return pool.run(async ({ cdp, reused }) => {
    const r = await cdp.send('Runtime.evaluate', { expression, returnByValue: true });
    return { reused, value: r.exceptionDetails ? `threw: ${r.exceptionDetails.text}` : r.result.value };
  });
}

/** Each page's text with its position, rounded: what two renders of one document must share. */
async function layout(pdf: Uint8Array): Promise<string[][]> {
  return (await readText(pdf)).map((p) => p.items.map((i) => `${i.str}@${Math.round(i.x)},${Math.round(i.y)}`));
}

describe('the in-page code on a reused page', () => {
  it('is evaluated once: the next document is prepared by the installer the first job defined', async () => {
    await renderHtml(pool, FIRST);
    // A mark on the installer the first render defined; evaluating the source again would replace the function.
    expect(await inPage('window.__castpressInstall.mark = "first"; typeof window.__castpress')).toEqual({
      reused: true,
      value: 'object',
    });
    const pdf = await renderHtml(pool, invoice);
    expect((await inPage('window.__castpressInstall.mark')).value).toBe('first');
    expect((await readText(pdf)).length).toBe(1);
  });

  it("carries nothing of the last document's state: the same output as on a new page", async () => {
    const fresh = new BrowserPool({ maxPages: 1 });
    try {
      for (const next of [SECOND, invoice]) {
        const alone = await layout(await renderHtml(fresh, next));
        await renderHtml(pool, FIRST);
        const afterFirst = await layout(await renderHtml(pool, next));
        expect(afterFirst).toEqual(alone);
        expect(afterFirst.flat().join(' ')).not.toMatch(/FIRST-FOOTER|Beta/);
      }
      // And the other way round: the first document after the invoice, against its render on a new page.
      const firstAlone = await layout(await renderHtml(fresh, FIRST));
      expect(await layout(await renderHtml(pool, FIRST))).toEqual(firstAlone);
      expect(firstAlone.flat().join(' ')).toContain('FIRST-FOOTER');
    } finally {
      await fresh.close();
    }
  });

  it('sends the source again to a Window that no longer holds it', async () => {
    const before = await layout(await renderHtml(pool, invoice));
    expect(await inPage('delete window.__castpressInstall; typeof window.__castpressInstall')).toEqual({
      reused: true,
      value: 'undefined',
    });
    expect(await layout(await renderHtml(pool, invoice))).toEqual(before);
    expect((await inPage('typeof window.__castpressInstall')).value).toBe('function');
  });
});
