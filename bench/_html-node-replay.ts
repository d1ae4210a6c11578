/**
 * Node's side of an HTML render, replayed without Chromium: `npx tsx bench/_html-node-replay.ts [chapters]
 * [runs] [old-tree]` renders the report of bench/html-report.ts once (30 chapters: 96 pages and 96 overlay
 * pages), keeps Chromium's raw print and the in-page `begin` result, then runs the steps render.ts takes
 * after the print on an overlay document (open, destinations, artifacts, overlay merge, finish, clean
 * write) `runs` times on those bytes, in this tree and, given a path to another checkout (`git archive
 * main | tar -x -C /tmp/old-x`, with a node_modules link), in that one too, alternating in one process.
 * Prints Node CPU per phase (process.cpuUsage, medians), objects parsed and written, and whether each
 * tree's output equals the real render's bytes (this tree) and the other tree's (same document).
 */
import { readFileSync } from 'node:fs';
import { PDFName } from '@cantoo/pdf-lib';
import type { CDPSession, Page } from 'playwright-core';
import { BrowserPool, renderHtmlDocument } from '../src/html/index.js';
import { reportDocument, REPORT_CHAPTERS } from './html-report.js';

const chapters = Number(process.argv[2] ?? REPORT_CHAPTERS);
const runs = Number(process.argv[3] ?? 8);
const oldTree = process.argv[4];
// UNTAGGED=1: the render and the replay with tagged: false (no artifact marks; the overlay drawn without them).
const tagged = !process.env.UNTAGGED;

interface Captured {
  print?: Uint8Array;
  begin?: unknown;
  margins?: unknown;
}
const captured: Captured = {};
const pool = new BrowserPool({ maxPages: 1 });
await pool.run(
  async ({ page, cdp }: { page: Page; cdp: CDPSession }) => {
    const pageProto = Object.getPrototypeOf(page) as { pdf: Page['pdf'] };
    const pdf = pageProto.pdf;
    pageProto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
      const bytes = await pdf.apply(this, args);
      captured.print = new Uint8Array(bytes);
      return bytes;
    };
    const cdpProto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
    const send = cdpProto.send;
    cdpProto.send = async function (this: CDPSession, method: string, params?: unknown) {
      const r = await send.call(this, method, params);
      const expr = (params as { expression?: string } | undefined)?.expression ?? '';
      const value = (r as { result?: { value?: unknown } }).result?.value;
      if (/__castpress\.begin\(/.test(expr.slice(-400))) captured.begin = value;
      if (expr.startsWith('window.__castpress.resolvePages(')) captured.margins = value;
      return r;
    };
  },
  async () => ({}),
);
const rendered = await renderHtmlDocument(pool, { ...reportDocument(chapters), tagged });
await pool.close();
const print = captured.print!;
const begin = captured.begin as { prepared: Record<string, unknown> };
if (!print || !begin || !('prepared' in begin)) throw new Error('nothing captured');

