/**
 * The italic angle the registry's fonts answer (src/fonts/post-header.ts, issue 29): the number fontkit
 * reads from the `post` table, for every TrueType and OpenType file the repository holds (the bundled
 * faces, italic ones included, and the HTML fixtures' fonts), read without decoding the table: fontkit
 * decodes a version-2 `post` table whole, a name per glyph, and pdf-lib only needs the angle.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fontkit, { type Font } from '@cantoo/fontkit';
import { describe, expect, it } from 'vitest';
import { FontRegistry } from '../src/fonts/index.js';
import { readItalicAngleFromHeader } from '../src/fonts/post-header.js';
import { repoRoot } from './helpers/cli.js';

const FONT_FILE = /\.(?:ttf|otf)$/i;

function fontFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && FONT_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

const FILES = [...fontFiles(path.join(repoRoot, 'fonts')), ...fontFiles(path.join(repoRoot, 'test', 'fixtures'))];
const open = (file: string): Font => fontkit.create(readFileSync(file)) as Font;
/** Which tables fontkit has decoded so far (its own cache). */
const decoded = (font: Font): string[] => Object.keys((font as unknown as { _tables: object })._tables);

describe('italic angle from the post header', () => {
  it('finds the fonts it checks, italic ones among them', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
    expect(FILES.filter((f) => open(f).italicAngle !== 0).length).toBeGreaterThanOrEqual(3);
  });

  it.each(FILES.map((f) => [path.relative(repoRoot, f), f]))(
    '%s: the angle fontkit reads, without decoding post',
    (_, file) => {
      const expected = open(file).italicAngle;
      const font = open(file);
      readItalicAngleFromHeader(font);
      expect(font.italicAngle).toBe(expected);
      expect(decoded(font)).not.toContain('post');
      // The rest of the table is still fontkit's, decoded when read.
      expect((font as unknown as { post: { italicAngle: number } }).post.italicAngle).toBe(expected);
    },
  );

  it('leaves a WOFF font to fontkit (its tables are compressed)', () => {
    const font = open(path.join(repoRoot, 'fonts', 'NotoSans-Italic.ttf'));
    (font as unknown as { type: string }).type = 'WOFF';
    readItalicAngleFromHeader(font);
    expect(Object.getOwnPropertyDescriptor(font, 'italicAngle')).toBeUndefined();
  });

  it("the registry's faces answer it so: Noto Sans Italic's angle, post not decoded", () => {
    const registry = new FontRegistry();
    const face = registry.resolve('Noto Sans', 'italic');
    const expected = open(path.join(repoRoot, 'fonts', 'NotoSans-Italic.ttf')).italicAngle;
    expect(expected).toBeLessThan(0);
    expect(face.font.italicAngle).toBe(expected);
    expect(decoded(face.font)).not.toContain('post');
  });
});
