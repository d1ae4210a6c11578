/** The overlay's margin boxes drawn onto the body pages (src/html/in-page/overlay.ts makes the overlay pages). */
import type { PDFDocument, PDFPage } from '@cantoo/pdf-lib';
import { drawArtifact, dropPageStructure, stripPageMarks } from '../../pdf/index.js';
import type { CmykColours } from '../css/cmyk.js';

/**
 * Draws overlay page `total + i` onto body page `i` as a pagination artifact (margin boxes are not
 * in the reading order) and drops the overlay pages with their part of the structure tree.
 */
export async function mergeOverlay(
  doc: PDFDocument,
  total: number,
  bleed: number,
  colours: CmykColours,
): Promise<void> {
  const all = doc.getPages();
  const overlays = all.slice(total, total * 2);
  dropPageStructure(doc, all.slice(total));
  if (overlays.length > 0) {
    stripPageMarks(doc, overlays, colours);
    const embedded = await doc.embedPages(overlays);
    embedded.forEach((e, i) => {
      const body: PDFPage = all[i]!;
      // Page sizes match up to Chromium's 1/300 in quantisation; align top edges (of the page, inside a bleed).
      drawArtifact(body, 'Pagination', () =>
        body.drawPage(e, { x: bleed * 0.75, y: body.getHeight() - bleed * 0.75 - e.height }),
      );
    });
  }
  for (let i = all.length - 1; i >= total; i--) doc.removePage(i);
}
