/**
 * When bin/bundle.js lets a bundle run: a checkout never runs stale code. Checked on a
 * package laid out in a temporary folder (bin/bundle.js copied there, a bundle, its list of sources,
 * the sources), with file times set by the test, never read from a clock.
 */
import { copyFile, mkdir, mkdtemp, rm, utimes, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { repoRoot } from './helpers/cli.js';

let dir: string;
let freshBundle: (name: string) => string | undefined;

/** Sets a file's modification time to `seconds` (since 1970). */
const at = (file: string, seconds: number) => utimes(path.join(dir, file), seconds, seconds);
const BUILT = 2_000_000;
const BEFORE = BUILT - 100;
const AFTER = BUILT + 100;

beforeEach(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-fresh-'));
  await mkdir(path.join(dir, 'bin'));
  await mkdir(path.join(dir, 'src', 'fill'), { recursive: true });
  await mkdir(path.join(dir, 'src', 'server'), { recursive: true });
  await mkdir(path.join(dir, 'dist', 'bundle'), { recursive: true });
  await copyFile(path.join(repoRoot, 'bin', 'bundle.js'), path.join(dir, 'bin', 'bundle.js'));
  await copyFile(path.join(repoRoot, 'bin', 'package.json'), path.join(dir, 'bin', 'package.json'));
  const files: Record<string, string> = {
    'package.json': '{"name":"fake"}\n',
    'src/fill/index.ts': 'export {};\n',
    'src/fill/draw.ts': 'export {};\n',
    'src/server/index.ts': 'export {};\n',
    'dist/bundle/castpress-fill.cjs': '// bundle\n',
    'dist/bundle/castpress-fill.cjs.sources': 'src/fill/draw.ts\nsrc/fill/index.ts\n',
  };
  for (const [file, text] of Object.entries(files)) {
    await writeFile(path.join(dir, file), text);
    await at(file, file.startsWith('dist/') ? BUILT : BEFORE);
  }
  ({ freshBundle } = createRequire(import.meta.url)(path.join(dir, 'bin', 'bundle.js')) as {
    freshBundle: (name: string) => string | undefined;
  });
});
afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const url = () => pathToFileURL(path.join(dir, 'dist', 'bundle', 'castpress-fill.cjs')).href;

describe('a bundle runs in a checkout only while it is newer than what it was built from', () => {
  it('runs when every source it holds and the package files are older', () => {
    expect(freshBundle('castpress-fill.cjs')).toBe(url());
  });

  it('is stale once a source it holds is edited', async () => {
    await at('src/fill/draw.ts', AFTER);
    expect(freshBundle('castpress-fill.cjs')).toBeUndefined();
  });

  it('still runs when a source it does not hold is edited or added', async () => {
    await at('src/server/index.ts', AFTER);
    await writeFile(path.join(dir, 'src', 'fill', 'unused.ts'), 'export {};\n');
    await at('src/fill/unused.ts', AFTER);
    expect(freshBundle('castpress-fill.cjs')).toBe(url());
  });

  it('is stale when a source it holds is gone, or its list of sources is', async () => {
    await rm(path.join(dir, 'src', 'fill', 'index.ts'));
    expect(freshBundle('castpress-fill.cjs')).toBeUndefined();
    await writeFile(path.join(dir, 'src', 'fill', 'index.ts'), 'export {};\n');
    await at('src/fill/index.ts', BEFORE);
    expect(freshBundle('castpress-fill.cjs')).toBe(url());
    await rm(path.join(dir, 'dist', 'bundle', 'castpress-fill.cjs.sources'));
    expect(freshBundle('castpress-fill.cjs')).toBeUndefined();
  });

  it('is stale once package.json, a lock file or the bundle scripts change', async () => {
    for (const file of ['package.json', 'package-lock.json', 'scripts/bundle-seams.mjs']) {
      await mkdir(path.dirname(path.join(dir, file)), { recursive: true });
      await writeFile(path.join(dir, file), '{}\n');
      await at(file, AFTER);
      expect(freshBundle('castpress-fill.cjs'), file).toBeUndefined();
      await at(file, BEFORE);
      expect(freshBundle('castpress-fill.cjs'), file).toBe(url());
    }
  });

  it('is never there when the file is not', () => {
    expect(freshBundle('castpress.cjs')).toBeUndefined();
  });

  it('always runs in an installed package (no src/), list of sources or not', async () => {
    await rm(path.join(dir, 'src'), { recursive: true });
    await rm(path.join(dir, 'dist', 'bundle', 'castpress-fill.cjs.sources'));
    await at('package.json', AFTER);
    expect(freshBundle('castpress-fill.cjs')).toBe(url());
  });
});
