/**
 * The cost of `begin` and of the whole render, in CPU: `npx tsx bench/_begin-cpu.ts [chapters] [renders] [tagged]`
 * renders the report of bench/html-report.ts and prints one line per render: begin's main-thread CPU
 * (DevTools Performance metrics in thread ticks: task, layout, style), its layouts and style recalcs, the
 * render's wall time, Chromium's CPU (the pool's process tree in /proc, 10 ms ticks) and Node's CPU
 * (process.cpuUsage), then their medians. Copy it into an old tree and run the two alternately to compare
 * (see bench/results/2026-12-07-html-begin.txt).
 */
import type { CDPSession, Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const renders = Number(process.argv[3] ?? 5);
const tagged = process.argv[4] !== 'untagged';
const pool = new BrowserPool({ maxPages: 1 });
type Metrics = Record<string, number>;
const KEYS = ['TaskDuration', 'LayoutDuration', 'RecalcStyleDuration', 'LayoutCount', 'RecalcStyleCount'];
let begin: Metrics = {};

await pool.run(
  async ({ cdp }: { page: Page; cdp: CDPSession }) => {
    const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = proto.send;
    const metrics = async (s: CDPSession): Promise<Metrics> => {
      const r = (await send.call(s, 'Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
      return Object.fromEntries(r.metrics.filter((m) => KEYS.includes(m.name)).map((m) => [m.name, m.value]));
    };
    proto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      if (method !== 'Runtime.evaluate' || !/begin/.test(expr.slice(-400))) return send.call(this, method, params);
      await send.call(this, 'Performance.enable', { timeDomain: 'threadTicks' });
      const a = await metrics(this);
      const t = performance.now();
      const out = await send.call(this, method, params);
      const wall = performance.now() - t;
      const b = await metrics(this);
      begin = { wall, ...Object.fromEntries(KEYS.map((k) => [k, (b[k] ?? 0) - (a[k] ?? 0)])) };
      return out;
    };
  },
  async () => ({}),
);

const chromiumCpu = async () => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;
const request = { ...reportDocument(chapters), tagged };
await renderHtmlDocument(pool, request); // warm-up
const rows: Metrics[] = [];
for (let i = 0; i < renders; i++) {
  const c0 = await chromiumCpu();
  const n0 = process.cpuUsage();
  const t0 = performance.now();
  await renderHtmlDocument(pool, request);
  const wall = performance.now() - t0;
  const n = process.cpuUsage(n0);
  const row = {
    beginTask: begin.TaskDuration! * 1000,
    beginLayout: begin.LayoutDuration! * 1000,
    beginStyle: begin.RecalcStyleDuration! * 1000,
    layouts: begin.LayoutCount!,
    recalcs: begin.RecalcStyleCount!,
    beginWall: begin.wall!,
    wall,
    chromium: (await chromiumCpu()) - c0,
    node: (n.user + n.system) / 1000,
  };
  rows.push(row);
  console.log(
    Object.entries(row)
      .map(([k, v]) => `${k} ${v.toFixed(0)}`)
      .join(', '),
  );
}
await pool.close();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
console.log(
  'median: ' +
    Object.keys(rows[0]!)
      .map((k) => `${k} ${median(rows.map((r) => r[k]!)).toFixed(0)}`)
      .join(', '),
);
