/**
 * Work Chromium does for a render, counted (DevTools Performance metrics of the pool's one page): what
 * grows with the document must be the document's own layout, not a relayout per element castpress reads.
 */
import type { CDPSession } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';

let pool: BrowserPool;
let cdp: CDPSession;
beforeAll(async () => {
  // One page, reused by every job (scripts off): its DevTools session counts across documents.
  pool = new BrowserPool({ maxPages: 1, jobTimeoutMs: 120_000 });
  await pool.run(async (lease) => {
    cdp = lease.cdp;
    await cdp.send('Performance.enable');
  });
});
afterAll(() => pool.close());

async function metric(name: string): Promise<number> {
  return (await cdp.send('Performance.getMetrics')).metrics.find((m) => m.name === name)?.value ?? NaN;
}

/** Layouts Chromium ran for one render of `request`. */
async function layoutsOf(request: { html: string; css: string }): Promise<number> {
  const before = await metric('LayoutCount');
  await renderHtml(pool, request);
  return (await metric('LayoutCount')) - before;
}

/** `n` chapters, each on its own page with a running header of its own. */
function chapters(n: number): { html: string; css: string } {
  let html = '';
  for (let c = 1; c <= n; c++)
    html += `<section><div class="head">Head ${c}</div><h1>Chapter ${c}</h1><p>Text of chapter ${c}.</p></section>`;
  return {
    html,
    css: '.head { position: running(head) } h1 { break-before: page } @page { @top-center { content: element(head) } }',
  };
}

describe('layouts per render', () => {
  it(
    'running elements are read on one layout: 32 of them cost no more layouts than 8',
    { timeout: 240_000 },
    async () => {
      await layoutsOf(chapters(8)); // the page's code is installed by the first document
      const few = await layoutsOf(chapters(8));
      const many = await layoutsOf(chapters(32));
      expect(few).toBeGreaterThan(0);
      // Taking each out of the flow before reading the next laid the document out once per element (+24 here).
      expect(many - few).toBeLessThanOrEqual(3);
    },
  );
});
