/**
 * Where `begin` spends its script time, step by step: `npx tsx bench/_begin-split.ts [chapters] [runs]` renders
 * the report of bench/html-report.ts, profiles each `begin` (DevTools Profiler, 100 µs samples) and prints the
 * inclusive time of each step that `prepare` and `layout` call (entry.ts), summed over the runs after a
 * warm-up, with the whole call's samples and its task time (Performance metrics). Chromium's CPU over the
 * begin calls is read from /proc (bench/_proc-stats.ts's reading of the pool's processes).
 */
import type { CDPSession, Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 5);
/** Further functions whose callees (and own hot lines) to list, comma-separated: `targetRules,prepareRunning`. */
const expand = (process.argv[4] ?? '').split(',').filter(Boolean);
const pool = new BrowserPool({ maxPages: 1 });
interface Node {
  id: number;
  children?: number[];
  callFrame: { functionName: string; lineNumber: number };
  positionTicks?: Array<{ line: number; ticks: number }>;
}
let profiling = false;
const incl = new Map<string, number>();
let total = 0;
let task = 0;
let beginWall = 0;
let beginCpu = 0;
const chromiumCpu = async () => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;

await pool.run(
  async ({ cdp }: { page: Page; cdp: CDPSession }) => {
    const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = proto.send;
    proto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      if (!profiling || method !== 'Runtime.evaluate' || !/begin/.test(expr.slice(-400)))
        return send.call(this, method, params);
      await send.call(this, 'Performance.enable', { timeDomain: 'threadTicks' });
      await send.call(this, 'Profiler.enable');
      await send.call(this, 'Profiler.setSamplingInterval', { interval: 100 });
      const m0 = (await send.call(this, 'Performance.getMetrics')) as {
        metrics: Array<{ name: string; value: number }>;
      };
      await send.call(this, 'Profiler.start');
      const c0 = await chromiumCpu();
      const t0 = performance.now();
      const out = await send.call(this, method, params);
      beginWall += performance.now() - t0;
      beginCpu += (await chromiumCpu()) - c0;
      const { profile } = (await send.call(this, 'Profiler.stop')) as {
        profile: { nodes: Node[]; samples?: number[]; timeDeltas?: number[] };
      };
      const m1 = (await send.call(this, 'Performance.getMetrics')) as {
        metrics: Array<{ name: string; value: number }>;
      };
      const td = (m: typeof m0) => m.metrics.find((x) => x.name === 'TaskDuration')?.value ?? 0;
      task += (td(m1) - td(m0)) * 1000;
      const self = new Map<number, number>();
      (profile.samples ?? []).forEach((s, i) =>
        self.set(s, (self.get(s) ?? 0) + (profile.timeDeltas?.[i] ?? 0) / 1000),
      );
      const byId = new Map(profile.nodes.map((n) => [n.id, n]));
      const inclusive = (n: Node): number =>
        (self.get(n.id) ?? 0) + (n.children ?? []).reduce((s, c) => s + inclusive(byId.get(c)!), 0);
      for (const n of profile.nodes) {
        const fn = n.callFrame.functionName;
        if (expand.includes(fn)) {
          const ticks = (n.positionTicks ?? []).reduce((a, t) => a + t.ticks, 0);
          for (const t of n.positionTicks ?? []) {
            const key = `${fn} @line ${t.line}`;
            incl.set(key, (incl.get(key) ?? 0) + ((self.get(n.id) ?? 0) * t.ticks) / Math.max(1, ticks));
          }
        }
        if (!['prepare', 'layout', ...expand].includes(fn) && fn !== '(program)' && fn !== '(garbage collector)')
          continue;
        if (fn.startsWith('(')) {
          incl.set(fn, (incl.get(fn) ?? 0) + inclusive(n));
          continue;
        }
        incl.set(fn, (incl.get(fn) ?? 0) + inclusive(n));
        for (const c of n.children ?? []) {
          const child = byId.get(c)!;
          const key = `${fn} > ${child.callFrame.functionName || '(anon)'}:${child.callFrame.lineNumber + 1}`;
          incl.set(key, (incl.get(key) ?? 0) + inclusive(child));
        }
      }
      total += [...self.values()].reduce((a, b) => a + b, 0);
      return out;
    };
  },
  async () => ({}),
);

const request = reportDocument(chapters);
await renderHtmlDocument(pool, request); // warm-up
profiling = true;
for (let i = 0; i < runs; i++) await renderHtmlDocument(pool, request);
await pool.close();
console.log(
  `begin over ${runs} runs: wall ${(beginWall / runs).toFixed(0)} ms, task ${(task / runs).toFixed(0)} ms, ` +
    `Chromium CPU ${(beginCpu / runs).toFixed(0)} ms, profiled ${(total / runs).toFixed(0)} ms (per run)`,
);
for (const [k, ms] of [...incl].sort((a, b) => b[1] - a[1]).filter(([, ms]) => ms / runs >= 0.5))
  console.log(`${(ms / runs).toFixed(1).padStart(8)}  ${k}`);
