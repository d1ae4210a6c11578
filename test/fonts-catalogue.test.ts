/**
 * Web-font catalogue names: a folder laid out like the Google Fonts
 * repository (ofl/<family>/<Family>-<Style>.ttf) given as a font directory
 * resolves its families by exact, case-sensitive name in Markdown and fill.
 * System font folders are switched off so the face can only come from it.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { statusOf } from './helpers/errors.js';
import { field, pageFonts, template } from './fixtures/fill/templates.js';

const catalogue = path.join(path.dirname(fileURLToPath(import.meta.url)), 'fixtures', 'font-catalogue');
const engine = createEngine({ fonts: { directories: [catalogue], systemDirectories: [] } });
const bare = createEngine({ fonts: { systemDirectories: [] } });
afterAll(async () => {
  await engine.close();
  await bare.close();
});

/** Subset names carry a suffix after the PostScript name. */
const isCatalogueFace = (name: string) => name.startsWith('NotoSerifDisplay-Regular');

describe('catalogue font names', () => {
  it('Markdown: fontFamily "Noto Serif Display" draws with the catalogue face', async () => {
    const pdf = await engine.generate({
      fontFamily: 'Noto Serif Display',
      logo: false,
      data: [{ content: 'Catalogue face' }],
    });
    expect((await pageFonts(pdf)).filter(isCatalogueFace)).toHaveLength(1);
  });

  it('fill: a field styled with the catalogue family', async () => {
    const t = await template([
      field('shortText', { id: 'name', style: { fontFamily: 'Noto Serif Display' } } as never),
    ]);
    const pdf = await engine.fill(t, { data: { name: 'Catalogue face' } });
    expect((await pageFonts(pdf)).filter(isCatalogueFace)).toHaveLength(1);
    const viaRequest = await engine.fill(await template([field('shortText', { id: 'name' })]), {
      data: { name: { value: 'x', fontFamily: 'Noto Serif Display' } },
    });
    expect((await pageFonts(viaRequest)).filter(isCatalogueFace)).toHaveLength(1);
  });

  it('names are exact and case-sensitive (400 on the property); without the catalogue the name is unknown', async () => {
    expect(await statusOf(engine.generate({ fontFamily: 'noto serif display', data: [{ content: 'x' }] }))).toEqual({
      status: 400,
      property: 'fontFamily',
    });
    expect(
      (
        await statusOf(
          engine.fill(await template([field('shortText', { id: 'name' })]), {
            data: { name: { value: 'x', fontFamily: 'Noto serif Display' } },
          }),
        )
      ).status,
    ).toBe(400);
    expect((await statusOf(bare.generate({ fontFamily: 'Noto Serif Display', data: [{ content: 'x' }] }))).status).toBe(
      400,
    );
  });
});

describe('web-font files in a font folder', () => {
  it('finds families in .woff and .woff2 files (name and OS/2 read from the compressed tables) and embeds them', async () => {
    const { cpSync, mkdtempSync, rmSync } = await import('node:fs');
    const { tmpdir } = await import('node:os');
    const folder = mkdtempSync(path.join(tmpdir(), 'castpress-woff-'));
    // @fontsource/roboto-slab, a dependency (package.json): Latin regular as WOFF2, bold as WOFF 1.0.
    const files = path.resolve('node_modules', '@fontsource', 'roboto-slab', 'files');
    cpSync(path.join(files, 'roboto-slab-latin-400-normal.woff2'), path.join(folder, 'regular.woff2'));
    cpSync(path.join(files, 'roboto-slab-latin-700-normal.woff'), path.join(folder, 'bold.woff'));
    const web = createEngine({ fonts: { directories: [folder], systemDirectories: [] } });
    try {
      const pdf = await web.generate({
        fontFamily: 'Roboto Slab',
        logo: false,
        data: [{ content: 'Regular and **bold** from web fonts' }],
      });
      const fonts = await pageFonts(pdf);
      expect(fonts.some((n) => n.startsWith('RobotoSlab-Regular'))).toBe(true);
      expect(fonts.some((n) => n.startsWith('RobotoSlab-Bold'))).toBe(true);
    } finally {
      await web.close();
      rmSync(folder, { recursive: true, force: true });
    }
  });
});
