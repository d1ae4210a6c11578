/** The overlay's margin boxes drawn onto the body pages (src/html/in-page/overlay.ts makes the overlay pages). */
import type { PDFDocument, PDFPage } from '@cantoo/pdf-lib';
import { drawArtifact, dropPageStructure, recolourPages, stripPageMarks } from '../../pdf/index.js';
import type { CmykColours } from '../css/cmyk.js';

/**
 * Draws overlay page `total + j` onto body page `bodyPages[j]`, in a `tagged` document as a pagination
 * artifact (margin boxes are not in the reading order), and drops the overlay pages with their part of
 * the structure tree. Body pages with nothing in their margins have no overlay page.
 */
export async function mergeOverlay(
  doc: PDFDocument,
  total: number,
  bodyPages: number[],
  bleed: number,
  colours: CmykColours,
  tagged = true,
): Promise<void> {
  const all = doc.getPages();
  // Each overlay page with its body page; one past the list, or for a page the print does not have, is left unused.
  const pairs = all
    .slice(total)
    .flatMap((overlay, j) =>
      bodyPages[j] !== undefined && bodyPages[j] < total ? [{ overlay, body: bodyPages[j] }] : [],
    );
  dropPageStructure(doc, all.slice(total));
  if (pairs.length > 0) {
    const overlays = pairs.map((p) => p.overlay);
    // An untagged print has no marks to strip: only its colours change.
    if (tagged) stripPageMarks(doc, overlays, colours);
    else recolourPages(doc, overlays, colours);
    const embedded = await doc.embedPages(overlays);
    embedded.forEach((e, j) => {
      const body: PDFPage = all[pairs[j]!.body]!;
      // Page sizes match up to Chromium's 1/300 in quantisation; align top edges (of the page, inside a bleed).
      const draw = (): void => body.drawPage(e, { x: bleed * 0.75, y: body.getHeight() - bleed * 0.75 - e.height });
      if (tagged) drawArtifact(body, 'Pagination', draw);
      else draw();
    });
  }
  for (let i = all.length - 1; i >= total; i--) doc.removePage(i);
}
