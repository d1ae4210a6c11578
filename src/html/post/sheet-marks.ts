/** Sheets larger than the page (docs/reference/html-css.md, "Sheets wider than the page"): the extra width, the trim box and bleed, crop and cross marks. */
import { rgb, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { type Margins, type SheetInfo as Sheet } from '../in-page/contract.js';
import { printScale } from './print-scale.js';
import { drawArtifact } from '../../pdf/index.js';

/**
 * The extra width the sheet needs when the print was still scaled down (0 when it was not). Chromium
 * scales every page by the largest right overflow of any page area; the first page's content width stands
 * in for that page's, with 5% to spare (the next pass checks again).
 */
export function widerSheet(sheet: Sheet, doc: PDFDocument): number {
  const first = doc.getPages()[0];
  const scale = first ? printScale(first) : 1;
  if (scale >= 1) return 0;
  const wanted = Math.ceil((sheet.area + sheet.extra) / scale - sheet.area + sheet.area * 0.05);
  // Chromium scales by at most 2: past that it clips, and no sheet helps; at the cap, no more passes.
  const capped = Math.min(wanted, 4 * sheet.area);
  return capped > sheet.extra ? capped : 0;
}

/**
 * Crops the sheet's extra width off every body page; with a bleed, the page becomes the trim box and the
 * whole sheet the bleed box, and `marks` are drawn in the bleed (crop marks at the corners, registration
 * crosses at the middle of each side), over the page's own bleed content; in a `tagged` document as artifacts.
 */
export function finishSheet(doc: PDFDocument, sheet: Sheet, pages: Margins[], tagged = true): void {
  const b = sheet.bleed * 0.75;
  doc
    .getPages()
    .slice(0, pages.length)
    .forEach((page, i) => {
      const box = page.getMediaBox();
      // The page's own width (Chromium rounds the sheet's to its device grid, so subtracting the extra is a little off).
      const w = pages[i]!.width * 0.75 + 2 * b;
      const h = box.height;
      page.setMediaBox(box.x, box.y, w, h);
      if (b <= 0) return;
      page.setBleedBox(box.x, box.y, w, h);
      page.setTrimBox(box.x + b, box.y + b, w - 2 * b, h - 2 * b);
      const draw = (): void => drawMarks(page, { x: box.x + b, y: box.y + b, w: w - 2 * b, h: h - 2 * b }, b, sheet);
      // Printer's marks are no part of the document (a page artifact, ISO 32000-1 §14.8.2.2.2).
      if (tagged) drawArtifact(page, 'Page', draw);
      else draw();
    });
}

function drawMarks(
  page: PDFPage,
  trim: { x: number; y: number; w: number; h: number },
  bleed: number,
  sheet: Sheet,
): void {
  const ink = { thickness: 0.25, color: rgb(0, 0, 0) };
  // Marks stay clear of the trim corner by a third of the bleed, at most 3pt.
  const gap = Math.min(3, bleed / 3);
  if (sheet.crop) {
    for (const [cx, sx] of [
      [trim.x, -1],
      [trim.x + trim.w, 1],
    ] as const) {
      for (const [cy, sy] of [
        [trim.y, -1],
        [trim.y + trim.h, 1],
      ] as const) {
        page.drawLine({ start: { x: cx + sx * gap, y: cy }, end: { x: cx + sx * bleed, y: cy }, ...ink });
        page.drawLine({ start: { x: cx, y: cy + sy * gap }, end: { x: cx, y: cy + sy * bleed }, ...ink });
      }
    }
  }
  if (sheet.cross) {
    const r = Math.max(1, (bleed - gap) * 0.3);
    const mid = bleed / 2;
    const centres = [
      { x: trim.x + trim.w / 2, y: trim.y - mid },
      { x: trim.x + trim.w / 2, y: trim.y + trim.h + mid },
      { x: trim.x - mid, y: trim.y + trim.h / 2 },
      { x: trim.x + trim.w + mid, y: trim.y + trim.h / 2 },
    ];
    for (const c of centres) {
      page.drawCircle({ x: c.x, y: c.y, size: r, borderWidth: 0.25, borderColor: rgb(0, 0, 0) });
      page.drawLine({ start: { x: c.x - r * 1.5, y: c.y }, end: { x: c.x + r * 1.5, y: c.y }, ...ink });
      page.drawLine({ start: { x: c.x, y: c.y - r * 1.5 }, end: { x: c.x, y: c.y + r * 1.5 }, ...ink });
    }
  }
}
