/**
 * Where a cold `castpress fill` of the W-9 spends its time, for bench/README.md:
 * `npx tsx bench/_cold-profile.ts [runs]` (not a row of `npm run bench`: the name starts with _).
 *  1. the JavaScript the process compiles, by package: the bundle files the fill loads (recorded
 *     by test/helpers/module-log.mjs) and what each holds (dist/bundle-inputs.json, esbuild's metafile);
 *  2. a V8 CPU profile of each run (node --cpu-prof), every sample put in the first category
 *     found walking from the stack's root: module compile/link, module top-level code, the
 *     freshness check, GC, the fill's own phases.
 * Shares are what to read: absolute figures move with the machine's load.
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { BUNDLE_INPUTS } from '../scripts/bundle.mjs';
import { prepareW9 } from './cold-start.js';
import { ensureBundle } from './startup.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const cli = path.join(root, 'bin', 'castpress.js');
const runs = Number(process.argv[2] ?? 5);

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

/** First match walking from the root of the stack wins: "compile" under "fill" stays "fill"'s lazy compile. */
const CATEGORIES: Array<[string, (f: ProfileNode['callFrame']) => boolean]> = [
  ['freshness check (bin/bundle.js)', (f) => f.functionName === 'freshBundle'],
  [
    'module compile + link',
    (f) =>
      /^(loadAndTranslate|_link|getModuleJobForImport|compileSourceTextModule|moduleStrategy)$/.test(f.functionName),
  ],
  [
    'module top-level code',
    (f) => f.functionName === 'evaluate' || (f.functionName === 'run' && f.url.includes('module_job')),
  ],
  ['PDF parse (pdf-lib)', (f) => /^(parseDocument|parseIndirectObjects?|loadPdf)$/.test(f.functionName)],
  ['fonts (fontkit tables)', (f) => /^(_decodeTable|_getTable)$/.test(f.functionName)],
  ['layout + drawing', (f) => /^(renderPlan|renderPage|layout|shape)$/.test(f.functionName)],
  ['PDF write', (f) => /^(save|commit|serialize)$/.test(f.functionName)],
  ['garbage collector', (f) => f.functionName === '(garbage collector)'],
  ['idle (waiting on I/O)', (f) => f.functionName === '(idle)'],
  [
    'node bootstrap',
    (f) => /^(prepareMainThreadExecution|prepareExecution|compileForInternalLoader)$/.test(f.functionName),
  ],
];

function categorise(profile: Profile, totals: Map<string, number>): number {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const memo = new Map<number, string>();
  const categoryOf = (id: number): string => {
    const known = memo.get(id);
    if (known) return known;
    const chain: ProfileNode[] = [];
    for (let c: number | undefined = id; c !== undefined; c = parent.get(c)) chain.push(byId.get(c)!);
    let category = 'other (fill, template reading, Node)';
    for (const n of chain.reverse()) {
      const hit = CATEGORIES.find(([, match]) => match(n.callFrame));
      if (hit) {
        category = hit[0];
        break;
      }
    }
    memo.set(id, category);
    return category;
  };
  let all = 0;
  profile.samples.forEach((id, i) => {
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    totals.set(categoryOf(id), (totals.get(categoryOf(id)) ?? 0) + ms);
    all += ms;
  });
  return all;
}

/** Which package (or src/ capability) each byte of the loaded bundle files comes from (dist/bundle-inputs.json). */
async function compiledByPackage(loaded: string[]): Promise<Array<[string, number]>> {
  const inputs = JSON.parse(await readFile(BUNDLE_INPUTS, 'utf8')) as Record<string, Record<string, number>>;
  const groups = new Map<string, number>();
  for (const file of loaded.map((m) => path.basename(m))) {
    for (const [input, bytes] of Object.entries(inputs[file] ?? {})) {
      const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.replace(/^src\/([^/]+).*/, 'src/$1');
      groups.set(pkg, (groups.get(pkg) ?? 0) + bytes);
    }
  }
  return [...groups].sort((a, b) => b[1] - a[1]);
}

/**
 * The ES-module bundle, whose chunks this script counts: on Node 20 the CLI otherwise runs the
 * CommonJS bundle with the code cache (bin/code-cache.js), which one module-log line cannot
 * break down and which --cpu-prof slows (the profiler logs each function the cache restores).
 */
const ES_MODULES = { CASTPRESS_CODE_CACHE: '0' };

ensureBundle();
const dir = await mkdtemp(path.join(tmpdir(), 'castpress-cold-profile-'));
try {
  await prepareW9(dir);
  const log = path.join(dir, 'modules.log');
  execFileSync(
    process.execPath,
    [
      '--import',
      pathToFileURL(path.join(root, 'test/helpers/module-log.mjs')).href,
      cli,
      'fill',
      'fw9.pdf',
      'data.json',
      '-o',
      'out.pdf',
    ],
    { cwd: dir, env: { ...process.env, ...ES_MODULES, CASTPRESS_MODULE_LOG: log }, stdio: 'ignore' },
  );
  const loaded = (await readFile(log, 'utf8')).split('\n').filter((m) => m.includes('/dist/bundle/'));
  const bytes = await compiledByPackage(loaded);
  const total = bytes.reduce((s, [, b]) => s + b, 0);
  console.log(`JavaScript a cold fill compiles: ${loaded.length} bundle files, ${(total / 1024).toFixed(0)} KiB`);
  for (const [pkg, b] of bytes.slice(0, 14)) console.log(`${(b / 1024).toFixed(0).padStart(8)} KiB  ${pkg}`);

  const profiles = path.join(dir, 'profiles');
  for (let i = 0; i < runs; i++)
    execFileSync(
      process.execPath,
      ['--cpu-prof', '--cpu-prof-dir', profiles, cli, 'fill', 'fw9.pdf', 'data.json', '-o', 'out.pdf'],
      { cwd: dir, env: { ...process.env, ...ES_MODULES }, stdio: 'ignore' },
    );
  const totals = new Map<string, number>();
  let all = 0;
  for (const f of await readdir(profiles))
    all += categorise(JSON.parse(await readFile(path.join(profiles, f), 'utf8')) as Profile, totals);
  console.log(
    `\nCPU profile of ${runs} runs (${(all / runs).toFixed(0)} ms sampled per run; load average ${loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')})`,
  );
  for (const [category, ms] of [...totals].sort((a, b) => b[1] - a[1]))
    console.log(`${(ms / runs).toFixed(0).padStart(8)} ms ${((100 * ms) / all).toFixed(1).padStart(5)} %  ${category}`);
} finally {
  await rm(dir, { recursive: true, force: true });
}
