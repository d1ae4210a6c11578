/**
 * Web-font catalogue names from font packages installed from npm: the
 * `@fontsource/roboto-slab` devDependency (WOFF/WOFF2 files split by script, decoded by
 * fontkit) resolves "Roboto Slab" exactly and case-sensitively in Markdown and fill.
 * System font folders are switched off so the faces can only come from the package.
 */
import { readFileSync } from 'node:fs';
import { copyFile, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { FontRegistry } from '../src/fonts/index.js';
import { listFontPackages, scanFontPackages } from '../src/fonts/packages.js';
import { woff2ToSfnt } from '../src/fonts/woff2.js';
import fontkit, { type Font } from '@cantoo/fontkit';
import { pdffonts, popplerText, qpdfCheck } from './helpers/pdf.js';
import { repoRoot, runCastpress } from './helpers/cli.js';
import { statusOf } from './helpers/errors.js';
import { field, pageFonts, template } from './fixtures/fill/templates.js';

const nodeModules = path.join(repoRoot, 'node_modules');
const pkg = path.join(nodeModules, '@fontsource', 'roboto-slab');
const engine = createEngine({ fonts: { packages: [pkg], systemDirectories: [] } });
afterAll(() => engine.close());

describe('font packages (@fontsource) as a catalogue source', () => {
  it('the package gives one family by its metadata name, the latin file per slot and the other subsets as siblings', () => {
    const catalogue = scanFontPackages(listFontPackages([pkg]));
    expect([...catalogue.keys()]).toEqual(['Roboto Slab']);
    const slots = catalogue.get('Roboto Slab')!;
    // Roboto Slab has no italics: those slots are synthesised from these.
    expect([...slots.keys()].sort()).toEqual(['bold', 'normal']);
    expect(path.basename(slots.get('normal')!.path)).toBe('roboto-slab-latin-400-normal.woff');
    expect(path.basename(slots.get('bold')!.path)).toBe('roboto-slab-latin-700-normal.woff');
    expect(slots.get('normal')!.siblings!.map((f) => path.basename(f))).toContain(
      'roboto-slab-cyrillic-400-normal.woff',
    );
    // A node_modules folder is searched for @fontsource/* too.
    expect(listFontPackages([nodeModules])).toContain(pkg);
  });

  it('Markdown: "Roboto Slab" draws Latin, accented and Cyrillic letters with the package faces (no Noto fallback), bold with the 700 face', async () => {
    const pdf = await engine.generate({
      fontFamily: 'Roboto Slab',
      logo: false,
      includeTimestamp: false,
      data: [{ content: 'Slab serif café Ёлка Привет' }, { content: '**Heavy**' }],
    });
    await qpdfCheck(pdf);
    const fonts = await pageFonts(pdf);
    expect(fonts.filter((f) => f.startsWith('RobotoSlab-Regular'))).toHaveLength(2); // the latin and the cyrillic file
    expect(fonts.some((f) => f.startsWith('RobotoSlab-Bold'))).toBe(true);
    expect(fonts.some((f) => f.startsWith('NotoSans'))).toBe(false);
    const text = (await popplerText(pdf)).join('\n');
    expect(text).toContain('Slab serif café Ёлка Привет');
    expect(text).toContain('Heavy');
  });

  it('fill: a template field and a value object name the family', async () => {
    const t = await template([
      field('shortText', { id: 'a', style: { fontFamily: 'Roboto Slab' } } as never),
      field('shortText', { id: 'b', rect: { x: 72, y: 140, width: 200, height: 20 } }),
    ]);
    const pdf = await engine.fill(t, {
      data: { a: 'From the template', b: { value: 'From the request', fontFamily: 'Roboto Slab', fontWeight: 'bold' } },
    });
    const fonts = await pageFonts(pdf);
    expect(fonts.some((f) => f.startsWith('RobotoSlab-Regular'))).toBe(true);
    expect(fonts.some((f) => f.startsWith('RobotoSlab-Bold'))).toBe(true);
    expect((await popplerText(pdf)).join('\n')).toContain('From the request');
  });

  it("names are exact and case-sensitive; the package wins over the offline catalogue's Roboto Slab", async () => {
    expect(await statusOf(engine.generate({ fontFamily: 'roboto slab', data: [{ content: 'x' }] }))).toEqual({
      status: 400,
      property: 'fontFamily',
    });
    expect(await statusOf(engine.generate({ fontFamily: 'RobotoSlab', data: [{ content: 'x' }] }))).toEqual({
      status: 400,
      property: 'fontFamily',
    });
    // Without the package the name is Debian's file (src/fonts/offline-catalogue.ts); with it, the package's.
    const bare = new FontRegistry({ systemDirectories: [] });
    expect(bare.resolve('Roboto Slab', 'normal').id.startsWith('/usr/share/fonts/opentype/roboto/slab/')).toBe(true);
    const packaged = new FontRegistry({ packages: [nodeModules], systemDirectories: [] });
    expect(packaged.resolve('Roboto Slab', 'normal').id.startsWith(pkg)).toBe(true);
  });

  it('castpress generate finds the family through CASTPRESS_FONT_PACKAGES', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'castpress-fontenv-'));
    try {
      await writeFile(
        path.join(dir, 'req.json'),
        JSON.stringify({ fontFamily: 'Roboto Slab', logo: false, data: [{ content: 'From the environment' }] }),
      );
      // Without it, the offline catalogue's Debian file (OpenType/CFF: CID Type 0C); with it, the package's TrueType.
      const without = await runCastpress(['generate', 'req.json', '-o', 'a.pdf'], dir);
      expect(without.code, without.stderr).toBe(0);
      const typeOf = async (file: string) =>
        (await pdffonts(new Uint8Array(await readFile(path.join(dir, file)))))
          .filter((r) => r.name.includes('RobotoSlab-Regular'))
          .map((r) => r.type);
      expect(await typeOf('a.pdf')).toEqual(['CID Type 0C']);
      const withEnv = await runCastpress(['generate', 'req.json', '-o', 'b.pdf'], dir, 120_000, {
        CASTPRESS_FONT_PACKAGES: nodeModules,
      });
      expect(withEnv.code, withEnv.stderr).toBe(0);
      expect(await typeOf('b.pdf')).toEqual(['CID TrueType']);
      expect(
        (await pageFonts(new Uint8Array(await readFile(path.join(dir, 'b.pdf'))))).some((f) =>
          f.startsWith('RobotoSlab-Regular'),
        ),
      ).toBe(true);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe('font packages: WOFF2-only faces', () => {
  it('woff2ToSfnt rebuilds every glyph, composites included, exactly as fontkit draws the WOFF2', () => {
    for (const name of ['latin-400-normal', 'cyrillic-700-normal', 'vietnamese-400-normal']) {
      const bytes = readFileSync(path.join(pkg, 'files', `roboto-slab-${name}.woff2`));
      const woff2 = fontkit.create(bytes) as Font;
      const rebuilt = fontkit.create(Buffer.from(woff2ToSfnt(bytes))) as Font;
      expect(rebuilt.numGlyphs).toBe(woff2.numGlyphs);
      let composites = 0;
      for (let id = 0; id < woff2.numGlyphs; id++) {
        const a = woff2.getGlyph(id)!;
        const b = rebuilt.getGlyph(id)!;
        expect(b.path.toSVG(), `${name} glyph ${id}`).toBe(a.path.toSVG());
        expect(b.advanceWidth).toBe(a.advanceWidth);
        if (((b as unknown as { _decode(): { numberOfContours: number } | null })._decode()?.numberOfContours ?? 0) < 0)
          composites++;
      }
      expect(composites, name).toBeGreaterThan(0);
    }
  });

  it('a package with only WOFF2 files draws with them (subset embedded, text extracts); a folder without metadata gives no family', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'castpress-fontpkg-'));
    try {
      const only2 = path.join(dir, '@fontsource', 'only-woff2');
      await mkdir(path.join(only2, 'files'), { recursive: true });
      await writeFile(
        path.join(only2, 'metadata.json'),
        JSON.stringify({
          id: 'only-woff2',
          family: 'Only Woff2',
          subsets: ['latin', 'cyrillic'],
          weights: [400],
          styles: ['normal'],
          defSubset: 'latin',
        }),
      );
      for (const subset of ['latin', 'cyrillic']) {
        await copyFile(
          path.join(pkg, 'files', `roboto-slab-${subset}-400-normal.woff2`),
          path.join(only2, 'files', `only-woff2-${subset}-400-normal.woff2`),
        );
      }
      await mkdir(path.join(dir, '@fontsource', 'no-metadata', 'files'), { recursive: true });
      expect(listFontPackages([dir])).toHaveLength(2);
      expect([...scanFontPackages(listFontPackages([dir])).keys()]).toEqual(['Only Woff2']);
      const woff2Engine = createEngine({ fonts: { packages: [dir], systemDirectories: [] } });
      try {
        const pdf = await woff2Engine.generate({
          fontFamily: 'Only Woff2',
          logo: false,
          includeTimestamp: false,
          data: [{ content: 'Crème brûlée, Ёлка и йод' }],
        });
        await qpdfCheck(pdf);
        const fonts = await pageFonts(pdf);
        expect(fonts.filter((f) => f.startsWith('RobotoSlab-Regular'))).toHaveLength(2);
        expect(fonts.some((f) => f.startsWith('NotoSans'))).toBe(false);
        expect((await popplerText(pdf)).join('\n')).toContain('Crème brûlée, Ёлка и йод');
      } finally {
        await woff2Engine.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
