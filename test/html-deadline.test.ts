import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BrowserPool, renderHtml } from '../src/html/index.js';
import { heldDeadlines, outcome } from './helpers/outcome.js';
import { pageText } from './helpers/pdf.js';

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

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The pool's renderer that is burning CPU: the one with the most CPU time since `before`, once it has spent
 * `ticks` (polled: counted CPU, not a window of seconds; the job that spins keeps adding to it). 0.5 s of CPU:
 * more than a renderer spends starting up (a spare one Chromium launches beside the job's may spend 0.1-0.2 s
 * on a loaded machine, and taking it for the spinner would wait for an exit that never comes).
 */
async function spinningRenderer(pool: BrowserPool, before: Map<number, number>, ticks = 50): Promise<number> {
  let pid = 0;
  await expect
    .poll(
      async () => {
        let most = 0;
        for (const p of await pool.processes()) {
          const spent = p.type === 'renderer' ? p.cpuTicks - (before.get(p.pid) ?? 0) : 0;
          if (spent > most) [most, pid] = [spent, p.pid];
        }
        return most;
      },
      { timeout: 60_000, interval: 100 },
    )
    .toBeGreaterThanOrEqual(ticks);
  return pid;
}

/** Resolves the next time a document asks for https://started.test/ (its script has begun: see `report`). */
let started: () => void = () => undefined;
/** The deadlines of this file's pool: a job ends at its deadline when the test says it has passed. */
const deadlines = heldDeadlines();
// One JS-on pool for the CPU cases (one Chromium launch for them). No job here ends at a deadline unless the
// test passes it (`deadlines.pass()`), so a busy machine never turns real work (warm-up, the next job) into a 504.
let pool: BrowserPool;
beforeAll(() => {
  pool = new BrowserPool({
    javaScriptEnabled: true,
    jobTimeoutMs: 90_000,
    deadlineTimer: deadlines.timer,
    resolver: async (url) => {
      if (url.startsWith('https://started.test/')) started();
      return { body: new TextEncoder().encode('ok'), contentType: 'text/plain' };
    },
  });
});
afterAll(async () => {
  await pool.close();
});

describe('a timed-out job stops costing CPU', () => {
  /**
   * Runs `html` (whose script reports its start, then spins forever) until its renderer has burnt CPU, then
   * passes the job's deadline: the typed 504, then the renderer that was spinning exits and no page is left
   * open. The job never ends by itself, so the deadline is the only way out; the test passes it once it has
   * seen the spin (a fixed deadline had to be 20 s for a loaded machine to show the start and the spin).
   */
  async function endlessJob(html: string): Promise<void> {
    const begun = new Promise<void>((resolve) => (started = resolve));
    const before = new Map((await pool.processes()).map((p) => [p.pid, p.cpuTicks]));
    let ended = false;
    const result = renderHtml(pool, { html }).then(
      () => 'pdf',
      (e: unknown) => `${(e as { name?: string }).name} ${(e as { status?: number }).status} ${String(e)}`,
    );
    void result.finally(() => (ended = true));
    await Promise.race([begun, result.then((r) => Promise.reject(new Error(`ended before its script ran: ${r}`)))]);
    // The renderer busy with the job: the CPU that must stop (so the check below can fail).
    const renderer = await spinningRenderer(pool, before);
    // Still running, its deadline armed and not passed: the only way out is the one taken next.
    expect([ended, deadlines.pending()]).toEqual([false, 1]);
    deadlines.pass();
    expect(await result).toMatch(/^RenderError 504 /);
    await expect.poll(() => alive(renderer), { timeout: 60_000, interval: 50 }).toBe(false);
    expect(pool.openPages()).toBe(0);
    expect((await pageText(await renderHtml(pool, { html: '<p>still serving</p>' })))[0]).toContain('still serving');
  }

  /** A synchronous request to the resolver: the test learns the script has begun, without a pause. */
  const report = (what: string) =>
    `const x = new XMLHttpRequest(); x.open('GET', 'https://started.test/${what}', false); try { x.send(); } catch {}`;

  it('an endless script: 504, then its renderer is gone', { timeout: 180_000 }, async () => {
    expect(await outcome(pool, { html: '<p>warm</p>' })).toBe('pdf');
    await endlessJob(`<p>x</p><script>${report('load')}; for (;;) {}</script>`);
  });

  it(
    'a document that never finishes printing: 504, then no renderer keeps printing',
    { timeout: 180_000 },
    async () => {
      // The spin starts inside page.pdf() (printing fires `beforeprint`), whatever the machine's speed.
      await endlessJob(
        `<script>addEventListener('beforeprint', () => { ${report('print')}; for (;;) {} });</script><p>x</p>`,
      );
    },
  );
});

describe('a finished job with JavaScript on stops costing CPU', () => {
  it(
    'a busy setInterval: after the PDF is returned its page is closed and Chromium is as idle as before the job',
    { timeout: 180_000 },
    async () => {
      expect(await outcome(pool, { html: '<p>warm</p>' })).toBe('pdf');
      // A fresh browser settles for a second or two after its first job: the baseline is taken once it has.
      let idle = Infinity;
      for (let i = 0; i < 10 && idle > 5; i++) idle = await chromiumTicksDuring(pool, 2000);
      const busy =
        '<p>busy</p><script>setInterval(() => { let x = 0; for (let i = 0; i < 3e6; i++) x += i; window.x = x; }, 1);</script>';
      expect((await pageText(await renderHtml(pool, { html: busy })))[0]).toContain('busy');
      await new Promise((r) => setTimeout(r, 500));
      // The same length of time as the baseline: ticks compared, not seconds. A page left running the
      // interval spends 10-50 ticks in it on this shared machine (background pages are throttled); a closed one none.
      const after = await chromiumTicksDuring(pool, 2000);
      expect(after).toBeLessThan(idle + 8);
      expect(pool.openPages()).toBe(0);
      expect((await pageText(await renderHtml(pool, { html: '<p>still serving</p>' })))[0]).toContain('still serving');
    },
  );
});

describe('browser memory is bounded', () => {
  it('a browser is replaced after maxJobsPerBrowser jobs, its processes ended', { timeout: 180_000 }, async () => {
    const browserPid = async (p: BrowserPool): Promise<number | undefined> => (await p.processes())[0]?.pid;
    // A long deadline: no job here needs to end at it (a busy machine's launch is slow, not broken).
    const pool = new BrowserPool({ maxJobsPerBrowser: 2, jobTimeoutMs: 90_000 });
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

  it(
    'a job that grows Chromium past the memory ceiling fails with 413 (not the 504 of its deadline); the next job gets a fresh browser',
    { timeout: 240_000 },
    async () => {
      // The hog never ends: without the memory check it would be a 504 at this deadline, not a 413.
      const pool = new BrowserPool({ javaScriptEnabled: true, maxBrowserRssBytes: 1024 ** 3, jobTimeoutMs: 90_000 });
      try {
        await renderHtml(pool, { html: '<p>warm</p>' });
        const before = (await pool.processes())[0]?.pid;
        // ~1.3 GB of live arrays, held while the script spins.
        const hog =
          '<script>const keep = []; for (let i = 0; i < 80; i++) keep.push(new Array(4e6).fill(i + 0.5)); for (;;) {}</script>';
        expect(await outcome(pool, { html: hog })).toBe('PayloadTooLargeError 413');
        expect((await pageText(await renderHtml(pool, { html: '<p>fresh</p>' })))[0]).toContain('fresh');
        expect((await pool.processes())[0]?.pid).not.toBe(before);
      } finally {
        await pool.close();
      }
    },
  );
});
