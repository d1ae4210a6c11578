/**
 * Whole renders of the report, for old-vs-new runs of the Node side: `npx tsx bench/_html-node-ab.ts
 * [tree] [chapters] [renders]` renders bench/html-report.ts's report (30 chapters: 96 pages) with the
 * src of `tree` (default this checkout; an old one from `git archive main | tar -x -C /tmp/old-x`, with a
 * node_modules link), one warm-up then `renders` renders, no profiler, and prints the medians of the
 * wall, Node CPU (process.cpuUsage: every thread, zlib's and the GC's included), Node's main thread
 * (Linux schedstat) and Chromium CPU (/proc of the pool's processes) per render. Run two trees one after
 * the other, alternating, several times: the machine is shared. UNTAGGED=1 renders with tagged: false.
 */
import { readFileSync } from 'node:fs';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const root = process.argv[2] ?? new URL('..', import.meta.url).pathname;
const chapters = Number(process.argv[3] ?? REPORT_CHAPTERS);
const renders = Number(process.argv[4] ?? 5);
const html = (await import(`${root}/src/html/index.ts`)) as typeof import('../src/html/index.js');

/** CPU time of this process's main thread so far, ms (schedstat, ns). */
const mainThreadMs = (): number =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
const pool = new html.BrowserPool({ maxPages: 1 });
const chromiumCpu = async (): Promise<number> => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;
// UNTAGGED=1: the render with tagged: false.
const request = { ...reportDocument(chapters), ...(process.env.UNTAGGED ? { tagged: false } : {}) };
await html.renderHtmlDocument(pool, request);
const rows: number[][] = [];
let bytes = 0;
for (let i = 0; i < renders; i++) {
  const chromium = await chromiumCpu();
  const main = mainThreadMs();
  const cpu = process.cpuUsage();
  const t = performance.now();
  const out = await html.renderHtmlDocument(pool, request);
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  rows.push([wall, (used.user + used.system) / 1000, mainThreadMs() - main, (await chromiumCpu()) - chromium]);
  bytes = out.pdf.length;
}
await pool.close();
const median = (k: number): string => [...rows.map((r) => r[k]!)].sort((a, b) => a - b)[rows.length >> 1]!.toFixed(0);
console.log(
  `${root}: ${renders} renders of ${bytes} bytes; medians: wall ${median(0)} ms, Node CPU ${median(1)} ms, ` +
    `Node main thread ${median(2)} ms, Chromium CPU ${median(3)} ms`,
);
