/**
 * The smaller paged rows of bench/html-invoice.ts against the tagged anchor: each row's document rendered
 * by castpress (tagged, its default) and printed bare with `page.pdf({ tagged: true })` after `setContent`
 * of the same built document, alternating in one run; with the Node and Chromium CPU of each side and the
 * prints and in-page calls of one render. Several trees in one run compare old and new code alike:
 *
 *   npx tsx bench/_html-rows.ts [rounds] [tree ...]
 *
 * e.g. `git archive main | tar -x -C /tmp/old-x && ln -s /work/main/node_modules /tmp/old-x/node_modules`,
 * then `npx tsx bench/_html-rows.ts 9 /tmp/old-x .`. Each tree gets its own pool (one page), and its renders
 * are compared with the bare print on that page. Read the CPU ratios: the machine is shared, wall times are noisy.
 */
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { CDPSession, Page } from 'playwright-core';
import { CORPUS_ORIGIN, corpusResolver, readFixture } from './_html-corpus.js';

type Html = typeof import('../src/html/index.js');
type Doc = typeof import('../src/html/document.js');
type Request = Parameters<Html['renderHtml']>[1];
type Pool = InstanceType<Html['BrowserPool']>;

const here = path.dirname(fileURLToPath(import.meta.url));
const rounds = Number(process.argv[2] ?? 7);
const roots = (process.argv.length > 3 ? process.argv.slice(3) : [path.resolve(here, '..')]).map((r) =>
  path.resolve(r),
);

const origin = CORPUS_ORIGIN;
const resolver = corpusResolver;

/** The rows' requests, as bench/html-invoice.ts makes them. */
function rows(): Array<{ name: string; request: Request }> {
  const long = Array.from(
    { length: 600 },
    (_, i) => `<p>Paragraph ${i + 1} of a long report, enough text to wrap onto a second line now and then.</p>`,
  ).join('');
  const A4 = { width: '210mm', height: '297mm' };
  return [
    {
      name: 'invoice',
      request: {
        html: readFixture('anvil-invoice/invoice.html'),
        css: readFixture('anvil-invoice/invoice.css') + readFixture('anvil-invoice/invoice-pdf.css'),
        title: 'Invoice',
      },
    },
    {
      name: 'statement',
      request: {
        html: readFixture('anvil-statement/statement.html'),
        css: readFixture('anvil-statement/statement.css') + readFixture('anvil-statement/statement-pdf.css'),
      },
    },
    {
      name: '15p counter(page)',
      request: {
        html: `<div class="pn"></div>${long}<div class="pn"></div>`,
        css: '.pn::after { content: "page " counter(page) " of " counter(pages); }',
      },
    },
    { name: '8p plain', request: { html: `<h1>Plain</h1>${long.slice(0, 20_000)}` } },
    {
      name: 'WP report',
      request: {
        html: readFixture('weasyprint-report/report.html'),
        baseUrl: `${origin}weasyprint-report/report.html`,
        page: A4,
      },
    },
    {
      name: 'WP invoice',
      request: {
        html: readFixture('weasyprint-invoice/invoice.html'),
        baseUrl: `${origin}weasyprint-invoice/invoice.html`,
        page: { ...A4, margin: '75px' },
      },
    },
  ];
}

interface Side {
  label: string;
  run: () => Promise<void>;
  pool: Pool;
}
interface Sum {
  wall: number[];
  print: number[];
  set: number[];
  /** Wall time outside setContent, prints and in-page calls: Node's own work (build, parse, write). */
  rest: number[];
  call: number[];
  node: number;
  chromium: number;
}

let prints = 0;
/** Time in prints and in in-page calls of the render being measured. */
let printMs = 0;
let setMs = 0;
let callMs = 0;
const calls = new Map<string, { n: number; ms: number }>();
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const cpuTicks = async (pool: Pool) => (await pool.processes()).reduce((n, p) => n + p.cpuTicks, 0) * 10;