/** CPU time of this process's main thread so far, ms (Linux schedstat, in ns: zlib's threads left out). */
const mainThreadMs = (): number =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
interface Margin {
  top: number;
  left: number;
}
interface Mark {
  id: string;
  level: number;
  label: string;
  open: boolean;
}
type Replay = (
  pdf: Uint8Array,
  info: Record<string, unknown>,
  margins: Margin[],
) => Promise<{ out: Uint8Array; phases: Record<string, number> }>;
const replayOf = async (root: string): Promise<Replay> => {
  const kernel = (await import(`${root}/src/pdf/index.ts`)) as typeof import('../src/pdf/index.js');
  const dests = (await import(`${root}/src/html/post/dests.ts`)) as typeof import('../src/html/post/dests.js');
  const state = (await import(
    `${root}/src/html/post/print-state.ts`
  )) as typeof import('../src/html/post/print-state.js');
  const overlay = (await import(`${root}/src/html/post/overlay.ts`)) as typeof import('../src/html/post/overlay.js');
  const finish = (await import(`${root}/src/html/post/finish.ts`)) as typeof import('../src/html/post/finish.js');
  const outline = (await import(`${root}/src/html/post/outline.ts`)) as typeof import('../src/html/post/outline.js');
  return async (pdf, info, margins) => {
    const phases: Record<string, number> = {};
    let t = process.cpuUsage();
    let w = performance.now();
    let m = mainThreadMs();
    // Node CPU (every thread of the process, zlib's included) and wall of each phase.
    const lap = (name: string): void => {
      const u = process.cpuUsage(t);
      phases[name] = (u.user + u.system) / 1000;
      phases[`${name} wall`] = performance.now() - w;
      phases[`${name} main`] = mainThreadMs() - m;
      t = process.cpuUsage();
      w = performance.now();
      m = mainThreadMs();
    };
    const base = await kernel.openForUpdate(pdf, 'html');
    lap('open');
    const found = dests.readDests(base.doc);
    const actual = state.observe(base.doc, found, info as never);
    // begin's margins when the print has the guessed pages (render.ts's marginsOf), else the captured call's.
    margins = state.guessedMargins(info as never, actual.names) ?? margins;
    lap('dests');
    const body = base.doc.getPages().slice(0, actual.total);
    if (tagged) await kernel.markArtifacts(base.doc, body, new Map());
    else kernel.recolourPages(base.doc, body, new Map());
    lap('artifacts');
    overlay.mergeOverlay(
      base.doc,
      actual.total,
      info.overlayPages as number[],
      info.overlayGrid as never,
      0,
      new Map(),
      tagged,
    );
    // render.ts's placeBookmarks and placeAuthorDests, for Chromium's content-relative destinations.
    const bookmarks = (info.bookmarks as Mark[]).flatMap((b) => {
      const d = found.get(b.id);
      return d
        ? [
            {
              level: b.level,
              label: b.label,
              open: b.open,
              page: d.page,
              top: d.y - (margins[d.page]?.top ?? 0) * 0.75,
            },
          ]
        : [];
    });
    dests.shiftDests(
      base.doc,
      (n) => n.startsWith('__fs_'),
      (page) => {
        const m = margins[page];
        return m ? { dx: m.left * 0.75, dy: -m.top * 0.75 } : { dx: 0, dy: 0 };
      },
    );
    dests.removeDests(base.doc, (n) => n.startsWith('__fs_'));
    if (bookmarks.length > 0) outline.addOutline(base.doc, bookmarks);
    lap('overlay');
    finish.finishDocument(base.doc, { tagged }, info.meta as never, pdf, []);
    if (process.env.KINDS) {
      const ctx = base.doc.context;
      const enumerate = ctx.enumerateIndirectObjects.bind(ctx);
      ctx.enumerateIndirectObjects = () => {
        const all = enumerate();
        const kinds = new Map<string, number>();
        for (const [, o] of all) {
          const d = (o as { dict?: unknown }).dict ?? o;
          const get = (d as { get?: (k: unknown) => unknown }).get;
          const type = get
            ? String(get.call(d, PDFName.of('Type')) ?? '') + String(get.call(d, PDFName.of('S')) ?? '')
            : '';
          const k = `${o.constructor.name} ${type}`;
          kinds.set(k, (kinds.get(k) ?? 0) + 1);
        }
        console.log([...kinds].sort((a, b) => b[1] - a[1]));
        return all;
      };
    }
    const out = await kernel.rewritePdf(base.doc, { copyUnread: true });
    lap('write');
    return { out, phases };
  };
};

