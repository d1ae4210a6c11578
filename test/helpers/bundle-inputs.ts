/**
 * What the dist/bundle files a process loaded are made of, read from
 * dist/bundle-inputs.json, which scripts/bundle.mjs writes from esbuild's metafile of the same
 * build (the bundle's whitespace is minified: it carries no `// path` line per inlined file).
 * test/cli-startup.test.ts and test/cold-start-thread.test.ts use it to prove what a process
 * does not compile.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { repoRoot } from './cli.js';

const INPUTS = path.join(repoRoot, 'dist', 'bundle-inputs.json');

/** The dist/bundle files among a process's loaded modules (file URLs or paths), by file name. */
export const bundleFiles = (modules: string[]): string[] =>
  modules.filter((m) => m.includes('/dist/bundle/')).map((m) => m.slice(m.lastIndexOf('/') + 1));

/**
 * Every source inlined in the loaded bundle files (`src/cli/fill.ts`,
 * `node_modules/zod/v4/core/core.js`, `castpress-seams:zod-locales`), holding at least one
 * byte of output. A loaded file the map does not name (a map from another build) fails loudly:
 * an empty answer must mean "nothing", never "not found".
 */
export async function inlinedSources(modules: string[]): Promise<string[]> {
  const map = JSON.parse(await readFile(INPUTS, 'utf8')) as Record<string, Record<string, number>>;
  const sources = new Set<string>();
  for (const file of bundleFiles(modules)) {
    const inputs = map[file];
    if (!inputs)
      throw new Error(`dist/bundle-inputs.json does not name ${file}: rebuild with node scripts/bundle.mjs --force`);
    for (const [input, bytes] of Object.entries(inputs)) if (bytes > 0) sources.add(input);
  }
  return [...sources].sort();
}

/** A source's package (`@cantoo/pdf-lib`, `zod`) or, for the project's own files, its capability (`src/engine`). */
export const sourceGroup = (input: string): string =>
  /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(input)?.[1] ?? input.replace(/^(src\/[^/]+)\/.*/, '$1');
