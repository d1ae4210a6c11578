/**
 * What a castpress process loads at start, counted rather than timed: each child
 * runs with test/helpers/module-log.mjs preloaded, which lists every module it loads. A
 * process that fills one PDF loads the fill command's chunks of the bundle and nothing from
 * node_modules, and those chunks hold no code of what it loads on first use (phone numbers'
 * metadata, HTML entities, zod's other locales) nor of what a fill never runs (the other renderers,
 * signing, packets, the server): read from dist/bundle-inputs.json, esbuild's record of which sources
 * each bundle file holds. `--help` loads no command; the packets floor does not load pg until a
 * PostgreSQL store is opened.
 */
import { execFile, spawn } from 'node:child_process';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../scripts/bundle.mjs';
import { DEFAULT_QUEUE_NAME } from '../src/batch/index.js';
import { BATCH_USAGE, WORKER_USAGE } from '../src/cli/usage.js';
import { bundleFiles, inlinedSources, sourceGroup } from './helpers/bundle-inputs.js';
import { repoRoot } from './helpers/cli.js';
import { exited, RedisServer, waitForOutput } from './helpers/redis.js';

const execFileAsync = promisify(execFile);
const bin = path.join(repoRoot, 'bin', 'castpress.js');
const recorder = path.join(repoRoot, 'test', 'helpers', 'module-log.mjs');
const builtinsRecorder = path.join(repoRoot, 'test', 'helpers', 'builtins-log.mjs');
const W9 = path.join(repoRoot, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf');

/** Packages a fill, a usage text or a render thread has no use for (the server's, the queue's, other renderers'). */
const HEAVY = [
  'fastify',
  'pg',
  'graphql',
  'bullmq',
  'ioredis',
  'pdfjs-dist',
  'playwright-core',
  'piscina',
  'libsql',
  'nodemailer',
  'sharp',
  'libphonenumber-js',
  'html-entities',
  '@libpdf/core',
  'markdown-it',
];
/** The bundle's entry chunks of the commands and renderers (dist/bundle/<name>-<hash>.mjs). */
const COMMAND_CHUNKS = [
  'fill',
  'generate',
  'import-template',
  'batch',
  'worker',
  'serve',
  'html',
  'markdown',
  'packets',
];

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-startup-'));
  // `npm test` builds the bundles first; this skips when they are fresh (bin/castpress.js would otherwise run the sources).
  await buildBundles();
}, 300_000);
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

interface Loaded {
  code: number;
  stderr: string;
  /** Every module the process loaded: file URLs or paths, `node:` built-ins. */
  modules: string[];
}

let runs = 0;
/** Runs node ARGS with the module recorder and returns what it loaded. */
function loading(args: string[], nodeFlags: string[] = [], cwd = dir, env: NodeJS.ProcessEnv = {}): Promise<Loaded> {
  const log = path.join(dir, `modules-${++runs}.log`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlags, '--import', pathToFileURL(recorder).href, ...args],
      { cwd, timeout: 300_000, env: { ...process.env, ...env, CASTPRESS_MODULE_LOG: log } },
      (error, _stdout, stderr) => {
        void readFile(log, 'utf8')
          .catch(() => '')
          .then((text) =>
            resolve({ code: error ? Number(error.code ?? 1) : 0, stderr, modules: text.split('\n').filter(Boolean) }),
          );
      },
    );
  });
}

/** The npm packages among the loaded modules (outside this checkout's own files). */
function packagesOf(modules: string[]): string[] {
  const names = new Set<string>();
  for (const m of modules) {
    const match = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)/.exec(m);
    if (match) names.add(match[1]!.replace('\\', '/'));
  }
  return [...names].sort();
}

/**
 * Packages the bundle inlines but a fill or a render thread must not compile until it uses them
 * (dist/bundle-inputs.json: what each loaded bundle file holds).
 */
const DEFERRED = /node_modules\/(libphonenumber-js|html-entities|zod\/v4\/locales\/(?!en\.js))/;
async function inlinedDeferred(modules: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const input of await inlinedSources(modules)) {
    const match = DEFERRED.exec(input);
    if (match) found.add(match[1]!.startsWith('zod') ? 'zod locales' : match[1]!);
  }
  return [...found].sort();
}

/** What a fill has no use for: the other renderers, the signing and packet floors, the server. */
const NOT_FOR_A_FILL = [
  'src/markdown',
  'src/html',
  'src/packets',
  'src/server',
  'src/signing',
  'markdown-it',
  '@libpdf/core',
  'pkijs',
];