const trees = await Promise.all(
  roots.map(async (root) => ({
    root,
    html: (await import(pathToFileURL(path.join(root, 'src/html/index.ts')).href)) as Html,
    doc: (await import(pathToFileURL(path.join(root, 'src/html/document.ts')).href)) as Doc,
  })),
);
const pools = trees.map((t) => new t.html.BrowserPool({ maxPages: 1, resolver }));
const first = pools[0] as Pool;
// Count prints and in-page calls: Playwright's page and CDP session classes are shared by every tree.
await first.run(async ({ page, cdp }: { page: Page; cdp: CDPSession }) => {
  const pageProto = Object.getPrototypeOf(page) as { pdf: Page['pdf']; setContent: Page['setContent'] };
  const pdf = pageProto.pdf;
  const setContent = pageProto.setContent;
  pageProto.setContent = async function (this: Page, ...args: Parameters<Page['setContent']>) {
    const t = performance.now();
    try {
      return await setContent.apply(this, args);
    } finally {
      setMs += performance.now() - t;
    }
  };
  pageProto.pdf = async function (this: Page, ...args: Parameters<Page['pdf']>) {
    prints++;
    const t = performance.now();
    try {
      return await pdf.apply(this, args);
    } finally {
      printMs += performance.now() - t;
    }
  };
  const cdpProto = Object.getPrototypeOf(cdp) as { send: (m: string, p?: unknown) => Promise<unknown> };
  const send = cdpProto.send;
  cdpProto.send = function (this: CDPSession, method: string, params?: unknown) {
    const expr = (params as { expression?: string } | undefined)?.expression ?? '';
    const name = /__castpress\.(\w+)\(/.exec(expr.slice(-400))?.[1] ?? method;
    const c = calls.get(name) ?? { n: 0, ms: 0 };
    calls.set(name, c);
    c.n++;
    const t = performance.now();
    return send.call(this, method, params).finally(() => {
      c.ms += performance.now() - t;
      callMs += performance.now() - t;
    });
  };
});

try {
  // HTML_ROWS=report,invoice: only the rows whose name contains one of these (case-insensitive).
  const only = (process.env.HTML_ROWS ?? '').toLowerCase().split(',').filter(Boolean);
  for (const row of rows().filter((r) => only.length === 0 || only.some((o) => r.name.toLowerCase().includes(o)))) {
    const built = await (trees[0] as (typeof trees)[number]).doc.buildDocument(row.request, {
      resolver,
      maxResourceBytes: 50_000_000,
    });
    // Each tree's renders and its own anchor on the same pool (the same browser, page and caches).
    const bareOn = (pool: Pool) => () =>
      pool.run(async ({ page }: { page: Page }) => {
        await page.setContent(built, { waitUntil: 'load' });
        await page.pdf({ preferCSSPageSize: true, printBackground: true, tagged: true });
      });
    const sides: Side[] = trees.flatMap((t, i) => {
      const pool = pools[i] as Pool;
      const label = path.basename(t.root) || t.root;
      return [
        { label: `${label}: bare`, pool, run: bareOn(pool) },
        { label, pool, run: async () => void (await t.html.renderHtml(pool, row.request)) },
      ];
    });
    const sums: Sum[] = sides.map(() => ({ wall: [], print: [], set: [], call: [], rest: [], node: 0, chromium: 0 }));
    const counts: string[] = sides.map(() => '');
    for (const s of sides) await s.run(); // warm-up
    for (let r = 0; r < rounds; r++) {
      for (let k = 0; k < sides.length; k++) {
        const i = (k + r) % sides.length;
        const s = sides[i] as Side;
        const sum = sums[i] as Sum;
        prints = 0;
        printMs = 0;
        setMs = 0;
        callMs = 0;
        calls.clear();
        const c = await cpuTicks(s.pool);
        const cpu = process.cpuUsage();
        const t = performance.now();
        await s.run();
        sum.wall.push(performance.now() - t);
        sum.print.push(printMs);
        sum.set.push(setMs);
        sum.rest.push((sum.wall[sum.wall.length - 1] as number) - setMs - printMs - callMs);
        sum.call.push(callMs);
        const used = process.cpuUsage(cpu);
        sum.node += (used.user + used.system) / 1000;
        sum.chromium += (await cpuTicks(s.pool)) - c;
        counts[i] = `${prints} prints, ${[...calls].map(([n, c]) => `${n}×${c.n} ${c.ms.toFixed(0)} ms`).join(', ')}`;
      }
    }
    console.log(
      `\n${row.name} (${rounds} rounds; wall: median, CPU: mean per render; ratios to the tree's own bare print)`,
    );
    sides.forEach((s, i) => {
      const sum = sums[i] as Sum;
      const anchor = sums[i - (i % 2)] as Sum;
      const anchorCpu = (anchor.node + anchor.chromium) / rounds;
      const wall = median(sum.wall);
      const node = sum.node / rounds;
      const chromium = sum.chromium / rounds;
      console.log(
        `  ${s.label.padEnd(18)} wall ${wall.toFixed(0).padStart(5)} ms (${(wall / median(anchor.wall)).toFixed(2)}x)` +
          `  CPU node ${node.toFixed(0).padStart(4)} + chromium ${chromium.toFixed(0).padStart(4)} = ${(node + chromium).toFixed(0).padStart(5)} ms` +
          ` (${((node + chromium) / anchorCpu).toFixed(2)}x)  setContent ${median(sum.set).toFixed(0)} print ${median(sum.print).toFixed(0)} in-page ${median(sum.call).toFixed(0)} rest ${median(sum.rest).toFixed(0)} ms;` +
          ` ${counts[i]}`,
      );
    });
  }
} finally {
  await Promise.all(pools.map((p) => p.close()));
}
