import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml, type HtmlRenderRequest } from '../src/html/index.js';
import { ImportBudget, inlineImports } from '../src/html/css-rewrite.js';
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

describe('documents that navigate', () => {
  let scripted: BrowserPool;
  let plain: BrowserPool;
  beforeAll(() => {
    scripted = new BrowserPool({ javaScriptEnabled: true, jobTimeoutMs: 8000 });
    plain = new BrowserPool({ jobTimeoutMs: 8000 });
  });
  afterAll(async () => {
    await Promise.all([scripted.close(), plain.close()]);
  });

  it('meta refresh is ignored: the document renders (JS on and off)', async () => {
    const refreshes = [
      '<meta http-equiv="refresh" content="0">',
      '<meta http-equiv=refresh content="0; url=http://127.0.0.1:1/x">',
      "<meta content='0;url=about:blank' http-equiv='Refresh'>",
      '<meta http-equiv="REFRESH" content="0; url=data:text/html,replaced">',
      '<meta http-equiv="&#114;efresh" content="0">',
      '<meta http-equiv = " Refresh " content="0;url=http://example.com/">',
    ];
    for (const pool of [plain, scripted]) {
      for (const meta of refreshes) {
        const pdf = await renderHtml(pool, { html: `<html><head>${meta}</head><body><p>kept content</p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="></body></html>` });
        expect((await pageText(pdf))[0]).toContain('kept content');
      }
    }
  });

  it('a script that navigates the document away gets a 400 quickly, and the pool keeps serving', async () => {
    const scripts = [
      "location.href = 'http://127.0.0.1:1/elsewhere'",
      'location.reload()',
      "location.href = 'about:blank'",
      "setTimeout(() => { location.href = 'https://example.com/' }, 0)",
      "document.body.insertAdjacentHTML('beforeend', '<meta http-equiv=refresh content=0>')",
    ];
    for (const script of scripts) {
      const started = Date.now();
      const result = await outcome(scripted, { html: `<p>before</p><script>${script}</script><p>after</p>` });
      expect([script, result === 'pdf' || result === 'ValidationError 400']).toEqual([script, true]);
      expect(Date.now() - started).toBeLessThan(5000);
    }
    expect((await pageText(await renderHtml(scripted, { html: '<p>next job</p>' })))[0]).toContain('next job');
  });
});

describe('hostile stylesheets and page sizes', () => {
  let pool: BrowserPool;
  let asked = 0;
  beforeAll(() => {
    pool = new BrowserPool({
      jobTimeoutMs: 10_000,
      resolver: async (url) => {
        asked++;
        // Every sheet imports ten new ones, 100 KB each: unbounded without a budget.
        const n = Number(/\/(\d+)\.css/.exec(url)?.[1] ?? 0);
        const imports = Array.from({ length: 10 }, (_, i) => `@import url("/${n * 10 + i + 1}.css");`).join('\n');
        return { body: new TextEncoder().encode(`${imports}\n/*${'x'.repeat(100_000)}*/ p { color: black }`), contentType: 'text/css' };
      },
    });
  });
  afterAll(async () => {
    await pool.close();
  });

  it('@import fan-out of a data: sheet importing itself N times returns quickly (N = 6, 20)', async () => {
    for (const n of [6, 20]) {
      const sheet = `data:text/css,${encodeURIComponent('@import url("#0");'.repeat(n) + 'p { color: blue }')}`;
      for (const html of [`<link rel="stylesheet" href="${sheet}"><p>fan-out</p>`, `<style>@import url("${sheet}");</style><p>fan-out</p>`]) {
        const started = Date.now();
        const result = await outcome(pool, { html });
        expect(result).toBe('pdf');
        expect(Date.now() - started).toBeLessThan(5000);
      }
    }
  });

  it('a tree of distinct imports stops at the sheet budget with a 413', async () => {
    asked = 0;
    const started = Date.now();
    expect(await outcome(pool, { html: '<style>@import url("https://sheets.test/0.css");</style><p>tree</p>' })).toBe('PayloadTooLargeError 413');
    expect(Date.now() - started).toBeLessThan(5000);
    expect(asked).toBeLessThanOrEqual(260);
  });

  it('a 5000-inch page is a 400 on the property; a document @page that Chromium cannot print is a 400 too', async () => {
    const err = await renderHtml(pool, { html: '<p>x</p>', page: { width: '5000in' } }).catch((e: unknown) => e);
    expect(err).toMatchObject({ name: 'ValidationError', status: 400, fields: [{ property: 'page.width' }] });
    expect(await outcome(pool, { html: '<p>x</p>', page: { height: '0mm' } })).toBe('ValidationError 400');
    expect(await outcome(pool, { html: '<p>x</p>', page: { width: '200in', height: '14400pt' } })).toBe('pdf');
    expect(await outcome(pool, { html: '<p>x</p>', css: '@page { size: 5000in 5in }' })).toBe('ValidationError 400');
  });
});

