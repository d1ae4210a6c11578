/**
 * The server's watermark as an appended update (src/pdf UpdateSession), against
 * the alternative: pdf-lib load + the same stamp + a full save. On the W-9's flat fill
 * output (6 pages) and on the 117-page book: the update writes the pages and a font,
 * the full save rewrites every object. Size rows: bytes added to the input.
 */
import { PDFDocument, ParseSpeeds, StandardFonts, degrees, rgb } from '@cantoo/pdf-lib';
import { createEngine } from '../src/index.js';
import { watermarkPdf, WATERMARK_TEXT } from '../src/server/index.js';
import { corpusPdf, w9Data, w9Template } from '../test/fixtures/fill/corpus.js';
import { interleaved, type BenchRow } from './types.js';

/** The former implementation: parse, stamp every page, save the whole document. */
async function fullSave(bytes: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(bytes, { updateMetadata: false, parseSpeed: ParseSpeeds.Fastest });
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const page of doc.getPages()) {
    const { width, height } = page.getSize();
    page.drawText(WATERMARK_TEXT, {
      x: width * 0.1,
      y: height * 0.1,
      size: 36,
      font,
      color: rgb(0.8, 0.1, 0.1),
      opacity: 0.3,
      rotate: degrees(45),
    });
  }
  return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY });
}

export async function run(): Promise<BenchRow[]> {
  const engine = createEngine();
  try {
    const { template: w9, fields } = await w9Template();
    const w9Out = await engine.fill(w9, { data: w9Data(fields) });
    const book = corpusPdf('plain_geotopo_117p.pdf');
    const rows: BenchRow[] = [];
    for (const [name, pdf] of [
      ['W-9 fill output', w9Out],
      ['117-page book', book],
    ] as const) {
      const [updateMs, saveMs] = await interleaved(
        () => watermarkPdf(pdf),
        () => fullSave(pdf),
        9,
      );
      const added = (await watermarkPdf(pdf)).byteLength - pdf.byteLength;
      rows.push({
        name: `watermark ${name}: appended update vs pdf-lib load+stamp+full save`,
        value: updateMs,
        unit: 'ms',
        baseline: saveMs,
        ratio: updateMs / saveMs,
      });
      rows.push({
        name: `watermark ${name}: bytes appended`,
        value: added / 1024,
        unit: 'KiB',
        baseline: pdf.byteLength / 1024,
        ratio: added / pdf.byteLength,
      });
    }
    return rows;
  } finally {
    await engine.close();
  }
}
