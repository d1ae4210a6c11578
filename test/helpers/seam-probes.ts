/**
 * A probe script bundled twice as scripts/bundle.mjs bundles the CLI (bundleOptions' externals and
 * banner): once with the bundle's seams (its plugins), once without, each file run in a process of
 * its own. For the tests of those seams: the same probe, built both ways, must answer alike.
 * `useSeamProbes` builds them once per test file, before its tests, and removes them after.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { build } from 'esbuild';
import { afterAll, beforeAll } from 'vitest';
import { bundleOptions } from '../../scripts/bundle.mjs';
import { repoRoot } from './cli.js';

const exec = promisify(execFile);

export interface SeamProbes {
  /** The temporary folder holding seamed.mjs and plain.mjs (a test may build more there). */
  readonly dir: string;
  /** What the probe built `which` way printed on stdout, run with `args`. */
  run(which: 'seamed' | 'plain', args?: string[]): Promise<string>;
  remove(): Promise<void>;
}

/** Builds `source` (an ES module, resolved from the repository's root) with and without the seams. */
async function buildSeamProbes(source: string, prefix: string): Promise<SeamProbes> {
  const dir = await mkdtemp(path.join(tmpdir(), prefix));
  const { plugins, banner, external } = bundleOptions([], dir);
  const common = {
    stdin: { contents: source, resolveDir: repoRoot, loader: 'js' as const, sourcefile: 'probe.mjs' },
    bundle: true,
    platform: 'node' as const,
    format: 'esm' as const,
    external,
    banner,
    logLevel: 'error' as const,
  };
  await build({ ...common, plugins, outfile: path.join(dir, 'seamed.mjs') });
  await build({ ...common, outfile: path.join(dir, 'plain.mjs') });
  return {
    dir,
    async run(which, args = []) {
      const { stdout } = await exec(process.execPath, [path.join(dir, `${which}.mjs`), ...args], {
        maxBuffer: 16 * 1024 * 1024,
        timeout: 300_000,
      });
      return stdout;
    },
    remove: () => rm(dir, { recursive: true, force: true }),
  };
}

/**
 * The probes of `source` for the calling test file: built in its beforeAll, removed in its afterAll.
 * Read `dir` and call `run` from its tests only (before the build they throw).
 */
export function useSeamProbes(source: string, prefix: string): Omit<SeamProbes, 'remove'> {
  let probes: SeamProbes | undefined;
  beforeAll(async () => {
    probes = await buildSeamProbes(source, prefix);
  }, 300_000);
  afterAll(async () => {
    await probes?.remove();
  });
  const built = (): SeamProbes => {
    if (!probes) throw new Error('the seam probes are built in beforeAll: use them from a test');
    return probes;
  };
  return {
    get dir() {
      return built().dir;
    },
    run: (which, args) => built().run(which, args),
  };
}
