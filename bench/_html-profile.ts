/**
 * Where an HTML render spends its time: `npx tsx bench/_html-profile.ts [chapters] [runs]` renders the
 * report of bench/html-report.ts (30 chapters: ~102 pages) and prints, per render, the prints
 * (`page.pdf()` calls: each is a full print), the in-page calls and their time, the rest of the wall
 * time (Node), and the Node CPU profile's heaviest functions (self time, V8's sampling profiler) over
 * all runs. Read the shares, not the absolute times: the machine is shared.
 */
import { Session } from 'node:inspector/promises';
import type { CDPSession, Page } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

interface Tally {
  prints: number;
  printMs: number;
  /** The last print's size and its structure elements (tagged PDF), and pages (body and overlay). */
  printBytes: number;
  structElems: number;
  printPages: number;
  calls: Map<string, { n: number; ms: number }>;
}

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 3);
const pool = new BrowserPool({ maxPages: 1 });
const emptyTally = (): Tally => ({
  prints: 0,
  printMs: 0,
  printBytes: 0,
  structElems: 0,
  printPages: 0,
  calls: new Map(),
});
let tally: Tally = emptyTally();

// The page and CDP session classes, from a job's own objects: their methods are wrapped to count.
await pool.run(
  async ({ page, cdp }: { page: Page; cdp: CDPSession }) => {
    const pageProto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = pageProto.pdf;
    pageProto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      const t = performance.now();
      let bytes: Buffer | undefined;
      try {
        return (bytes = await pdf.apply(this, args));
      } finally {
        tally.prints++;
        tally.printMs += performance.now() - t;
        if (bytes) {
          const text = bytes.toString('latin1');
          tally.printBytes = bytes.length;
          tally.structElems = text.match(/\/Type\s*\/StructElem\b/g)?.length ?? 0;
          tally.printPages = text.match(/\/Type\s*\/Page\b/g)?.length ?? 0;
        }
      }
    };
    const cdpProto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = cdpProto.send;
    cdpProto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const t = performance.now();
      try {
        return await send.call(this, method, params);
      } finally {
        const expr = (params as { expression?: string } | undefined)?.expression ?? '';
        const name = /__castpress\.(\w+)\(/.exec(expr.slice(-400))?.[1] ?? method;
        const c = tally.calls.get(name) ?? { n: 0, ms: 0 };
        c.n++;
        c.ms += performance.now() - t;
        tally.calls.set(name, c);
      }
    };
  },
  async () => ({}),
);

const request = { ...reportDocument(chapters), ...(process.env.UNTAGGED ? { tagged: false } : {}) };
const built = await buildDocument(request, { maxResourceBytes: 50_000_000 });
/** CPU time of the pool's Chromium processes so far, ms (/proc: clock ticks of 10 ms). */
const chromiumCpu = async () => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;
/** The same built document set and printed bare on the pool's page, untagged and tagged: wall and Chromium CPU. */
const bare = () =>
  pool.run(async ({ page }: { page: Page }) => {
    const times: number[] = [];
    for (const tagged of [false, true]) {
      const t = performance.now();
      const c = await chromiumCpu();
      await page.setContent(built, { waitUntil: 'load' });
      await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged });
      times.push(performance.now() - t, (await chromiumCpu()) - c);
    }
    return times;
  });
await renderHtmlDocument(pool, request); // warm-up
const session = new Session();
session.connect();
await session.post('Profiler.enable');
await session.post('Profiler.setSamplingInterval', { interval: 1000 });
await session.post('Profiler.start');
for (let i = 0; i < runs; i++) {
  tally = emptyTally();
  const t = performance.now();
  const cpu = process.cpuUsage();
  const chromium = await chromiumCpu();
  const out = await renderHtmlDocument(pool, request);
  const chromiumUsed = (await chromiumCpu()) - chromium;
  const wall = performance.now() - t;
  const used = process.cpuUsage(cpu);
  const inPage = [...tally.calls.values()].reduce((s, c) => s + c.ms, 0);
  console.log(
    `run ${i + 1}: ${out.pageCount} pages, ${wall.toFixed(0)} ms wall, Node CPU ${((used.user + used.system) / 1000).toFixed(0)} ms, Chromium CPU ${chromiumUsed} ms; ` +
      `${tally.prints} prints ${tally.printMs.toFixed(0)} ms; in-page ${inPage.toFixed(0)} ms; rest ${(wall - tally.printMs - inPage).toFixed(0)} ms`,
  );
  for (const [name, c] of tally.calls) console.log(`    ${name}: ${c.n}× ${c.ms.toFixed(0)} ms`);
  console.log(
    `    last print: ${tally.printPages} pages (body and overlay), ${tally.printBytes} bytes, ${tally.structElems} structure elements`,
  );
  const [untagged, untaggedCpu, tagged, taggedCpu] = (await bare()) as [number, number, number, number];
  console.log(
    `    bare setContent + print of the built document: ${untagged.toFixed(0)} ms (Chromium CPU ${untaggedCpu} ms), ` +
      `tagged ${tagged.toFixed(0)} ms (${taggedCpu} ms)`,
  );
}
const { profile } = await session.post('Profiler.stop');
await pool.close();

// Self time per function (and file), over all runs.
const dt = new Map<number, number>();
const samples = profile.samples ?? [];
const deltas = profile.timeDeltas ?? [];
for (let i = 0; i < samples.length; i++)
  dt.set(samples[i] as number, (dt.get(samples[i] as number) ?? 0) + (deltas[i] ?? 0));
const self = new Map<string, number>();
for (const node of profile.nodes) {
  const f = node.callFrame;
  const file = f.url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/');
  const key = `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  self.set(key, (self.get(key) ?? 0) + (dt.get(node.id) ?? 0) / 1000);
}
const byFile = new Map<string, number>();
for (const [k, ms] of self) {
  const file = k.split(' ').slice(1).join(' ').replace(/:\d+$/, '');
  byFile.set(file, (byFile.get(file) ?? 0) + ms);
}
console.log(`\nNode CPU profile, self ms by file over ${runs} runs:`);
for (const [k, ms] of [...byFile].sort((a, b) => b[1] - a[1]).slice(0, 25))
  console.log(`${ms.toFixed(0).padStart(8)}  ${k}`);
console.log(`\nNode CPU profile, self ms over ${runs} runs:`);
for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${ms.toFixed(0).padStart(8)}  ${k}`);
