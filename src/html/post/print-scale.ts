import { constants, inflateSync } from 'node:zlib';
import { PDFArray, PDFName, PDFRawStream, type PDFPage } from '@cantoo/pdf-lib';

const NUMBER = String.raw`(-?(?:\d+\.?\d*|\.\d+))`;
const CM = new RegExp(`${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+${NUMBER}\\s+cm\\b`, 'g');

/**
 * The factor by which Chromium scaled a printed page's content down (1 when it did not). Chromium
 * shrinks every page when content overflows a page area to the right; the destinations it writes
 * keep the unscaled layout, so the scale is read where it is applied: Chromium 156 opens each page's
 * content with two scaling `cm` operators (device units → points, then CSS px → device units), whose
 * product is 0.75 (pt per px) times the factor. Any other shape of stream reads as 1 (not scaled).
 */
export function printScale(page: PDFPage): number {
  const contents = page.node.Contents();
  const first = contents instanceof PDFArray ? contents.lookup(0) : contents;
  if (!(first instanceof PDFRawStream)) return 1;
  const filter = first.dict.lookup(PDFName.of('Filter'));
  const raw = first.getContents();
  let head: Uint8Array;
  try {
    // Only the stream's start is needed: the first 2 KB of deflated input, flushed, hold it.
    head =
      filter === undefined
        ? raw.subarray(0, 512)
        : filter === PDFName.of('FlateDecode')
          ? inflateSync(raw.subarray(0, 2048), { finishFlush: constants.Z_SYNC_FLUSH })
          : new Uint8Array();
  } catch {
    return 1;
  }
  const text = Buffer.from(head.subarray(0, 512)).toString('latin1');
  const ops = [...text.matchAll(CM)].slice(0, 2).map((m) => m.slice(1, 7).map(Number));
  if (ops.length < 2 || ops.some(([, b, c]) => b !== 0 || c !== 0)) return 1;
  const product = Math.abs(ops[0]![0]! * ops[1]![0]!);
  const scale = product / 0.75;
  return scale > 0.2 && scale < 1 - 1e-3 ? scale : 1;
}