describe('document building', () => {
  it('runs inside the job deadline: a stylesheet that never arrives is a 504 on time', async () => {
    const pool = new BrowserPool({ jobTimeoutMs: 1500, resolver: () => new Promise(() => undefined) });
    try {
      const started = Date.now();
      expect(await outcome(pool, { html: '<link rel="stylesheet" href="https://slow.test/s.css"><p>x</p>' })).toBe('RenderError 504');
      expect(Date.now() - started).toBeLessThan(4000);
    } finally {
      await pool.close();
    }
  });

  it('inlines each sheet once: repeats and cycles (a → b → a) cost one fetch each', async () => {
    const sheets: Record<string, string> = {
      'https://s.test/a.css': '@import "b.css"; @import "b.css#x"; .a {}',
      'https://s.test/b.css': '@import url(a.css); .b {}',
    };
    const fetched: string[] = [];
    const css = await inlineImports('@import "https://s.test/a.css"; @import "https://s.test/a.css"; .top {}', undefined, async (url) => {
      fetched.push(url);
      return sheets[url] ?? null;
    }, new ImportBudget(1_000_000));
    expect(fetched).toEqual(['https://s.test/a.css', 'https://s.test/b.css']);
    expect(css.replace(/\s+/g, ' ').trim()).toBe('.b {} .a {} .top {}');
  });
});

describe('renderer crash', () => {
  it('a job whose renderer crashes is retried once and succeeds', async () => {
    let crashes = 0;
    const pool: BrowserPool = new BrowserPool({
      jobTimeoutMs: 15_000,
      resolver: async () => {
        if (crashes === 0) {
          crashes++;
          await pool.crashRenderersForTesting();
        }
        return null;
      },
    });
    try {
      await renderHtml(pool, { html: '<p>warm up</p>' });
      const pdf = await renderHtml(pool, { html: '<img src="https://crash.test/a.png"><p>survived</p>' });
      expect(crashes).toBe(1);
      expect((await pageText(pdf))[0]).toContain('survived');
    } finally {
      await pool.close();
    }
  });
});

describe('browser memory is bounded', () => {
  it('a browser is replaced after maxJobsPerBrowser jobs, its processes ended', async () => {
    const alive = (pid: number): boolean => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    const browserPid = async (p: BrowserPool): Promise<number | undefined> => (await p.processes())[0]?.pid;
    const pool = new BrowserPool({ maxJobsPerBrowser: 2, jobTimeoutMs: 15_000 });
    try {
      await renderHtml(pool, { html: '<p>1</p>' });
      const first = await browserPid(pool);
      expect(first).toBeGreaterThan(0);
      await renderHtml(pool, { html: '<p>2</p>' });
      expect((await pageText(await renderHtml(pool, { html: '<p>third job</p>' })))[0]).toContain('third job');
      const second = await browserPid(pool);
      expect(second).toBeGreaterThan(0);
      expect(second).not.toBe(first);
      expect(alive(first!)).toBe(false);
    } finally {
      await pool.close();
    }
  });

  it('a job that grows Chromium past the memory ceiling fails with 413 within seconds; the next job gets a fresh browser', async () => {
    const pool = new BrowserPool({ javaScriptEnabled: true, maxBrowserRssBytes: 1024 ** 3, jobTimeoutMs: 20_000 });
    try {
      await renderHtml(pool, { html: '<p>warm</p>' });
      const before = (await pool.processes())[0]?.pid;
      // ~1.3 GB of live arrays, held while the script spins.
      const hog = '<script>const keep = []; for (let i = 0; i < 80; i++) keep.push(new Array(4e6).fill(i + 0.5)); for (;;) {}</script>';
      const started = Date.now();
      expect(await outcome(pool, { html: hog })).toBe('PayloadTooLargeError 413');
      expect(Date.now() - started).toBeLessThan(15_000);
      expect((await pageText(await renderHtml(pool, { html: '<p>fresh</p>' })))[0]).toContain('fresh');
      expect((await pool.processes())[0]?.pid).not.toBe(before);
    } finally {
      await pool.close();
    }
  });
});
