/**
 * The Node versions package.json's `engines.node` states are the ones every installed dependency
 * accepts: a dependency whose own `engines.node` excludes the lowest version of a supported major
 * (npm's EBADENGINE warning at install) fails here, naming it. A real walk over node_modules
 * (nested and scoped folders too), read with semver, which npm itself uses for these ranges.
 */
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

interface Semver {
  satisfies(version: string, range: string): boolean;
  minVersion(range: string): { version: string } | null;
  validRange(range: string): string | null;
}

const root = path.resolve(import.meta.dirname, '..');
const require = createRequire(import.meta.url);
// A transitive dependency (npm's own range reader); typed here as far as this test uses it.
const semver = require('semver') as Semver;
const supported = (JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')) as { engines: { node: string } })
  .engines.node;

/** The lowest version of each major the range admits, e.g. 20.19.0, 22.13.0, 24.0.0. */
function lowestOfEachMajor(range: string): string[] {
  return range.split('||').flatMap((part) => {
    const min = semver.minVersion(part.trim());
    return min ? [min.version] : [];
  });
}

/** Every installed package's name, version and `engines.node`, nested node_modules included. */
function installed(dir: string, into: { name: string; version: string; node: string }[] = []) {
  for (const entry of readdirSync(dir)) {
    if (entry.startsWith('.')) continue;
    const folder = path.join(dir, entry);
    if (entry.startsWith('@')) {
      installed(folder, into);
      continue;
    }
    const file = path.join(folder, 'package.json');
    if (!existsSync(file)) continue;
    const pkg = JSON.parse(readFileSync(file, 'utf8')) as {
      name?: string;
      version?: string;
      engines?: { node?: unknown };
    };
    if (typeof pkg.engines?.node === 'string')
      into.push({ name: pkg.name ?? entry, version: pkg.version ?? '?', node: pkg.engines.node });
    const nested = path.join(folder, 'node_modules');
    if (existsSync(nested)) installed(nested, into);
  }
  return into;
}

describe('supported Node versions', () => {
  it('package.json states a range, and the running Node is in it', () => {
    expect(semver.validRange(supported)).not.toBeNull();
    expect(lowestOfEachMajor(supported)[0]).toBe('20.19.0');
    expect(semver.satisfies(process.versions.node, supported)).toBe(true);
  });

  it('no installed dependency excludes the lowest version of a supported major', () => {
    const packages = installed(path.join(root, 'node_modules'));
    expect(packages.length).toBeGreaterThan(50);
    const excluding = lowestOfEachMajor(supported).flatMap((version) =>
      packages
        .filter((p) => semver.validRange(p.node) !== null && !semver.satisfies(version, p.node))
        .map((p) => `${p.name}@${p.version} wants node ${p.node}, excludes ${version}`),
    );
    expect(excluding).toEqual([]);
  });
});
