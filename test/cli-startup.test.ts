/**
 * What a castpress process loads at start (issue 29), counted rather than timed: each child
 * runs with test/helpers/module-log.mjs preloaded, which lists every module it loads. A
 * process that fills one PDF loads the fill command's chunks of the bundle and nothing from
 * node_modules, and those chunks hold no code of what it loads on first use (phone numbers'
 * metadata, HTML entities, zod's other locales); `--help` loads no command; the packets floor does not load pg until a
 * PostgreSQL store is opened.
 */
import { execFile } from 'node:child_process';
import { copyFile, mkdtemp, readdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../scripts/bundle.mjs';
import { DEFAULT_QUEUE_NAME } from '../src/batch/index.js';
import { BATCH_USAGE, WORKER_USAGE } from '../src/cli/usage.js';
import { repoRoot } from './helpers/cli.js';

const bin = path.join(repoRoot, 'bin', 'castpress.js');
const recorder = path.join(repoRoot, 'test', 'helpers', 'module-log.mjs');
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
/** The code caches of this file's runs (bin/code-cache.js), none in the checkout's dist/. */
let cacheDir: string;
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-startup-'));
  cacheDir = path.join(dir, 'code-cache');
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
function loading(
  args: string[],
  nodeFlags: string[] = [],
  cwd = dir,
  env: Record<string, string> = {},
): Promise<Loaded> {
  const log = path.join(dir, `modules-${++runs}.log`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [...nodeFlags, '--import', pathToFileURL(recorder).href, ...args],
      {
        cwd,
        timeout: 300_000,
        env: { ...process.env, CASTPRESS_CACHE_DIR: cacheDir, ...env, CASTPRESS_MODULE_LOG: log },
      },
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
 * Packages the bundle inlines but a fill or a render thread must not compile until it uses them:
 * which ones the loaded bundle files hold code of (esbuild marks each inlined file with a
 * `// <path>` line).
 */
const DEFERRED = /^\/\/ \S*node_modules\/(libphonenumber-js|html-entities|zod\/v4\/locales\/(?!en\.js))/gm;
async function inlinedDeferred(modules: string[]): Promise<string[]> {
  const found = new Set<string>();
  for (const m of modules.filter((f) => f.includes('/dist/bundle/'))) {
    const text = await readFile(m.startsWith('file:') ? new URL(m) : m, 'utf8');
    for (const match of text.matchAll(DEFERRED)) found.add(match[1]!.startsWith('zod') ? 'zod locales' : match[1]!);
  }
  return [...found].sort();
}

const bundleFiles = (modules: string[]): string[] =>
  modules.filter((m) => m.includes('/dist/bundle/')).map((m) => m.slice(m.lastIndexOf('/') + 1));
const commandChunks = (modules: string[]): string[] =>
  bundleFiles(modules).filter((f) => COMMAND_CHUNKS.some((c) => f.startsWith(`${c}-`)));

describe('castpress start-up loads only what the command runs', () => {
  it('`castpress fill` of the W-9 from the ES-module bundle loads its fill chunks, no package from node_modules', async () => {
    await copyFile(W9, path.join(dir, 'fw9.pdf'));
    await writeFile(
      path.join(dir, 'data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
    // Without the code cache bin/castpress.js runs the ES-module bundle (the server's and the threads' code).
    const run = await loading([bin, 'fill', 'fw9.pdf', 'data.json', '-o', 'out.pdf'], [], dir, {
      CASTPRESS_CODE_CACHE: '0',
    });
    expect(run.code, run.stderr).toBe(0);
    expect(bundleFiles(run.modules)).toContain('castpress.mjs');
    expect(commandChunks(run.modules).map((f) => f.replace(/-[^-]+\.mjs$/, ''))).toEqual(['fill']);
    // Everything the fill needs is inlined in the bundle; what stays in node_modules loads on first use.
    expect(packagesOf(run.modules)).toEqual([]);
    expect(await inlinedDeferred(run.modules)).toEqual([]);
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

describe("the commands a process is started for run from the CommonJS bundle with V8's code cache", () => {
  const fill = (out: string, env: Record<string, string>): Promise<Loaded> =>
    loading([bin, 'fill', 'cc-fw9.pdf', 'cc-data.json', '-o', out], [], dir, env);
  const cacheName = new RegExp(
    `^fill-[0-9a-f]{16}-${process.version.replace(/\./g, '\\.')}-${process.arch}\\.v8cache$`,
  );

  beforeAll(async () => {
    await copyFile(W9, path.join(dir, 'cc-fw9.pdf'));
    await writeFile(
      path.join(dir, 'cc-data.json'),
      JSON.stringify({ data: { 'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace' } }),
    );
  });

  it('the first `fill` writes the cache of its command and Node; the next uses it (not written again) and writes the same PDF as the ES-module bundle', async () => {
    const cache = path.join(dir, 'cc-first');
    const first = await fill('cc-1.pdf', { CASTPRESS_CACHE_DIR: cache });
    expect(first.code, first.stderr).toBe(0);
    // Not the ES-module bundle: dist/bundle/castpress.cjs, run by bin/code-cache.js, and still no package from node_modules.
    expect(bundleFiles(first.modules)).toEqual([]);
    expect(packagesOf(first.modules)).toEqual([]);
    const files = await readdir(cache);
    expect(files).toHaveLength(1);
    expect(files[0]).toMatch(cacheName);
    const made = await stat(path.join(cache, files[0]!));
    expect(made.size).toBeGreaterThan(100_000);

    const second = await fill('cc-2.pdf', { CASTPRESS_CACHE_DIR: cache });
    expect(second.code, second.stderr).toBe(0);
    // A cache V8 rejected would be written again when the process exits.
    const after = await stat(path.join(cache, files[0]!));
    expect([after.ino, after.mtimeMs]).toEqual([made.ino, made.mtimeMs]);
    expect(await readdir(cache)).toEqual(files);

    const esm = await fill('cc-esm.pdf', { CASTPRESS_CODE_CACHE: '0', CASTPRESS_CACHE_DIR: path.join(dir, 'cc-none') });
    expect(esm.code, esm.stderr).toBe(0);
    expect(bundleFiles(esm.modules)).toContain('castpress.mjs');
    const pdf = await readFile(path.join(dir, 'cc-2.pdf'));
    expect(pdf.equals(await readFile(path.join(dir, 'cc-1.pdf')))).toBe(true);
    expect(pdf.equals(await readFile(path.join(dir, 'cc-esm.pdf')))).toBe(true);
  }, 300_000);

  it('a damaged cache is rejected and replaced; a cache folder that cannot be made costs only the cache', async () => {
    const cache = path.join(dir, 'cc-damaged');
    const made = await fill('cc-3.pdf', { CASTPRESS_CACHE_DIR: cache });
    expect(made.code, made.stderr).toBe(0);
    const [name] = await readdir(cache);
    const junk = Buffer.alloc(4096, 7);
    await writeFile(path.join(cache, name!), junk);
    const run = await fill('cc-4.pdf', { CASTPRESS_CACHE_DIR: cache });
    expect(run.code, run.stderr).toBe(0);
    const replaced = await readFile(path.join(cache, name!));
    expect(replaced.equals(junk)).toBe(false);
    expect(replaced.length).toBeGreaterThan(100_000);

    // A file where the folder would be: mkdir fails (ENOTDIR), the fill does not.
    await writeFile(path.join(dir, 'cc-a-file'), 'not a folder');
    const blocked = await fill('cc-5.pdf', { CASTPRESS_CACHE_DIR: path.join(dir, 'cc-a-file', 'cache') });
    expect(blocked.code, blocked.stderr).toBe(0);
    // Nothing said about the cache: the fill's own line only.
    expect(blocked.stderr).toMatch(/^wrote cc-5\.pdf \(\d+ KB\)\n$/);
    expect((await readFile(path.join(dir, 'cc-5.pdf'))).equals(await readFile(path.join(dir, 'cc-3.pdf')))).toBe(true);
  }, 300_000);
});
