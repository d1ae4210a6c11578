import { readFile } from 'node:fs/promises';

/**
 * The package's version from its package.json. This file sits two folders below the package root
 * in src/ and dist/ alike, and so do the bundles in dist/bundle/, so one relative URL serves all three.
 */
export async function packageVersion(): Promise<string> {
  const pkg = JSON.parse(await readFile(new URL('../../package.json', import.meta.url), 'utf8')) as {
    version?: unknown;
  };
  if (typeof pkg.version !== 'string') throw new Error('package.json has no version');
  return pkg.version;
}
