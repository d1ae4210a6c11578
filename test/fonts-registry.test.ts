import { copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { FontRegistry, MissingFontError } from '../src/fonts/index.js';
import { TextSetter } from '../src/text/index.js';

const NOTO_CORE = '/usr/share/fonts/truetype/noto';
const tmp = mkdtempSync(join(tmpdir(), 'castpress-fonts-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

describe('FontRegistry', () => {
  it('knows the bundled and standard names without scanning the system', () => {
    const registry = new FontRegistry({ systemDirectories: [] });
    for (const name of [
      'Noto Sans',
      'Courier',
      'Helvetica',
      'Times New Roman',
      'Noto Sans CJK SC',
      'Noto Sans CJK JP',
      'Noto Sans CJK KR',
      'Noto Sans CJK TC',
    ]) {
      expect(registry.hasFamily(name), name).toBe(true);
    }
    expect(registry.hasFamily('helvetica')).toBe(false);
    expect(registry.hasFamily('')).toBe(false);
    expect(registry.families()).toContain('Noto Sans');
  });

  it('finds installed families by exact, case-sensitive name', () => {
    // Families of the packages scripts/setup.sh installs (CI allows no others).
    const registry = new FontRegistry();
    expect(registry.hasFamily('Noto Serif')).toBe(true);
    expect(registry.hasFamily('Noto Sans Hebrew')).toBe(true);
    expect(registry.hasFamily('Droid Sans Fallback')).toBe(true);
    expect(registry.hasFamily('noto serif')).toBe(false);
    expect(registry.hasFamily('Roboto Slabb')).toBe(false);
  });

  it('unknown names are a 400 ValidationError naming the property', () => {
    const registry = new FontRegistry();
    let error: unknown;
    try {
      registry.assertFamily('roboto slab', 'data.name.fontFamily');
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ValidationError);
    expect((error as ValidationError).status).toBe(400);
    expect((error as ValidationError).fields).toEqual([
      { property: 'data.name.fontFamily', message: 'Unknown font "roboto slab"' },
    ]);
  });

  it('the text layer rejects an unknown family in a style with the same error', async () => {
    const setter = new TextSetter(await PDFDocument.create(), new FontRegistry({ systemDirectories: [] }));
    expect(() => setter.measure('x', { fontFamily: 'Nope', fontWeight: 'normal', fontSize: 10 })).toThrow(
      ValidationError,
    );
    const bad = (style: object) => {
      try {
        setter.layout([{ text: 'x', style: style as never }]);
      } catch (e) {
        return e instanceof ValidationError ? e.fields[0]?.property : 'not a ValidationError';
      }
      return 'no error';
    };
    expect(bad({ fontFamily: 'Noto Sans', fontWeight: 'heavy', fontSize: 10 })).toBe('fontWeight');
    expect(bad({ fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: Number.NaN })).toBe('fontSize');
    expect(bad({ fontFamily: 'Noto Sans', fontWeight: 'normal', fontSize: 0 })).toBe('fontSize');
  });

  it('registers caller directories and files, under their own or a given family name', () => {
    const dir = join(tmp, 'dir');
    rmSync(dir, { recursive: true, force: true });
    copyFileSync(join(NOTO_CORE, 'NotoSansHebrew-Regular.ttf'), join(tmp, 'hebrew.ttf'));
    const registry = new FontRegistry({
      systemDirectories: [],
      directories: ['/usr/share/fonts/truetype/droid'],
      files: [
        { path: join(tmp, 'hebrew.ttf') },
        { path: join(NOTO_CORE, 'NotoSansArabic-Bold.ttf'), family: 'House Arabic', weight: 'bold' },
      ],
    });
    expect(registry.hasFamily('Droid Sans Fallback')).toBe(true);
    expect(registry.hasFamily('Noto Sans Hebrew')).toBe(true);
    expect(registry.hasFamily('House Arabic')).toBe(true);
    // Installed, but neither in these folders nor in the offline catalogue: the system folders are off.
    expect(registry.hasFamily('Noto Sans Arabic')).toBe(false);
    // The only face is bold: asking for normal uses it as is, asking for bold uses it unsynthesised.
    expect(registry.resolve('House Arabic', 'bold').syntheticBold).toBe(false);
  });

  it('picks real faces for each weight and synthesises only what is missing', () => {
    const registry = new FontRegistry();
    const noto = (w: 'normal' | 'bold' | 'italic' | 'boldItalic') => registry.resolve('Noto Sans', w);
    expect(noto('normal').font.postscriptName).toBe('NotoSans-Regular');
    expect(noto('bold').font.postscriptName).toBe('NotoSans-Bold');
    expect(noto('italic').font.postscriptName).toBe('NotoSans-Italic');
    expect(noto('boldItalic').font.postscriptName).toBe('NotoSans-BoldItalic');
    for (const w of ['normal', 'bold', 'italic', 'boldItalic'] as const) {
      expect(noto(w).syntheticBold || noto(w).syntheticItalic).toBe(false);
    }
    expect(registry.resolve('Times New Roman', 'boldItalic').font.postscriptName).toBe('LiberationSerif-BoldItalic');
    // Noto Sans Hebrew has Regular and Bold but no italic: slant is synthesised.
    const hebrewItalic = registry.resolve('Noto Sans Hebrew', 'boldItalic');
    expect(hebrewItalic.font.postscriptName).toBe('NotoSansHebrew-Bold');
    expect([hebrewItalic.syntheticBold, hebrewItalic.syntheticItalic]).toEqual([false, true]);
    // Droid Sans Fallback has one face only.
    const droidBold = registry.resolve('Droid Sans Fallback', 'bold');
    expect([droidBold.syntheticBold, droidBold.syntheticItalic]).toEqual([true, false]);
  });

  it('parses a font file once per registry, whatever the number of documents', async () => {
    const registry = new FontRegistry({ systemDirectories: [] });
    const style = { fontFamily: 'Noto Sans', fontWeight: 'normal' as const, fontSize: 10 };
    const first = new TextSetter(await PDFDocument.create(), registry);
    first.measure('漢字', style);
    const cjk = registry.cjk('sc', 'normal');
    const font = cjk?.font;
    const second = new TextSetter(await PDFDocument.create(), registry);
    second.measure('漢字', style);
    expect(registry.cjk('sc', 'normal')?.font).toBe(font);
    // Another registry parses its own copy: no module-level cache.
    expect(new FontRegistry({ systemDirectories: [] }).cjk('sc', 'normal')?.font).not.toBe(font);
  });
});

describe("the engine's own faces", () => {
  // These tests need what scripts/setup.sh installs: fonts-liberation2, fonts-noto-core,
  // fonts-noto-mono, fonts-noto-cjk, fonts-symbola (and the bundled Noto Sans).
  it('are all installed by setup, each file holding the PostScript face it should', () => {
    expect(new FontRegistry().missingEngineFaces().map((e) => e.message)).toEqual([]);
  });

  it('include the Markdown code font by exact file, without a system scan', () => {
    const registry = new FontRegistry({ systemDirectories: [] });
    expect(registry.hasFamily('Noto Sans Mono')).toBe(true);
    expect(registry.resolve('Noto Sans Mono', 'bold').font.postscriptName).toBe('NotoSansMono-Bold');
    expect(registry.resolve('Courier', 'normal').font.postscriptName).toBe('LiberationMono');
  });

  it('a missing or wrong one is a MissingFontError naming file, face and package, never a substitute', async () => {
    const root = join(tmp, 'empty-root');
    mkdirSync(join(root, 'truetype/liberation2'), { recursive: true });
    // A file where Liberation Sans should be that holds another face.
    copyFileSync(
      join(NOTO_CORE, 'NotoSansHebrew-Regular.ttf'),
      join(root, 'truetype/liberation2/LiberationSans-Regular.ttf'),
    );
    const registry = new FontRegistry({ systemDirectories: [], packageFontDir: root });
    const missing = registry.missingEngineFaces();
    const messages = missing.map((e) => e.message).join('\n');
    expect(messages).toContain(
      `${root}/truetype/liberation2/LiberationSans-Regular.ttf (PostScript LiberationSans, for Helvetica normal) holds NotoSansHebrew-Regular instead`,
    );
    expect(messages).toMatch(
      /NotoSansMono-Regular\.ttf \(PostScript NotoSansMono-Regular, for Noto Sans Mono normal \(Markdown code\)\) is missing: install Debian package fonts-noto-mono/,
    );
    expect(messages).toMatch(/Symbola_hint\.ttf .* is missing: install Debian package fonts-symbola/);
    expect(messages).toMatch(/NotoSansCJK-Regular\.ttc .* fonts-noto-cjk/);
    expect(messages).not.toContain('NotoSans-Regular.ttf'); // bundled: present
    // Using them throws the same error instead of drawing with something else.
    expect(() => registry.resolve('Helvetica', 'normal').font).toThrow(/holds NotoSansHebrew-Regular instead/);
    expect(() => registry.resolve('Times New Roman', 'bold').font).toThrow(MissingFontError);
    const setter = new TextSetter(await PDFDocument.create(), registry);
    const style = { fontFamily: 'Noto Sans', fontWeight: 'normal' as const, fontSize: 10 };
    expect(setter.measure('plain Latin', style)).toBeGreaterThan(0);
    // CJK comes before the script fonts in the fallback order: without it, any non-Latin text stops there.
    expect(() => setter.measure('漢字', style)).toThrow(
      /NotoSansCJK-Regular\.ttc .* install Debian package fonts-noto-cjk/,
    );
    symlinkSync('/usr/share/fonts/opentype', join(root, 'opentype'));
    const withCjk = new TextSetter(
      await PDFDocument.create(),
      new FontRegistry({ systemDirectories: [], packageFontDir: root }),
    );
    expect(() => withCjk.measure('שלום', style)).toThrow(
      /NotoSansHebrew-Regular\.ttf .* is missing: install Debian package fonts-noto-core/,
    );
  });
});

describe('script fallback table', () => {
  it('is sorted and without overlaps, as its binary search needs', async () => {
    const { blocksAreOrdered, scriptFontFor } = await import('../src/fonts/script-ranges.js');
    expect(blocksAreOrdered()).toBe(true);
    expect(scriptFontFor(0x0d06)).toBe('NotoSansMalayalam');
    expect(scriptFontFor(0x0041)).toBeUndefined();
  });
});
