/**
 * The overlay's in-page cost, old against new in one process: `npx tsx bench/_overlay-ab.ts <old tree> [chapters]
 * [rounds] [untagged]` loads src/html from this tree and from `<old tree>` (a `git archive` of the base with
 * node_modules linked in), each with a pool of its own, renders the report of bench/html-report.ts with a pinned
 * clock alternately (old, new, new, old, ...) and prints per render `begin`'s main-thread CPU (DevTools
 * Performance metrics in thread ticks: task, style), its style recalcs, Chromium's CPU (the pool's process tree
 * in /proc, 10 ms ticks) and the output's SHA-256, then each side's medians.
 */
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import type { CDPSession, Page } from 'playwright-core';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const oldTree = resolve(process.argv[2] ?? '/tmp/old-overlaycost');
const chapters = Number(process.argv[3] ?? REPORT_CHAPTERS);
const rounds = Number(process.argv[4] ?? 6);
const tagged = process.argv[5] !== 'untagged';
type Html = typeof import('../src/html/index.js');
type Metrics = Record<string, number>;
const KEYS = ['TaskDuration', 'RecalcStyleDuration', 'RecalcStyleCount', 'LayoutCount'];

async function side(name: string, mod: Html) {
  const pool = new mod.BrowserPool({ maxPages: 1 });
  let begin: Metrics = {};
  await pool.run(
    async ({ cdp }: { page: Page; cdp: CDPSession }) => {
      const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
      const send = proto.send;
      const metrics = async (s: CDPSession): Promise<Metrics> => {
        const r = (await send.call(s, 'Performance.getMetrics')) as {
          metrics: Array<{ name: string; value: number }>;
        };
        return Object.fromEntries(r.metrics.filter((m) => KEYS.includes(m.name)).map((m) => [m.name, m.value]));
      };
      // Patched once per CDPSession class: each pool's sessions record into their own `begin`.
      const own = cdp as unknown as { send: (m: string, p?: unknown) => Promise<unknown> };
      own.send = async function (this: CDPSession, method: string, params?: unknown) {
        const expr = (params as { expression?: string } | undefined)?.expression ?? '';
        if (method !== 'Runtime.evaluate' || !/begin/.test(expr.slice(-400))) return send.call(this, method, params);
        await send.call(this, 'Performance.enable', { timeDomain: 'threadTicks' });
        const a = await metrics(this);
        const out = await send.call(this, method, params);
        const b = await metrics(this);
        begin = Object.fromEntries(KEYS.map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)]));
        return out;
      };
    },
    async () => ({}),
  );
  const request = { ...reportDocument(chapters), tagged, now: new Date('2026-01-01T00:00:00Z') };
  const cpu = async () => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;
  await mod.renderHtmlDocument(pool, request); // warm-up
  const rows: Metrics[] = [];
  let hash = '';
  return {
    name,
    rows,
    get hash() {
      return hash;
    },
    close: () => pool.close(),
    async once() {
      const c0 = await cpu();
      const out = await mod.renderHtmlDocument(pool, request);
      const row = {
        beginTask: begin.TaskDuration! * 1000,
        beginStyle: begin.RecalcStyleDuration! * 1000,
        recalcs: begin.RecalcStyleCount!,
        layouts: begin.LayoutCount!,
        chromium: (await cpu()) - c0,
      };
      hash = createHash('sha256').update(out.pdf).digest('hex').slice(0, 16);
      rows.push(row);
      console.log(
        name.padEnd(4) +
          Object.entries(row)
            .map(([k, v]) => `${k} ${v.toFixed(1)}`)
            .join(', ') +
          ', sha256 ' +
          hash,
      );
    },
  };
}

const oldSide = await side('old', (await import(resolve(oldTree, 'src/html/index.ts'))) as Html);
const newSide = await side('new', await import('../src/html/index.js'));
for (let r = 0; r < rounds; r++) for (const s of r % 2 ? [newSide, oldSide] : [oldSide, newSide]) await s.once();
await oldSide.close();
await newSide.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const s of [oldSide, newSide])
  console.log(
    `${s.name} median: ` +
      Object.keys(s.rows[0]!)
        .map((k) => `${k} ${median(s.rows.map((r) => r[k]!)).toFixed(1)}`)
        .join(', ') +
      `, sha256 ${s.hash}`,
  );
