/**
 * The CLI's V8 code cache on Node without module.enableCompileCache (bin/code-cache.js):
 * `castpress fill` runs dist/bundle/castpress.cjs with a per-user cache of compiled code, written
 * once after the first run's work and then only read. Checked by what lands on disk, never by
 * time: the first fill writes one cache file, a second leaves it as it is (a cache V8 rejected
 * would be written again), a cache V8 rejects or a folder that cannot be made changes nothing
 * but that, and every form writes the same PDF byte for byte as the ES-module bundle.
 */
import { randomBytes } from 'node:crypto';
import module from 'node:module';
import { copyFile, readdir, readFile, stat, utimes, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles } from '../scripts/bundle.mjs';
import { repoRoot, runCastpress } from './helpers/cli.js';
import { tempDir } from './helpers/signing.js';

const W9 = path.join(repoRoot, 'test', 'fixtures', 'corpus', 'fillable_pdfs', 'irs_fw9_rev2018_xfa.pdf');
// On Node 22.1+ bin/castpress.js uses Node's own compile cache instead: nothing here applies.
const nodeHasCompileCache = typeof (module as { enableCompileCache?: unknown }).enableCompileCache === 'function';

let tmp: { dir: string; remove: () => Promise<void> };
let reference: Buffer;
let runs = 0;

/** Fills the W-9 with `env` and returns the PDF (a failed fill fails the test with its stderr). */
async function fill(env: NodeJS.ProcessEnv): Promise<Buffer> {
  const out = `out-${++runs}.pdf`;
  const r = await runCastpress(['fill', 'fw9.pdf', 'data.json', '-o', out], tmp.dir, 300_000, env);
  expect(r.code, r.stderr).toBe(0);
  return readFile(path.join(tmp.dir, out));
}

/** The cache files in a cache home's castpress/v8 folder. */
const cachesIn = async (home: string): Promise<string[]> =>
  (await readdir(path.join(home, 'castpress', 'v8')).catch(() => [])).sort();

beforeAll(async () => {
  tmp = await tempDir('castpress-code-cache-');
  // `npm test` builds the bundles first; this skips when they are fresh (bin/castpress.js would otherwise run the sources).
  await buildBundles();
  await copyFile(W9, path.join(tmp.dir, 'fw9.pdf'));
  await writeFile(
    path.join(tmp.dir, 'data.json'),
    JSON.stringify({
      data: {
        'topmostSubform[0].Page1[0].f1_1[0]': 'Ada Lovelace',
        'topmostSubform[0].Page1[0].f1_2[0]': 'Analytical',
      },
    }),
  );
  // The ES-module bundle, no cache read or written: the output every other form must equal.
  reference = await fill({ CASTPRESS_CODE_CACHE: '0', XDG_CACHE_HOME: path.join(tmp.dir, 'none') });
  expect(await cachesIn(path.join(tmp.dir, 'none'))).toEqual([]);
}, 600_000);
afterAll(async () => {
  await tmp.remove();
});

describe.skipIf(nodeHasCompileCache)('castpress fill with the code cache (Node without enableCompileCache)', () => {
  it('the first fill writes one cache file, whole; the next ones read it and leave it as it is; the PDF is the same', async () => {
    const home = path.join(tmp.dir, 'cache-a');
    expect(await fill({ XDG_CACHE_HOME: home })).toEqual(reference);
    const [name, ...more] = await cachesIn(home);
    expect(more, 'one file, no temporary file left').toEqual([]);
    expect(name).toMatch(/^cli-fill-[0-9a-f]{32}\.v8cache$/);
    const file = path.join(home, 'castpress', 'v8', name!);
    const written = await stat(file);
    // Written after the work: it holds the fill's functions, not only the bundle's top level.
    expect(written.size).toBeGreaterThan(500_000);
    for (let i = 0; i < 2; i++) expect(await fill({ XDG_CACHE_HOME: home })).toEqual(reference);
    // Not written again: V8 accepted it (a rejected cache is rewritten, next test).
    const after = await stat(file);
    expect([after.ino, after.mtimeMs, after.size]).toEqual([written.ino, written.mtimeMs, written.size]);
    expect(await cachesIn(home)).toEqual([name]);
  }, 600_000);

  it('a cache V8 rejects is not used: the fill compiles without it, writes the same PDF and replaces the cache', async () => {
    const home = path.join(tmp.dir, 'cache-b');
    await fill({ XDG_CACHE_HOME: home });
    const [name] = await cachesIn(home);
    const file = path.join(home, 'castpress', 'v8', name!);
    const garbage = randomBytes(4096);
    await writeFile(file, garbage);
    expect(await fill({ XDG_CACHE_HOME: home })).toEqual(reference);
    const rewritten = await readFile(file);
    expect(rewritten.length).toBeGreaterThan(500_000);
    expect(await cachesIn(home)).toEqual([name]);
  }, 600_000);

  it('other V8 flags are another cache; a week-old cache of another build is dropped, a recent one kept; a folder that cannot be made is no error', async () => {
    const home = path.join(tmp.dir, 'cache-c');
    const folder = path.join(home, 'castpress', 'v8');
    await fill({ XDG_CACHE_HOME: home });
    const [first] = await cachesIn(home);
    expect(await fill({ XDG_CACHE_HOME: home, NODE_OPTIONS: '--max-semi-space-size=32' })).toEqual(reference);
    const two = await cachesIn(home);
    expect(two).toHaveLength(2);
    const second = two.find((n) => n !== first)!;
    // The first written eight days ago: the next write drops it, not the recent second one.
    const old = new Date(Date.now() - 8 * 24 * 3600 * 1000);
    await utimes(path.join(folder, first!), old, old);
    expect(await fill({ XDG_CACHE_HOME: home, NODE_OPTIONS: '--max-semi-space-size=16' })).toEqual(reference);
    const three = await cachesIn(home);
    expect(three).toHaveLength(2);
    expect(three).toContain(second);
    expect(three).not.toContain(first);
    // A cache home below a regular file: the folder cannot be made, the fill runs as without a cache.
    const blocked = path.join(tmp.dir, 'a-file');
    await writeFile(blocked, 'not a folder');
    expect(await fill({ XDG_CACHE_HOME: path.join(blocked, 'cache') })).toEqual(reference);
  }, 600_000);
});
