/**
 * The developers' guide on the layout of src/: one folder per capability, split by concern before a
 * folder's top grows past a dozen parts; one name, one meaning; only code a person writes (generated
 * bundles and programs in other languages live in generated/ and assets/).
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const MAX_FILES_AT_TOP = 15;
/** A README states a capability's decisions and limits in a page or two; all of them together stay under this. */
const MAX_README_LINES = 1800;

function folders(dir: string): string[] {
  const subs = readdirSync(dir, { withFileTypes: true }).filter((e) => e.isDirectory());
  return [dir, ...subs.flatMap((e) => folders(path.join(dir, e.name)))];
}
const filesAt = (dir: string) =>
  readdirSync(dir, { withFileTypes: true })
    .filter((e) => e.isFile())
    .map((e) => path.join(dir, e.name));
const all = folders(SRC);

describe('house rule: the layout of src/', () => {
  it(`no folder shows more than ${MAX_FILES_AT_TOP} files at its top`, () => {
    expect(all.length).toBeGreaterThan(30);
    const crowded = all
      .map((d) => ({ folder: path.relative(SRC, d) || '.', files: filesAt(d).length }))
      .filter((f) => f.files > MAX_FILES_AT_TOP);
    expect(crowded).toEqual([]);
  });

  it('no folder name is used twice (one name, one meaning)', () => {
    const byName = new Map<string, string[]>();
    for (const d of all.slice(1)) byName.set(path.basename(d), [...(byName.get(path.basename(d)) ?? []), d]);
    const twice = [...byName.values()].filter((ds) => ds.length > 1).map((ds) => ds.map((d) => path.relative(SRC, d)));
    expect(twice).toEqual([]);
  });

  it('holds only code a person writes: TypeScript, its READMEs and styles, no generated file', () => {
    const files = all.flatMap(filesAt);
    const foreign = files.filter((f) => !/\.(ts|tsx|md|css|mjs)$/.test(f)).map((f) => path.relative(SRC, f));
    expect(foreign).toEqual([]);
    const generated = files
      .filter((f) => /^\/\/ Generated\b|do not edit/i.test(readFileSync(f, 'utf8').slice(0, 300)))
      .map((f) => path.relative(SRC, f));
    expect(generated).toEqual([]);
  });
});

describe('house rule: comments and READMEs state decisions, not history', () => {
  const files = all.flatMap(filesAt);
  /** `(#31)`, `; #31`, `issue 29`, `issue #6`; not `UAX #14`, `PKCS#12`, colours or PDF name escapes. */
  const CITES_ISSUE = /\b[Ii]ssues? #?\d{1,3}\b|[(;,] ?#\d{1,3}\b(?![0-9a-fA-F])/;

  it('no file under src cites an issue number', () => {
    const citing = files.flatMap((f) =>
      readFileSync(f, 'utf8')
        .split('\n')
        .flatMap((line, i) => (CITES_ISSUE.test(line) ? [`${path.relative(SRC, f)}:${i + 1}: ${line.trim()}`] : [])),
    );
    expect(citing).toEqual([]);
  });

  it('the READMEs under src total under 1,800 lines', () => {
    const readmes = files.filter((f) => path.basename(f) === 'README.md');
    expect(readmes.length).toBeGreaterThan(20);
    const lines = readmes.reduce((n, f) => n + readFileSync(f, 'utf8').split('\n').length, 0);
    expect(lines, 'lines of the READMEs under src').toBeLessThan(MAX_README_LINES);
  });
});
