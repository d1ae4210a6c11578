import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { ImportBudget, inlineImports, rewriteGcpm } from '../src/html/css/rewrite.js';
import { buildDocument } from '../src/html/document.js';
import type { ResourceProblem } from '../src/resources/index.js';
import { heldDeadlines, outcome } from './helpers/outcome.js';
import { pageText } from './helpers/pdf.js';
import { expectLinearTime } from './helpers/scaling.js';

describe('documents that navigate', () => {
  let scripted: BrowserPool;
  let plain: BrowserPool;
  beforeAll(() => {
    scripted = new BrowserPool({ javaScriptEnabled: true, jobTimeoutMs: 30_000 });
    plain = new BrowserPool({ jobTimeoutMs: 30_000 });
  });
  afterAll(async () => {
    await Promise.all([scripted.close(), plain.close()]);
  });

  it('meta refresh is ignored: the document renders (JS on and off)', { timeout: 240_000 }, async () => {
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
        const pdf = await renderHtml(pool, {
          html: `<html><head>${meta}</head><body><p>kept content</p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="></body></html>`,
        });
        expect((await pageText(pdf))[0]).toContain('kept content');
      }
    }
  });

  it(
    'a script that navigates the document away gets a 400 (not a 504 at the deadline), and the pool keeps serving',
    { timeout: 120_000 },
    async () => {
      const scripts = [
        "location.href = 'http://127.0.0.1:1/elsewhere'",
        'location.reload()',
        "location.href = 'about:blank'",
        "setTimeout(() => { location.href = 'https://example.com/' }, 0)",
        "document.body.insertAdjacentHTML('beforeend', '<meta http-equiv=refresh content=0>')",
      ];
      for (const script of scripts) {
        // A navigation the pool missed would leave the job waiting: a 504, not accepted here.
        const result = await outcome(scripted, { html: `<p>before</p><script>${script}</script><p>after</p>` });
        expect([script, result === 'pdf' || result === 'ValidationError 400']).toEqual([script, true]);
      }
      expect((await pageText(await renderHtml(scripted, { html: '<p>next job</p>' })))[0]).toContain('next job');
    },
  );
});