const commandChunks = (modules: string[]): string[] =>
  bundleFiles(modules).filter((f) => COMMAND_CHUNKS.some((c) => f.startsWith(`${c}-`)));

describe('castpress start-up loads only what the command runs', () => {
  it('`castpress fill` of the W-9 runs from the bundle and loads its fill chunks, no package from node_modules', async () => {
    await copyFile(W9, path.join(dir, 'fw9.pdf'));
    await writeFile(
      path.join(dir, 'data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
    // The ES-module bundle (Node 22.1+, or CASTPRESS_CODE_CACHE=0): the chunks a fill loads.
    const run = await loading([bin, 'fill', 'fw9.pdf', 'data.json', '-o', 'out.pdf'], [], dir, {
      CASTPRESS_CODE_CACHE: '0',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(bundleFiles(run.modules)).toEqual(expect.arrayContaining(['castpress.mjs']));
    expect(bundleFiles(run.modules)).not.toContain('castpress.cjs');
    expect(commandChunks(run.modules).map((f) => f.replace(/-[^-]+\.mjs$/, ''))).toEqual(['fill']);
    // Everything the fill needs is inlined in the bundle; what stays in node_modules loads on first use.
    expect(packagesOf(run.modules)).toEqual([]);
    expect(await inlinedDeferred(run.modules)).toEqual([]);
    const groups = new Set((await inlinedSources(run.modules)).map(sourceGroup));
    // What the fill does compile (the check below reads a map that knows these files)...
    expect([...groups]).toEqual(
      expect.arrayContaining(['src/cli', 'src/engine', '@cantoo/pdf-lib', '@cantoo/fontkit']),
    );
    // ...and none of what it has no use for.
    expect(NOT_FOR_A_FILL.filter((g) => groups.has(g))).toEqual([]);
  }, 300_000);

  it("`castpress fill` on Node without enableCompileCache runs the fill's CommonJS file with the code cache, no package from node_modules", async () => {
    await copyFile(W9, path.join(dir, 'fw9.pdf'));
    await writeFile(path.join(dir, 'data.json'), JSON.stringify({ data: {} }));
    const run = await loading([bin, 'fill', 'fw9.pdf', 'data.json', '-o', 'out-cjs.pdf'], [], dir, {
      XDG_CACHE_HOME: path.join(dir, 'cache'),
    });
    expect(run.code, run.stderr).toBe(0);
    const hasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';
    if (hasCompileCache) expect(bundleFiles(run.modules)).toContain('castpress.mjs');
    else expect(bundleFiles(run.modules)).toEqual(['castpress-fill.cjs']);
    expect(packagesOf(run.modules)).toEqual([]);
    // The file holds the CLI with the fill command only (the other commands' modules are not in it, a
    // smaller code cache to read): what a fill compiles is what its first run compiled, kept in the
    // cache (test/cli-code-cache.test.ts).
    const sources = await inlinedSources(run.modules);
    expect(sources.map(sourceGroup)).toEqual(expect.arrayContaining(['src/cli']));
    if (!hasCompileCache) {
      expect(sources).toEqual(expect.arrayContaining(['src/cli/index.ts', 'src/cli/fill.ts']));
      const otherCommands = ['generate', 'import-template', 'batch', 'worker', 'serve', 'verify'];
      expect(otherCommands.filter((c) => sources.includes(`src/cli/${c}.ts`))).toEqual([]);
    }
  }, 300_000);

  it("`castpress worker --queue` on Node without enableCompileCache runs the worker's CommonJS file, BullMQ and ioredis inlined in it", async () => {
    await mkdir(path.join(dir, 'redis'), { recursive: true });
    const redis = await RedisServer.start(path.join(dir, 'redis'));
    const log = path.join(dir, 'worker-modules.log');
    try {
      const worker = spawn(
        process.execPath,
        [
          '--import',
          pathToFileURL(recorder).href,
          bin,
          'worker',
          '--queue',
          redis.url,
          '--name',
          'startup',
          '--out',
          path.join(dir, 'worker-out'),
        ],
        {
          cwd: dir,
          stdio: ['ignore', 'pipe', 'pipe'],
          env: { ...process.env, CASTPRESS_MODULE_LOG: log, XDG_CACHE_HOME: path.join(dir, 'cache') },
        },
      );
      let stderr = '';
      worker.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
      await waitForOutput(worker, /ready on startup/, 120_000);
      // At once: a worker that says it is ready handles SIGTERM (finishes its jobs, exits 0).
      worker.kill('SIGTERM');
      expect(await exited(worker), `${worker.signalCode ?? ''} ${stderr}`).toBe(0);
    } finally {
      await redis.stop();
    }
    const modules = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    // The recorder sees the packages the worker does load from node_modules (the thread pool).
    expect(packagesOf(modules)).toContain('piscina');
    if (typeof (module as { enableCompileCache?: unknown }).enableCompileCache !== 'function') {
      expect(bundleFiles(modules)).toContain('castpress-worker.cjs');
      expect(bundleFiles(modules)).not.toContain('castpress.cjs');
      // BullMQ (some 240 files) and ioredis are compiled from the worker's file, under its code cache,
      // not required one by one.
      expect(packagesOf(modules).filter((p) => ['bullmq', 'ioredis'].includes(p))).toEqual([]);
    }
  }, 300_000);

  it("`castpress fill`, its `wrote` line on a pipe, loads none of Node's network modules (nothing is fetched)", async () => {
    await copyFile(W9, path.join(dir, 'fw9.pdf'));
    await writeFile(
      path.join(dir, 'data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
    const log = path.join(dir, 'builtins.log');
    // execFile gives the child pipes: process.stderr there is a socket, which loads net and stream.
    const { stderr } = await execFileAsync(
      process.execPath,
      ['--import', pathToFileURL(builtinsRecorder).href, bin, 'fill', 'fw9.pdf', 'data.json', '-o', 'net.pdf'],
      { cwd: dir, timeout: 300_000, env: { ...process.env, CASTPRESS_BUILTINS_LOG: log } },
    );
    expect(stderr).toMatch(/^wrote net\.pdf \(\d+ KB\)\n$/);
    const builtins = (await readFile(log, 'utf8')).split('\n').filter(Boolean);
    // The recorder works: what any fill loads is there.
    expect(builtins).toEqual(expect.arrayContaining(['fs', 'zlib', 'vm']));
    const network = ['net', 'tty', 'http', 'https', 'tls', 'dns', 'dns/promises', 'http2'];
    expect(network.filter((m) => builtins.includes(m))).toEqual([]);
  }, 300_000);

  it('`--help`, `help CMD` and an unknown command print usage without loading any command', async () => {
    for (const args of [['--help'], ['help', 'serve'], ['no-such-command']]) {
      const run = await loading([bin, ...args]);
      expect(run.code, `${args.join(' ')}: ${run.stderr}`).toBe(args[0] === 'no-such-command' ? 2 : 0);
      expect(bundleFiles(run.modules)).toContain('castpress.mjs');
      expect(commandChunks(run.modules), args.join(' ')).toEqual([]);
      expect(packagesOf(run.modules), args.join(' ')).toEqual([]);
    }
  }, 300_000);

  it('the usage texts (kept apart from the commands) name the queue name batch and worker use by default', () => {
    for (const usage of [BATCH_USAGE, WORKER_USAGE])
      expect(usage).toContain(`--name QUEUE      queue name (default "${DEFAULT_QUEUE_NAME}")`);
  });

  it('a render thread (the bundle the pool, batch and queue workers load) loads none of the heavy packages', async () => {
    const entry = pathToFileURL(path.join(repoRoot, 'dist', 'bundle', 'worker-entry.mjs')).href;
    const run = await loading(['--input-type=module', '-e', `await import(${JSON.stringify(entry)});`]);
    expect(run.code, run.stderr).toBe(0);
    expect(bundleFiles(run.modules)).toContain('worker-entry.mjs');
    expect(packagesOf(run.modules).filter((p) => HEAVY.includes(p))).toEqual([]);
    expect(await inlinedDeferred(run.modules)).toEqual([]);
  }, 300_000);

  it('importing the packets floor from the sources does not load pg (only opening a PostgreSQL store does)', async () => {
    const packets = pathToFileURL(path.join(repoRoot, 'src', 'packets', 'index.ts')).href;
    const run = await loading(
      [
        '--input-type=module',
        '-e',
        `const m = await import(${JSON.stringify(packets)}); if (typeof m.openPostgresStore !== 'function') process.exit(3);`,
      ],
      ['--import', 'tsx'],
      repoRoot,
    );
    expect(run.code, run.stderr).toBe(0);
    expect(run.modules.some((m) => m.includes('/src/packets/store/postgres.ts'))).toBe(true);
    expect(packagesOf(run.modules)).not.toContain('pg');
  }, 300_000);
});
