import { describe, expect, it } from 'vitest';
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@cantoo/fontkit';
import { PDFDocument, StandardFonts, rgb, type PDFPage } from '@cantoo/pdf-lib';
import { readText, pageText, readFields, qpdfCheck, pageCount } from './helpers/pdf.js';
import { renderPages } from './helpers/render.js';

async function sample(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([200, 100]);
  const font = await doc.embedFont(StandardFonts.Helvetica);
  page.drawText('Hello', { x: 20, y: 70, size: 12, font, color: rgb(0, 0, 0) });
  page.drawRectangle({ x: 0, y: 0, width: 100, height: 20, color: rgb(1, 0, 0) });
  const form = doc.getForm();
  const tf = form.createTextField('name');
  tf.setText('Ada');
  tf.addToPage(page, { x: 110, y: 10, width: 80, height: 20, font });
  return doc.save();
}

describe('test harness', () => {
  it('reads text with top-left positions', async () => {
    const pdf = await sample();
    const pages = await readText(pdf);
    expect(pages).toHaveLength(1);
    const hello = pages[0].items.find((i) => i.str === 'Hello');
    expect(hello).toBeDefined();
    expect(hello!.x).toBeCloseTo(20, 0);
    expect(hello!.baseline).toBeCloseTo(30, 0);
    expect(hello!.y).toBeCloseTo(18, 0);
    expect((await pageText(pdf))[0]).toContain('Hello');
    expect(await pageCount(pdf)).toBe(1);
  });

  it('reads form fields back', async () => {
    const fields = await readFields(await sample());
    expect(fields).toEqual([
      expect.objectContaining({ name: 'name', type: 'Tx', value: 'Ada', page: 0, readOnly: false }),
    ]);
  });

  it('renders pixels where things were drawn', async () => {
    const [page] = await renderPages(await sample(), 1);
    const at = (x: number, y: number) =>
      Array.from(page.rgba.slice((y * page.width + x) * 4, (y * page.width + x) * 4 + 3));
    expect(at(50, 90)).toEqual([255, 0, 0]); // the red box at the bottom
    expect(at(50, 50)).toEqual([255, 255, 255]);
    // Form widgets are drawn from their appearance streams (the text field's "Ada" at x 110–190, y 70–90).
    let inked = 0;
    for (let y = 70; y < 90; y++) for (let x = 110; x < 190; x++) if (at(x, y).some((c) => c < 128)) inked++;
    expect(inked).toBeGreaterThan(10);
  });

  it('qpdf accepts a good file and rejects a broken one', async () => {
    await qpdfCheck(await sample());
    const broken = new TextEncoder().encode('%PDF-1.7\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF');
    await expect(qpdfCheck(broken)).rejects.toThrow(/qpdf --check failed/);
  });
});

describe('golden images', () => {
  it('match the reference and catch a change', async () => {
    const { expectGolden } = await import('./helpers/golden.js');
    await expectGolden('harness/sample', await sample());
    if (process.env.GOLDEN_UPDATE === '1') return;
    const doc = await PDFDocument.load(await sample());
    doc.getPage(0).drawRectangle({ x: 120, y: 60, width: 60, height: 30, color: rgb(0, 0, 1) });
    await expect(expectGolden('harness/sample', await doc.save())).rejects.toThrow(/pixels differ/);
  });
});

describe('standard-14 fonts in the renderer', () => {
  // The fixtures use non-embedded standard fonts (Helvetica in pdf-lib's forms). pdfjs must draw them
  // from its own standard_fonts data (Helvetica = LiberationSans), never from whatever the machine has.
  async function inkOf(
    draw: (doc: PDFDocument) => Promise<Parameters<PDFPage['drawText']>[1]>,
  ): Promise<Uint8ClampedArray> {
    const doc = await PDFDocument.create();
    doc.registerFontkit(fontkit);
    const page = doc.addPage([220, 40]);
    page.drawText('Hamburgefonstiv 0123', { x: 10, y: 14, size: 16, ...(await draw(doc)) });
    const [rendered] = await renderPages(await doc.save(), 2);
    return rendered.rgba;
  }
  const differing = (a: Uint8ClampedArray, b: Uint8ClampedArray): number => {
    let n = 0;
    for (let i = 0; i < a.length; i += 4) if (Math.abs(a[i] - b[i]) > 96) n++;
    return n;
  };
  const inked = (a: Uint8ClampedArray): number => {
    let n = 0;
    for (let i = 0; i < a.length; i += 4) if (a[i] < 128) n++;
    return n;
  };

  it('draw Helvetica with the LiberationSans of pdfjs-dist/standard_fonts', async () => {
    // Located independently of the helper under test.
    const pdfjsRoot = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
    const liberation = await readFile(path.join(pdfjsRoot, 'standard_fonts', 'LiberationSans-Regular.ttf'));
    const standard = await inkOf(async (doc) => ({ font: await doc.embedFont(StandardFonts.Helvetica) }));
    const embedded = await inkOf(async (doc) => ({ font: await doc.embedFont(liberation, { subset: true }) }));
    const times = await inkOf(async (doc) => ({ font: await doc.embedFont(StandardFonts.TimesRoman) }));
    // Real glyphs, not missing-glyph boxes or nothing.
    expect(inked(standard)).toBeGreaterThan(1500);
    // Same outlines as the file pdfjs ships (a system sans or serif differs in thousands of pixels).
    expect(differing(standard, embedded)).toBeLessThan(inked(standard) * 0.02);
    // And the standard faces are told apart: Times is not drawn with the Helvetica data.
    expect(differing(standard, times)).toBeGreaterThan(inked(standard) * 0.3);
  });
});
