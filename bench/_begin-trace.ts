/**
 * Which in-page lines make `begin` lay out or recalculate styles: `npx tsx bench/_begin-trace.ts [chapters] [runs]`
 * renders the report of bench/html-report.ts, traces each `begin` (DevTools timeline) and prints, per run,
 * every Layout and UpdateLayoutTree event in order with its duration and the in-page stack that forced it
 * (bundle line numbers of generated/inpage.js).
 */
import type { CDPSession, Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 1);
const pool = new BrowserPool({ maxPages: 1 });
interface Frame {
  functionName: string;
  lineNumber: number;
}
interface TraceEvent {
  name: string;
  ph: string;
  ts: number;
  dur?: number;
  tdur?: number;
  args?: { beginData?: { stackTrace?: Frame[] }; data?: { stackTrace?: Frame[] } };
}
let tracing = false;
const events: TraceEvent[] = [];

await pool.run(
  async ({ cdp }: { page: Page; cdp: CDPSession }) => {
    const proto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = proto.send;
    proto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      if (!tracing || method !== 'Runtime.evaluate' || !/begin/.test(expr.slice(-400)))
        return send.call(this, method, params);
      const got: TraceEvent[] = [];
      const done = new Promise<void>((resolve) => {
        this.on('Tracing.dataCollected', (e) => got.push(...(e.value as unknown[] as TraceEvent[])));
        this.once('Tracing.tracingComplete', () => resolve());
      });
      await send.call(this, 'Tracing.start', {
        categories:
          'devtools.timeline,disabled-by-default-devtools.timeline,disabled-by-default-devtools.timeline.stack',
        transferMode: 'ReportEvents',
      });
      const out = await send.call(this, method, params);
      await send.call(this, 'Tracing.end');
      await done;
      events.push(...got);
      return out;
    };
  },
  async () => ({}),
);

const request = reportDocument(chapters);
await renderHtmlDocument(pool, request); // warm-up
for (let i = 0; i < runs; i++) {
  events.length = 0;
  tracing = true;
  await renderHtmlDocument(pool, request);
  tracing = false;
  console.log(`run ${i + 1}`);
  const stackOf = (e: TraceEvent) =>
    (e.args?.beginData?.stackTrace ?? e.args?.data?.stackTrace ?? [])
      .slice(0, 4)
      .map((f) => `${f.functionName || '(anon)'}:${f.lineNumber + 1}`)
      .join(' < ');
  const all = process.argv[4] === 'all';
  const shown = events.filter(
    (e) => e.ph === 'X' && (all ? (e.dur ?? 0) >= 500 : e.name === 'Layout' || e.name === 'UpdateLayoutTree'),
  );
  for (const e of shown.sort((a, b) => a.ts - b.ts))
    console.log(
      `  ${(((e.ts - shown[0]!.ts) / 1000).toFixed(1) + ' ms').padStart(9)} ${e.name.padEnd(16)} ${((e.dur ?? 0) / 1000).toFixed(1).padStart(6)} ms  ${stackOf(e)}  (thread ${((e.tdur ?? 0) / 1000).toFixed(1)} ms)${e.name === 'UpdateLayoutTree' ? ' elements ' + JSON.stringify((e.args as { elementCount?: number } | undefined)?.elementCount) : ''}`,
    );
}
await pool.close();
