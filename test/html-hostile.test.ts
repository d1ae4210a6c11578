import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml, type HtmlRenderRequest } from '../src/html/index.js';
import { pageText } from './helpers/pdf.js';

/** Outcome of a render: 'pdf' or `Name status`. */
async function outcome(pool: BrowserPool, request: HtmlRenderRequest): Promise<string> {
  return renderHtml(pool, request).then(
    () => 'pdf',
    (e: unknown) => `${(e as { name?: string }).name} ${(e as { status?: number }).status}`,
  );
}

/**
 * CPU ticks (1/100 s) the pool's Chromium processes spend during `ms`: renderers,
 * and also the browser and utility processes (the print compositor assembles PDFs there).
 */
async function chromiumTicksDuring(pool: BrowserPool, ms: number, types?: string[]): Promise<number> {
  const renderers = async (): Promise<Map<number, number>> =>
    new Map((await pool.processes()).filter((p) => !types || types.includes(p.type)).map((p) => [p.pid, p.cpuTicks]));
  const before = await renderers();
  await new Promise((r) => setTimeout(r, ms));
  let spent = 0;
  for (const [pid, ticks] of await renderers()) spent += ticks - (before.get(pid) ?? 0);
  return spent;
}

describe('a timed-out job stops costing CPU', () => {
  let pool: BrowserPool;
  beforeAll(() => {
    pool = new BrowserPool({ javaScriptEnabled: true, jobTimeoutMs: 4000 });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('an endless script: 504, then its renderer is gone within a second', async () => {
    expect(await outcome(pool, { html: '<p>warm</p>' })).toBe('pdf');
    // The renderer is busy for the whole job: that is the CPU that must stop.
    const started = Date.now();
    const result = outcome(pool, { html: '<p>x</p><script>for (;;) {}</script>' });
    await new Promise((r) => setTimeout(r, 500));
    // The measurement sees the spinning renderer while the job runs (so the check below can fail).
    expect(await chromiumTicksDuring(pool, 1000, ['renderer'])).toBeGreaterThan(15);
    expect(await result).toBe('RenderError 504');
    expect(Date.now() - started).toBeLessThan(7000);
    await new Promise((r) => setTimeout(r, 1000));
    expect(await chromiumTicksDuring(pool, 1000)).toBeLessThan(10);
    expect((await pageText(await renderHtml(pool, { html: '<p>still serving</p>' })))[0]).toContain('still serving');
  });

  it('a huge paginated document: 504, then no renderer keeps printing', async () => {
    const html = `<style>div { break-after: page; }</style>${'<div>page</div>'.repeat(10_000)}`;
    expect(await outcome(pool, { html })).toBe('RenderError 504');
    await new Promise((r) => setTimeout(r, 1000));
    expect(await chromiumTicksDuring(pool, 1000)).toBeLessThan(10);
  });
});