describe('hostile stylesheets and page sizes', () => {
  let pool: BrowserPool;
  let asked = 0;
  beforeAll(() => {
    pool = new BrowserPool({
      jobTimeoutMs: 30_000,
      resolver: async (url) => {
        asked++;
        // Every sheet imports ten new ones, 100 KB each: unbounded without a budget.
        const n = Number(/\/(\d+)\.css/.exec(url)?.[1] ?? 0);
        const imports = Array.from({ length: 10 }, (_, i) => `@import url("/${n * 10 + i + 1}.css");`).join('\n');
        return {
          body: new TextEncoder().encode(`${imports}\n/*${'x'.repeat(100_000)}*/ p { color: black }`),
          contentType: 'text/css',
        };
      },
    });
  });
  afterAll(async () => {
    await pool.close();
  });

  it(
    '@import fan-out of a data: sheet importing itself N times renders (N = 6, 20)',
    { timeout: 120_000 },
    async () => {
      for (const n of [6, 20]) {
        const sheet = `data:text/css,${encodeURIComponent('@import url("#0");'.repeat(n) + 'p { color: blue }')}`;
        for (const html of [
          `<link rel="stylesheet" href="${sheet}"><p>fan-out</p>`,
          `<style>@import url("${sheet}");</style><p>fan-out</p>`,
        ]) {
          // Unbounded fan-out would end at the deadline (504) or the sheet budget (413).
          expect(await outcome(pool, { html })).toBe('pdf');
        }
      }
    },
  );

  it('the @page bleed/marks rewrite is linear in the CSS (a backtracking pattern took 16 s on 120 KB)', async () => {
    const inputs = [
      (n: number) => '@page { ' + 'bleed:'.repeat(n) + '! }',
      (n: number) => '@page { bleed:' + ' '.repeat(n) + 'x' + ' '.repeat(n) + 'y }',
      (n: number) => '@page '.repeat(n) + 'bleed: 1mm',
      (n: number) => '@page { bleed: 1mm; ' + '"\\'.repeat(n) + ' }',
    ];
    // 8x the CSS costs under 22.6x (quadratic: 64x).
    // Every pattern in one measurement: one that went quadratic again would dominate the sum.
    const rewritten = await expectLinearTime(
      '@page rewrite',
      async (n) => inputs.map((css) => rewriteGcpm(css(n))),
      1_250,
      10_000,
    );
    for (const css of rewritten) expect(css.length).toBeGreaterThan(0);
  });

  it('building the document is linear in the HTML: unclosed tags and url( runs (20,000 unclosed <head took 11 s)', async () => {
    const inputs = [
      (n: number) => '<style>running(' + '<style>'.repeat(n),
      (n: number) => 'http-equiv ' + '<meta '.repeat(n),
      (n: number) => '<link '.repeat(n),
      (n: number) => '<head '.repeat(n) + '<html '.repeat(n),
      (n: number) => '<base '.repeat(n),
      (n: number) => '<style>p{background:url(' + ' '.repeat(n) + 'url('.repeat(n) + '}</style>',
    ];
    // 8x the HTML costs under 22.6x (quadratic: 64x).
    // Every pattern in one measurement: one that went quadratic again would dominate the sum.
    const built = await expectLinearTime(
      'document building',
      (n) =>
        Promise.all(
          inputs.map((html) =>
            buildDocument({ html: html(n), baseUrl: 'https://example.test/' }, { maxResourceBytes: 50_000_000 }),
          ),
        ),
      1_250,
      10_000,
    );
    built.forEach((doc, i) => expect(doc.length).toBeGreaterThan(inputs[i]!(10_000).length));
  });

  it('a tree of distinct imports stops at the sheet budget with a 413', async () => {
    asked = 0;
    // The tree is unbounded: without the budget it would end at the deadline (504); the fetches are counted.
    expect(await outcome(pool, { html: '<style>@import url("https://sheets.test/0.css");</style><p>tree</p>' })).toBe(
      'PayloadTooLargeError 413',
    );
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
  it('runs inside the job deadline: a stylesheet that never arrives is a 504', async () => {
    // The sheet never arrives: without the deadline around document building the job would never end. The
    // test passes the deadline once the build is waiting for the sheet.
    const deadlines = heldDeadlines();
    const asked: string[] = [];
    const pool = new BrowserPool({
      deadlineTimer: deadlines.timer,
      resolver: (url) => {
        asked.push(url);
        return new Promise(() => undefined);
      },
    });
    try {
      let ended = false;
      const result = outcome(pool, { html: '<link rel="stylesheet" href="https://slow.test/s.css"><p>x</p>' });
      void result.finally(() => (ended = true));
      await expect.poll(() => asked).toEqual(['https://slow.test/s.css']);
      expect([ended, deadlines.pending()]).toEqual([false, 1]);
      deadlines.pass();
      expect(await result).toBe('RenderError 504');
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
    const css = await inlineImports(
      '@import "https://s.test/a.css"; @import "https://s.test/a.css"; .top {}',
      undefined,
      async (url) => {
        fetched.push(url);
        return sheets[url] ?? null;
      },
      new ImportBudget(1_000_000),
    );
    expect(fetched).toEqual(['https://s.test/a.css', 'https://s.test/b.css']);
    expect(css.replace(/\s+/g, ' ').trim()).toBe('.b {} .a {} .top {}');
  });
});

/** A data: stylesheet importing two distinct data: sheets per level, `depth` levels down; each leaf a marker rule. */
function dataTree(depth: number, id = 'm'): string {
  if (depth === 0) return `.${id}{}`;
  const child = (c: string) => `@import url("data:text/css,${encodeURIComponent(dataTree(depth - 1, id + c))}");`;
  return child('a') + child('b');
}

describe('nested data: stylesheets', () => {
  const leaves = (doc: string) => doc.match(/\.m[ab]+\{\}/g)?.length ?? 0;

  it('a tree of data: imports stops at the data: budget (4 levels, 32 sheets) with one resource warning; the document still builds', async () => {
    const problems: ResourceProblem[] = [];
    // 2 + 4 + ... + 64 = 126 data: sheets, 6 levels deep: everything past 4 levels is skipped.
    const deep = await buildDocument(
      { html: `<style>${dataTree(6)}</style><p>x</p>` },
      { maxResourceBytes: 50_000_000, onProblem: (p) => problems.push(p) },
    );
    expect(leaves(deep)).toBe(0);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatchObject({
      kind: 'stylesheet',
      reason: expect.stringMatching(/data: stylesheets past the budget/),
    });

    // Within the depth budget but over the count: 2 + 4 + 8 + 16 = 30 sheets on 4 levels fit; twice that does not.
    problems.length = 0;
    const fits = await buildDocument(
      { html: `<style>${dataTree(4)}</style>` },
      { maxResourceBytes: 50_000_000, onProblem: (p) => problems.push(p) },
    );
    expect(leaves(fits)).toBe(16);
    expect(problems).toEqual([]);
    const twice = await buildDocument(
      { html: `<style>${dataTree(4, 'm')}${dataTree(4, 'ma')}</style>` },
      { maxResourceBytes: 50_000_000, onProblem: (p) => problems.push(p) },
    );
    // 32 data: sheets followed in all, not the 60 of both trees: some leaves of the 32 are left out.
    expect(leaves(twice)).toBeLessThan(32);
    expect(problems).toHaveLength(1);
  });

  it('rendered: the budget reaches the caller as a resource warning', async () => {
    const problems: ResourceProblem[] = [];
    const pool = new BrowserPool({ jobTimeoutMs: 20_000 });
    onTestFinished(() => pool.close());
    const pdf = await renderHtml(pool, {
      html: `<style>${dataTree(6)}</style><p>nested</p>`,
      onResourceProblem: (p) => problems.push(p),
    });
    expect((await pageText(pdf))[0]).toContain('nested');
    expect(problems.map((p) => p.reason)).toEqual([expect.stringMatching(/data: stylesheets past the budget/)]);
  });
});

describe('renderer crash', () => {
  it(
    'a job that asks a browser that has just died for a page takes a page of the next browser',
    { timeout: 240_000 },
    async () => {
      // JavaScript on: pages are closed after every job, so the job's lease opens a new page (none idle to reuse).
      const pool = new BrowserPool({ javaScriptEnabled: true, jobTimeoutMs: 90_000 });
      try {
        await renderHtml(pool, { html: '<p>warm up</p>' });
        const browser = (await pool.processes())[0];
        expect(browser?.type).toBe('');
        // Killed, and the job started in the same turn: Playwright has not read the pipe's end yet, so the pool
        // still takes this browser for the job and asks it for a page; that call fails "browser has been closed".
        process.kill(browser!.pid, 'SIGKILL');
        const pdf = await renderHtml(pool, { html: '<p>on the next browser</p>' });
        expect((await pageText(pdf))[0]).toContain('on the next browser');
        expect((await pool.processes())[0]?.pid).not.toBe(browser!.pid);
      } finally {
        await pool.close();
      }
    },
  );

  it('a job whose renderer crashes is retried once and succeeds', { timeout: 240_000 }, async () => {
    let crashes = 0;
    // No job here needs to end at its deadline: a long one, so that a busy machine's slow relaunch is no 504.
    const pool: BrowserPool = new BrowserPool({
      jobTimeoutMs: 90_000,
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

  it(
    'a renderer crash while printing ("Printing failed") is retried too, not taken for an unprintable page',
    { timeout: 240_000 },
    async () => {
      // The crash lands inside page.pdf(), whatever the machine's speed: printing fires `beforeprint`, whose
      // synchronous request holds the renderer until the resolver (which crashes it first) answers.
      // Retried, the job prints again; that time the resolver only answers.
      let crashes = 0;
      const asked: string[] = [];
      const pool: BrowserPool = new BrowserPool({
        javaScriptEnabled: true,
        jobTimeoutMs: 90_000,
        resolver: async (url) => {
          asked.push(url);
          if (crashes === 0) {
            crashes++;
            await pool.crashRenderersForTesting();
          }
          return { body: new TextEncoder().encode('printed'), contentType: 'text/plain' };
        },
      });
      try {
        await renderHtml(pool, { html: '<p>warm up</p>' });
        const html = `<script>addEventListener('beforeprint', () => {
  const x = new XMLHttpRequest();
  x.open('GET', 'https://print.test/now', false);
  try { x.send(); } catch {}
});</script><p>survived</p>`;
        const pdf = await renderHtml(pool, { html });
        expect(crashes).toBe(1);
        // Asked once per print: the crashed one and the retry.
        expect(asked).toEqual(['https://print.test/now', 'https://print.test/now']);
        expect((await pageText(pdf))[0]).toContain('survived');
      } finally {
        await pool.close();
      }
    },
  );
});
