/** The overlay's margin boxes drawn onto the body pages (src/html/in-page/overlay/ makes the overlay's sheets). */
import type { PDFDocument, PDFPage, PDFRef } from '@cantoo/pdf-lib';
import {
  drawArtifact,
  drawTile,
  dropPageStructure,
  recolourPages,
  stripPageMarks,
  tileForms,
} from '../../pdf/index.js';
import { RenderError } from '../../errors/index.js';
import type { CmykColours } from '../css/cmyk.js';
import type { OverlayGrid } from '../in-page/contract.js';

/**
 * Cuts each overlay page out of its sheet (page `total + sheet`) as a form XObject and draws it onto body
 * page `bodyPages[j]`, in a `tagged` document as a pagination artifact (margin boxes are not in the reading
 * order), and drops the sheets with their part of the structure tree. Body pages with nothing in their
 * margins have no overlay page.
 */
export function mergeOverlay(
  doc: PDFDocument,
  total: number,
  bodyPages: number[],
  grid: OverlayGrid,
  bleed: number,
  colours: CmykColours,
  tagged = true,
): void {
  const all = doc.getPages();
  const sheets = all.slice(total);
  dropPageStructure(doc, sheets);
  // An untagged print has no marks to strip: only its colours change.
  if (tagged) stripPageMarks(doc, sheets, colours);
  else recolourPages(doc, sheets, colours);
  sheets.forEach((sheet, s) => {
    const layout = grid.sheets[s];
    // Each overlay page on this sheet with its body page; one the print does not have is left unused.
    const tiles = grid.tiles.flatMap((t, j) =>
      t.sheet === s && bodyPages[j] !== undefined && bodyPages[j] < total
        ? [{ index: t.index, body: bodyPages[j] }]
        : [],
    );
    if (!layout || tiles.length === 0) return;
    const { x, y, height } = sheet.getMediaBox();
    const forms = tileForms(
      doc,
      sheet,
      { left: x, top: y + height, pitch: layout.pitch, cols: layout.cols, rows: layout.rows },
      tiles.map((t) => ({ index: t.index, width: layout.tile[0], height: layout.tile[1] })),
    );
    // Chromium's own content always reads; a sheet that does not would lose every page's margin boxes unseen.
    if (!forms) throw new RenderError('The margin boxes printed by Chromium could not be read back', 500);
    tiles.forEach((t, k) => draw(all[t.body]!, forms[k]!, layout.tile[1], bleed, tagged));
  });
  for (let i = all.length - 1; i >= total; i--) doc.removePage(i);
}

function draw(body: PDFPage, form: PDFRef, tileHeight: number, bleed: number, tagged: boolean): void {
  // Page sizes match up to Chromium's 1/300 in quantisation; align top edges (of the page, inside a bleed).
  const at = (): void => drawTile(body, form, bleed * 0.75, body.getHeight() - bleed * 0.75 - tileHeight);
  if (tagged) drawArtifact(body, 'Pagination', at);
  else at();
}
