/**
 * The developers' guide: small files named for what they hold, split before one passes ~400 lines.
 * Checked here so a file that grows past it is split when it grows, not found later.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'src');
const MAX_LINES = 400;

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(path.join(dir, e.name)) : e.name.endsWith('.ts') ? [path.join(dir, e.name)] : [],
  );
}

describe('house rule: file size', () => {
  it(`no source file under src/ passes ${MAX_LINES} lines`, () => {
    const files = sources(SRC);
    expect(files.length).toBeGreaterThan(100);
    const long = files
      .map((f) => ({
        file: path.relative(SRC, f),
        lines: readFileSync(f, 'utf8').replace(/\n$/, '').split('\n').length,
      }))
      .filter((f) => f.lines > MAX_LINES);
    expect(long).toEqual([]);
  });
});
