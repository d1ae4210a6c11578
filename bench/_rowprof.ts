/**
 * Where the in-page code spends Chromium's time: `npx tsx bench/_html-inpage-profile.ts [chapters] [runs]`
 * renders the report of bench/html-report.ts and prints, per in-page call (`begin`, `layout`...), its wall
 * time and the renderer's counted work (DevTools Performance metrics: layouts, style recalculations and
 * their durations, script time), then the heaviest in-page functions of `begin` (DevTools Profiler, self
 * time, over all runs after the warm-up).
 */
import type { CDPSession, Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { readFileSync } from 'node:fs';
const fx = (p: string) => readFileSync('test/fixtures/html/' + p, 'utf8');
const long = Array.from({ length: 600 }, (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`).join('');
const which = process.argv[2];
const resolver = async (url: string) => { const file = 'test/fixtures/html' + new URL(url).pathname; return { body: new Uint8Array(readFileSync(file)), contentType: file.endsWith('.css') ? 'text/css' : file.endsWith('.ttf') ? 'font/ttf' : 'image/svg+xml' }; };
const A4 = { width: '210mm', height: '297mm' };
const reqs: Record<string, any> = {
  counter: { html: `<div class="pn"></div>${long}<div class="pn"></div>`, css: '.pn::after { content: "page " counter(page) " of " counter(pages); }' },
  report: { html: fx('weasyprint-report/report.html'), baseUrl: 'https://corpus.test/weasyprint-report/report.html', page: A4 },
  statement: { html: fx('anvil-statement/statement.html'), css: fx('anvil-statement/statement.css') + fx('anvil-statement/statement-pdf.css') },
  wpinvoice: { html: fx('weasyprint-invoice/invoice.html'), baseUrl: 'https://corpus.test/weasyprint-invoice/invoice.html', page: { ...A4, margin: '75px' } },
};

const runs = Number(process.argv[3] ?? 3);
const pool = new BrowserPool({ maxPages: 1, resolver });
type Metrics = Record<string, number>;
const KEYS = [
  'LayoutCount',
  'RecalcStyleCount',
  'LayoutDuration',
  'RecalcStyleDuration',
  'ScriptDuration',
  'TaskDuration',
];
let rows: Array<{ name: string; ms: number; d: Metrics }> = [];
let profiling = false;
const self = new Map<string, number>();
/** Self time of the DOM's layout-reading calls by the in-page function that made them. */
const reads = new Map<string, number>();
const LAYOUT_READS =
  /^(getBoundingClientRect|getClientRects|getComputedStyle|getPropertyValue|offset\w+|client\w+|scroll\w+)$/;

const metrics = async (cdp: CDPSession, send: (m: string, p?: unknown) => Promise<unknown>): Promise<Metrics> => {
  const r = (await send.call(cdp, 'Performance.getMetrics')) as { metrics: Array<{ name: string; value: number }> };
  return Object.fromEntries(r.metrics.filter((m) => KEYS.includes(m.name)).map((m) => [m.name, m.value]));
};

await pool.run(
  async ({ cdp }: { page: Page; cdp: CDPSession }) => {
    const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = proto.send;
    await send.call(cdp, 'Performance.enable', { timeDomain: 'threadTicks' });
    await send.call(cdp, 'Profiler.enable');
    await send.call(cdp, 'Profiler.setSamplingInterval', { interval: 200 });
    proto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      const name = method === 'Runtime.evaluate' ? /__castpress\w*\.?(\w*)\(/.exec(expr.slice(-400))?.[0] : undefined;
      if (!name) return send.call(this, method, params);
      const call = /begin/.test(expr.slice(-400)) ? 'begin' : (/\.(\w+)\(/.exec(name)?.[1] ?? name);
      const before = await metrics(this, send);
      if (profiling && call === 'begin') await send.call(this, 'Profiler.start');
      const t = performance.now();
      const out = await send.call(this, method, params);
      const ms = performance.now() - t;
      if (profiling && call === 'begin') {
        const { profile } = (await send.call(this, 'Profiler.stop')) as {
          profile: {
            nodes: Array<{
              id: number;
              children?: number[];
              callFrame: { functionName: string; lineNumber: number; url: string };
            }>;
            samples?: number[];
            timeDeltas?: number[];
          };
        };
        const dt = new Map<number, number>();
        (profile.samples ?? []).forEach((s, i) => dt.set(s, (dt.get(s) ?? 0) + (profile.timeDeltas?.[i] ?? 0)));
        const parent = new Map<number, (typeof profile.nodes)[number]>();
        for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n);
        for (const n of profile.nodes) {
          if (!LAYOUT_READS.test(n.callFrame.functionName)) continue;
          const p = parent.get(n.id)?.callFrame;
          const key = `${n.callFrame.functionName} from ${p?.functionName || '(anonymous)'}:${(p?.lineNumber ?? 0) + 1}`;
          reads.set(key, (reads.get(key) ?? 0) + (dt.get(n.id) ?? 0) / 1000);
        }
        for (const n of profile.nodes) {
          const key = `${n.callFrame.functionName || '(anonymous)'}:${n.callFrame.lineNumber + 1}`;
          self.set(key, (self.get(key) ?? 0) + (dt.get(n.id) ?? 0) / 1000);
        }
      }
      const after = await metrics(this, send);
      rows.push({ name: call, ms, d: Object.fromEntries(KEYS.map((k) => [k, (after[k] ?? 0) - (before[k] ?? 0)])) });
      return out;
    };
  },
  async () => ({}),
);

const request = reqs[which as string];
await renderHtmlDocument(pool, request); // warm-up
profiling = true;
for (let i = 0; i < runs; i++) {
  rows = [];
  const out = await renderHtmlDocument(pool, request);
  console.log(`run ${i + 1}: ${out.pageCount} pages`);
  for (const r of rows)
    console.log(
      `    ${r.name}: ${r.ms.toFixed(0)} ms wall; layouts ${r.d.LayoutCount}, style recalcs ${r.d.RecalcStyleCount}; ` +
        `layout ${(r.d.LayoutDuration! * 1000).toFixed(0)} ms, style ${(r.d.RecalcStyleDuration! * 1000).toFixed(0)} ms, ` +
        `script ${(r.d.ScriptDuration! * 1000).toFixed(0)} ms, task ${(r.d.TaskDuration! * 1000).toFixed(0)} ms`,
    );
}
await pool.close();
console.log(`\nIn-page profile of begin, self ms over ${runs} runs:`);
for (const [k, ms] of [...self].sort((a, b) => b[1] - a[1]).slice(0, 30))
  console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
console.log(`\nLayout reads in begin by caller, self ms over ${runs} runs:`);
for (const [k, ms] of [...reads].sort((a, b) => b[1] - a[1]).slice(0, 20))
  console.log(`${ms.toFixed(1).padStart(8)}  ${k}`);
