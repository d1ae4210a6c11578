/**
 * The kernel's tile splitter (src/pdf/content/tiles.ts): a hand-written sheet of 2×2 tiles with text, paths,
 * an image and nested q/Q across them, cut into one stream per tile. Each tile's stream holds only the units
 * drawn in it; the tiles drawn back as forms at their places render as the sheet itself (pdfjs).
 */
import { PDFDocument, PDFName, PDFRawStream, StandardFonts } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { drawTile, splitTiles, tileForms, type Box, type TileGrid } from '../src/pdf/index.js';
import { pageText } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';
import { compareImages } from './helpers/pixel-compare.js';

// Cells of 100×100 from the top-left of a 200×200 sheet: 0 top-left, 1 top-right, 2 bottom-left, 3 bottom-right.
const GRID: TileGrid = { left: 0, top: 200, pitch: [100, 100], cols: 2, rows: 2 };

const SHEET = [
  'q',
  '1 0 0 rg',
  'BT /F1 12 Tf 10 180 Td (Alpha) Tj ET',
  'BT /F1 12 Tf 110 180 Td (Bravo) Tj 0 -14 Td (Bravo2) Tj ET',
  '0 0 1 RG 2 w',
  '10 10 m 50 50 l S',
  'q 30 0 0 30 120 20 cm /Im1 Do Q',
  // A clip to the top-left tile: text whose origin lies outside it is drawn only there.
  'q 0 100 100 100 re W n',
  '  BT 0 g /F1 10 Tf 20 150 Td (Charlie) Tj ET',
  '  q 1 0 0 1 100 0 cm BT /F1 10 Tf -10 130 Td (Delta) Tj ET Q',
  'Q',
  // Text state set in a text object of one tile and used by another's (Tf persists past ET).
  'BT /F1 9 Tf 0 0.5 0 rg 10 60 Td (Echo) Tj ET',
  'BT 110 40 Td (Foxtrot) Tj ET',
  // A rectangle across all four tiles.
  '0.8 g 90 90 20 20 re f',
  'Q',
].join('\n');

const text = (b: Uint8Array): string => Buffer.from(b).toString('latin1');
const WORDS = ['Alpha', 'Bravo', 'Charlie', 'Delta', 'Echo', 'Foxtrot'];

describe('splitTiles', () => {
  it('gives each tile its own units and the state they need, and leaves out blocks that draw nothing there', () => {
    const image = { xobjectBox: (name: string) => (name === 'Im1' ? ([0, 0, 1, 1] as Box) : undefined) };
    const tiles = splitTiles(Buffer.from(SHEET, 'latin1'), GRID, [0, 1, 2, 3], image)!.map(text);
    const words = tiles.map((t) => WORDS.filter((w) => t.includes(`(${w})`)));
    expect(words).toEqual([['Alpha', 'Charlie', 'Delta'], ['Bravo'], ['Echo'], ['Foxtrot']]);
    expect(tiles.map((t) => t.includes('/Im1 Do'))).toEqual([false, false, false, true]);
    // An XObject whose box is unknown may paint anywhere: every tile draws it.
    expect(
      splitTiles(Buffer.from(SHEET, 'latin1'), GRID, [0, 1, 2, 3])!.every((t) => text(t).includes('/Im1 Do')),
    ).toBe(true);
    expect(tiles.map((t) => t.includes('10 10 m 50 50 l S'))).toEqual([false, false, true, false]);
    expect(tiles.every((t) => t.includes('90 90 20 20 re f'))).toBe(true);
    // The clip block draws in tile 0 only; everywhere else it is left out whole.
    expect(tiles.map((t) => t.includes('0 100 100 100 re'))).toEqual([true, false, false, false]);
    // Tile 2's path keeps the colour and width set before it; tile 3's Foxtrot the font and colour Echo set in tile 2.
    expect(tiles[2]).toMatch(/0 0 1 RG[\s\S]*2 w[\s\S]*10 10 m/);
    expect(tiles[3]).toMatch(/\/F1 9 Tf[\s\S]*0 0.5 0 rg[\s\S]*\(Foxtrot\)/);
    expect(tiles[3]).not.toContain('Td (Echo)');
    for (const t of tiles) {
      expect(t.match(/\bq\b/g)?.length ?? 0).toBe(t.match(/\bQ\b/g)?.length ?? 0);
      expect(t.match(/\bBT\b/g)?.length ?? 0).toBe(t.match(/\bET\b/g)?.length ?? 0);
    }
  });

  it('keeps unknown operators and content that does not place as state, without failing', () => {
    const odd = '/Sh0 sh\nq 5 0 0 5 150 150 cm BI /W 1 /H 1 /CS /G /BPC 8 ID \u0080 EI Q\n1 2 weird\nQ Q\n(unclosed';
    expect(splitTiles(Buffer.from(odd, 'latin1'), GRID, [0])).toBeUndefined();
    const tiles = splitTiles(Buffer.from(odd.replace('\n(unclosed', ''), 'latin1'), GRID, [0, 1, 2, 3])!.map(text);
    // A shading without a clip may paint anywhere: every tile has it. The inline image is in tile 1.
    expect(tiles.every((t) => t.includes('/Sh0 sh') && t.includes('1 2 weird'))).toBe(true);
    expect(tiles.map((t) => t.includes('BI'))).toEqual([false, true, false, false]);
  });

  it('draws back as the sheet: the four tile forms at their places render as the sheet itself', async () => {
    const doc = await PDFDocument.create();
    const font = doc.embedStandardFont(StandardFonts.Helvetica);
    const image = doc.context.register(
      PDFRawStream.of(
        doc.context.obj({
          Type: 'XObject',
          Subtype: 'Image',
          Width: 2,
          Height: 1,
          ColorSpace: 'DeviceRGB',
          BitsPerComponent: 8,
          Length: 6,
        }),
        Uint8Array.of(0, 160, 0, 200, 0, 200),
      ),
    );
    const sheet = doc.addPage([200, 200]);
    sheet.node.setFontDictionary(PDFName.of('F1'), font.ref);
    sheet.node.setXObject(PDFName.of('Im1'), image);
    sheet.node.set(PDFName.of('Contents'), doc.context.register(doc.context.stream(SHEET)));
    const forms = tileForms(
      doc,
      sheet,
      GRID,
      [0, 1, 2, 3].map((index) => ({ index, width: 100, height: 100 })),
    )!;
    // Page 2: the tiles drawn back where they were; pages 3–6: one tile each.
    const back = doc.addPage([200, 200]);
    forms.forEach((f, k) => drawTile(back, f, (k % 2) * 100, 100 - Math.floor(k / 2) * 100));
    for (const f of forms) drawTile(doc.addPage([100, 100]), f, 0, 0);
    const bytes = await doc.save();

    const [a, b] = (await renderPages(bytes, 2)).map((p) => ({ width: p.width, height: p.height, data: p.rgba }));
    const cmp = compareImages(a!, b!, { tolerance: 8, radius: 0 });
    expect(cmp.inkScore).toBe(1);
    expect(cmp.pixelScore).toBe(1);
    // Delta is clipped to its first letter: pdfjs reads only whole words here.
    const texts = (await pageText(bytes)).slice(2);
    expect(texts.map((t) => WORDS.filter((w) => new RegExp(`\\b${w}\\b`).test(t)))).toEqual([
      ['Alpha', 'Charlie'],
      ['Bravo'],
      ['Echo'],
      ['Foxtrot'],
    ]);
  });
});
