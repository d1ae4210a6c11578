/**
 * Marks on rotated pages: in per-signer mode a signer's mark is the appearance of a
 * field's widget (src/pdf/signature/form-marks.ts). On a page with /Rotate the appearance must be turned so
 * the reader sees it upright, as the one-seal mode's drawing of the same box (page content, drawn
 * through the page frame) shows it. Both are rendered with pdfjs (annotations drawn) and compared
 * pixel by pixel; a drawn stroke that rises to the right tells upright from turned.
 */
import { PDFDocument, degrees } from '@cantoo/pdf-lib';
import { describe, expect, it } from 'vitest';
import { appendFieldMarks } from '../src/pdf/index.js';
import { AppearanceWriter, type SignatureMark } from '../src/signing/index.js';
import { compareImages, type Rgba } from './helpers/pixel-compare.js';
import { renderPages } from './helpers/render.js';

const writer = new AppearanceWriter();

async function pageTurned(angle: number): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]).setRotation(degrees(angle));
  return doc.save();
}

// A box wider than tall, from the top-left of the page as shown; an "L"-like stroke and a rising one.
const rect = { x: 100, y: 150, width: 220, height: 60 };
const mark: SignatureMark = {
  page: 0,
  rect,
  role: 'signature',
  input: {
    type: 'drawn',
    strokes: [
      [
        { x: 0, y: 0 },
        { x: 0, y: 40 },
        { x: 120, y: 40 },
      ],
      [
        { x: 140, y: 40 },
        { x: 200, y: 0 },
      ],
    ],
  },
};

async function asField(angle: number): Promise<Uint8Array> {
  return appendFieldMarks(await pageTurned(angle), {
    create: [{ name: 'mark_a', kind: 'button', pageIndex: 0, rect }],
    appearances: await writer.appearancePages([mark]),
    set: [{ name: 'mark_a', appearancePage: 0 }],
  });
}

const asContent = async (angle: number) => writer.apply(await pageTurned(angle), [mark]);

function inkCount(image: Rgba): number {
  let n = 0;
  for (let i = 0; i < image.data.length; i += 4) if (image.data[i]! < 200) n++;
  return n;
}

describe('mark fields on rotated pages', () => {
  for (const angle of [0, 90, 180, 270]) {
    it(`shows the mark upright on a /Rotate ${angle} page, as the one-seal drawing does`, async () => {
      const [field] = await renderPages(await asField(angle));
      const [content] = await renderPages(await asContent(angle));
      const a = { width: content!.width, height: content!.height, data: content!.rgba };
      const b = { width: field!.width, height: field!.height, data: field!.rgba };
      expect(inkCount(a)).toBeGreaterThan(100);
      expect(inkCount(b)).toBeGreaterThan(100);
      // The same ink at the same place (within a couple of pixels: the two are drawn by different paths).
      const cmp = compareImages(a, b, { radius: 3 });
      expect(cmp.inkScore).toBeGreaterThan(0.9);
    }, 60_000);
  }
});
