/**
 * The `post` table the registry's fonts answer with (src/fonts/post-header.ts): the header's
 * fields (italic angle, fixed pitch, underline, memory hints, version) are the numbers fontkit decodes,
 * read without decoding the table, for every TrueType and OpenType file the repository holds (the
 * bundled faces, italic ones included, and the HTML fixtures' fonts): fontkit decodes a version-2 `post`
 * table whole, a name per glyph, and pdf-lib only needs the angle and the pitch. The glyph names, read
 * later, are fontkit's.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import fontkit, { type Font } from '@cantoo/fontkit';
import { describe, expect, it } from 'vitest';
import { FontRegistry } from '../src/fonts/index.js';
import { readPostHeaderLazily } from '../src/fonts/post-header.js';
import { repoRoot } from './helpers/cli.js';

const FONT_FILE = /\.(?:ttf|otf)$/i;
const HEADER = [
  'version',
  'italicAngle',
  'underlinePosition',
  'underlineThickness',
  'isFixedPitch',
  'minMemType42',
  'maxMemType42',
  'minMemType1',
  'maxMemType1',
];

function fontFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && FONT_FILE.test(e.name))
    .map((e) => path.join(e.parentPath, e.name));
}

const FILES = [...fontFiles(path.join(repoRoot, 'fonts')), ...fontFiles(path.join(repoRoot, 'test', 'fixtures'))];
const open = (file: string): Font => fontkit.create(readFileSync(file)) as Font;
type Post = Record<string, unknown>;
const postOf = (font: Font): Post => (font as unknown as { post: Post }).post;
/** Which tables fontkit has decoded so far (its own cache). */
const decoded = (font: Font): string[] => Object.keys((font as unknown as { _tables: object })._tables);

describe('the post header read from its bytes', () => {
  it('finds the fonts it checks: italic, version-2 (glyph names) and version-3 tables among them', () => {
    expect(FILES.length).toBeGreaterThanOrEqual(20);
    const fonts = FILES.map(open);
    expect(fonts.filter((f) => f.italicAngle !== 0).length).toBeGreaterThanOrEqual(3);
    expect(fonts.filter((f) => postOf(f).version === 2).length).toBeGreaterThanOrEqual(3);
    expect(fonts.filter((f) => postOf(f).version === 3).length).toBeGreaterThanOrEqual(1);
  });

  it.each(FILES.map((f) => [path.relative(repoRoot, f), f]))(
    "%s: fontkit's numbers, post decoded only for the names",
    (_, file) => {
      const plain = postOf(open(file));
      const font = open(file);
      readPostHeaderLazily(font);
      const post = postOf(font);
      for (const field of HEADER) expect(post[field], field).toBe(plain[field]);
      expect(font.italicAngle).toBe(plain.italicAngle);
      expect('isFixedPitch' in post).toBe(true);
      expect(decoded(font)).not.toContain('post');
      // What is not in the header is fontkit's own, decoded on that first read.
      expect(post.names).toEqual(plain.names);
      expect(post.glyphNameIndex).toEqual(plain.glyphNameIndex);
      expect(decoded(font)).toContain('post');
      expect(font.getGlyph(3)!.name).toBe(open(file).getGlyph(3)!.name);
    },
  );

  it('leaves a WOFF font to fontkit (its tables are compressed)', () => {
    const font = open(path.join(repoRoot, 'fonts', 'NotoSans-Italic.ttf'));
    (font as unknown as { type: string }).type = 'WOFF';
    const getter = Object.getOwnPropertyDescriptor(font, 'post')?.get;
    readPostHeaderLazily(font);
    expect(Object.getOwnPropertyDescriptor(font, 'post')?.get).toBe(getter);
  });

  it("the registry's faces answer so: Noto Sans Italic's angle and pitch, post not decoded", () => {
    const registry = new FontRegistry();
    const face = registry.resolve('Noto Sans', 'italic');
    const plain = open(path.join(repoRoot, 'fonts', 'NotoSans-Italic.ttf'));
    expect(plain.italicAngle).toBeLessThan(0);
    expect(face.font.italicAngle).toBe(plain.italicAngle);
    expect(postOf(face.font).isFixedPitch).toBe(postOf(plain).isFixedPitch);
    expect(decoded(face.font)).not.toContain('post');
  });
});
