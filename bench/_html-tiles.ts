/**
 * The overlay as tiles of large sheets against the overlay as one page per body page, alternating in one
 * run: `npx tsx bench/_html-tiles.ts [chapters] [rounds] [oldTree]` renders the report of
 * bench/html-report.ts (30 chapters: 96 pages) with this tree and with `oldTree` (default /tmp/old-tiles,
 * made with `git archive main | tar -x -C /tmp/old-tiles` and node_modules linked), each on its own pool, in
 * alternating order, and prints per tree the medians of wall, Node CPU (process.cpuUsage), Chromium CPU
 * (/proc of the pool's tree), print ms and the print's pages, then a bare tagged print of the same
 * document. The machine is shared: read CPU and ratios taken in the same run.
 */
import type { Page } from 'playwright-core';
import { buildDocument } from '../src/html/document.js';
import * as fresh from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const rounds = Number(process.argv[3] ?? 6);
const oldTree = process.argv[4] ?? '/tmp/old-tiles';
const stale = (await import(`${oldTree}/src/html/index.ts`)) as typeof fresh;

interface Row {
  wall: number;
  node: number;
  chromium: number;
  printMs: number;
  printPages: number;
}
let printMs = 0;
let printPages = 0;
const trees = [
  { name: 'old (page per body page)', lib: stale, pool: new stale.BrowserPool({ maxPages: 1 }), rows: [] as Row[] },
  { name: 'new (tiles of sheets)', lib: fresh, pool: new fresh.BrowserPool({ maxPages: 1 }), rows: [] as Row[] },
];
// Both trees share playwright-core (one node_modules): one hook on the page class counts either's prints.
await trees[1]!.pool.run(
  async ({ page }: { page: Page }) => {
    const proto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = proto.pdf;
    proto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      const t = performance.now();
      const bytes = await pdf.apply(this, args);
      printMs += performance.now() - t;
      printPages = bytes.toString('latin1').match(/\/Type\s*\/Page\b/g)?.length ?? 0;
      return bytes;
    };
  },
  async () => ({}),
);
const request = reportDocument(chapters);
const cpuOf = async (pool: fresh.BrowserPool) => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;
for (const t of trees) await t.lib.renderHtmlDocument(t.pool as never, request); // warm-up
for (let r = 0; r < rounds; r++) {
  for (const t of r % 2 ? [...trees].reverse() : trees) {
    printMs = 0;
    const c0 = await cpuOf(t.pool as fresh.BrowserPool);
    const n0 = process.cpuUsage();
    const w0 = performance.now();
    const out = await t.lib.renderHtmlDocument(t.pool as never, request);
    const wall = performance.now() - w0;
    const n = process.cpuUsage(n0);
    const chromium = (await cpuOf(t.pool as fresh.BrowserPool)) - c0;
    t.rows.push({ wall, node: (n.user + n.system) / 1000, chromium, printMs, printPages });
    if (r === 0) console.log(`${t.name}: ${out.pageCount} pages`);
  }
}
const built = await buildDocument(request, { maxResourceBytes: 50_000_000 });
const bare: number[] = [];
for (let r = 0; r < rounds; r++)
  bare.push(
    await trees[1]!.pool.run(async ({ page }: { page: Page }) => {
      const t = performance.now();
      await page.setContent(built, { waitUntil: 'load' });
      await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true });
      return performance.now() - t;
    }),
  );
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const t of trees) {
  const m = (k: keyof Row) => median(t.rows.map((x) => x[k])).toFixed(0);
  console.log(
    `${t.name}: median of ${rounds}: wall ${m('wall')} ms, Node CPU ${m('node')} ms, Chromium CPU ${m('chromium')} ms, ` +
      `print ${m('printMs')} ms of ${m('printPages')} pages`,
  );
  console.log(
    `    walls: ${t.rows.map((x) => x.wall.toFixed(0)).join(' ')}; Chromium CPU: ${t.rows.map((x) => x.chromium).join(' ')}`,
  );
}
console.log(
  `bare tagged setContent + print: median ${median(bare).toFixed(0)} ms (${bare.map((x) => x.toFixed(0)).join(' ')})`,
);
for (const t of trees) await t.pool.close();