const trees: Array<[string, Replay]> = [['new', await replayOf(new URL('..', import.meta.url).pathname)]];
if (oldTree) trees.push(['old', await replayOf(oldTree)]);
// PROFILE=1: V8's sampling profiler over this tree's replays only, self and total time per function.
if (process.env.PROFILE) {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  for (let i = 0; i < runs; i++) await trees[0]![1](print, begin.prepared, captured.margins as Margin[]);
  const { profile } = await session.post('Profiler.stop');
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfUs = new Map<number, number>();
  const samples = profile.samples ?? [];
  const deltas = profile.timeDeltas ?? [];
  for (let i = 0; i < samples.length; i++)
    selfUs.set(samples[i]!, (selfUs.get(samples[i]!) ?? 0) + (deltas[i + 1] ?? 0));
  const key = (id: number): string => {
    const f = byId.get(id)!.callFrame;
    return `${f.functionName || '(anon)'} ${f.url.replace(/^.*node_modules\//, '').replace(/^.*\/src\//, 'src/')}:${f.lineNumber + 1}`;
  };
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  for (const [id, us] of selfUs) {
    self.set(key(id), (self.get(key(id)) ?? 0) + us);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const k = key(at);
      if (seen.has(k)) continue;
      seen.add(k);
      total.set(k, (total.get(k) ?? 0) + us);
    }
  }
  const show = (m: Map<string, number>, n: number): void => {
    for (const [k, us] of [...m].sort((a, b) => b[1] - a[1]).slice(0, n))
      console.log(`${(us / 1000 / runs).toFixed(1).padStart(8)}  ${k}`);
  };
  for (const name of (process.env.CALLERS ?? '').split(',').filter(Boolean)) {
    const callers = new Map<string, number>();
    for (const [id, us] of selfUs) {
      if (!key(id).startsWith(`${name} `)) continue;
      let chain = '';
      for (let at = parent.get(id), k = 0; at !== undefined && k < 4; at = parent.get(at), k++)
        chain += ` < ${key(at)}`;
      callers.set(chain, (callers.get(chain) ?? 0) + us);
    }
    console.log(`callers of ${name}:`);
    show(callers, 8);
  }
  console.log(`self ms per replay:`);
  show(self, 40);
  console.log(`total ms per replay:`);
  show(total, 70);
  process.exit(0);
}
const outs = new Map<string, Uint8Array>();
const figures = new Map<string, Array<Record<string, number>>>();
for (let i = 0; i <= runs; i++)
  for (const [name, replay] of i % 2 ? trees : [...trees].reverse()) {
    const cpu = process.cpuUsage();
    const main = mainThreadMs();
    const { out, phases } = await replay(print, begin.prepared, captured.margins as Margin[]);
    const u = process.cpuUsage(cpu);
    phases.all = (u.user + u.system) / 1000;
    phases['all main'] = mainThreadMs() - main;
    if (i > 0) figures.set(name, [...(figures.get(name) ?? []), phases]);
    outs.set(name, out);
  }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const same = (a?: Uint8Array, b?: Uint8Array): boolean => !!a && !!b && Buffer.compare(a, b) === 0;
console.log(`print ${print.length} bytes; render output ${rendered.pdf.length} bytes, ${rendered.pageCount} pages`);
for (const [name, rows] of figures) {
  const keys = Object.keys(rows[0]!);
  console.log(
    `${name}: ${keys.map((k) => `${k} ${median(rows.map((r) => r[k]!)).toFixed(1)}`).join(', ')} ms (Node CPU, median of ${rows.length}); ` +
      `output ${outs.get(name)!.length} bytes, same as the render's: ${same(outs.get(name), rendered.pdf)}`,
  );
}
if (process.env.SAVE) {
  const { writeFileSync } = await import('node:fs');
  writeFileSync(`${process.env.SAVE}-print.pdf`, print);
  writeFileSync(`${process.env.SAVE}-out.pdf`, outs.get('new')!);
  if (outs.has('old')) writeFileSync(`${process.env.SAVE}-old.pdf`, outs.get('old')!);
}
if (oldTree) console.log(`old and new outputs identical: ${same(outs.get('old'), outs.get('new'))}`);
