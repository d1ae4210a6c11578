import { StandardFonts, degrees, rgb } from '@cantoo/pdf-lib';
import { UpdateSession } from '../../pdf/index.js';

/** Drawn across every page of a development key's PDFs. WinAnsi only (Helvetica-Bold), so no font embedding. */
export const WATERMARK_TEXT = 'DEVELOPMENT \u2014 NOT FOR PRODUCTION';

/**
 * Stamps the watermark on every page after rendering, so fill and both
 * generate modes share one code path. The stamp is an incremental update
 * (src/pdf): the rendered bytes are an exact prefix of the output, only the
 * pages, their new content and the font are appended. A page whose content leaves the graphics
 * state changed (unbalanced cm, a clip) must not move or hide the stamp:
 * pdf-lib wraps existing content in q…Q when it normalises a page before the
 * first draw (its autoNormalizeCTM default); the tests hold it to that.
 */
export async function watermarkPdf(bytes: Uint8Array, text = WATERMARK_TEXT): Promise<Uint8Array> {
  const session = await UpdateSession.open(bytes);
  const doc = session.doc;
  const font = await doc.embedFont(StandardFonts.HelveticaBold);
  for (const page of doc.getPages()) {
    const box = page.getCropBox();
    const rotation = ((page.getRotation().angle % 360) + 360) % 360;
    const quarterTurn = rotation === 90 || rotation === 270;
    // The stamp runs bottom-left to top-right as the reader sees the page, whatever its /Rotate.
    const visualW = quarterTurn ? box.height : box.width;
    const visualH = quarterTurn ? box.width : box.height;
    const theta = Math.atan2(visualH, visualW);
    const angle = theta + (rotation * Math.PI) / 180;

    const diagonal = Math.hypot(box.width, box.height);
    const size = Math.max(8, Math.min(72, (0.75 * diagonal) / font.widthOfTextAtSize(text, 1)));
    const w = font.widthOfTextAtSize(text, size);
    const h = font.heightAtSize(size, { descender: false });
    const cx = box.x + box.width / 2;
    const cy = box.y + box.height / 2;
    // drawText rotates about the text origin: step back half the width and height along the rotated axes.
    const x = cx - (w / 2) * Math.cos(angle) + (h / 2) * Math.sin(angle);
    const y = cy - (w / 2) * Math.sin(angle) - (h / 2) * Math.cos(angle);
    page.drawText(text, {
      x,
      y,
      size,
      font,
      color: rgb(0.8, 0.1, 0.1),
      opacity: 0.3,
      rotate: degrees((angle * 180) / Math.PI),
    });
  }
  return session.commit();
}
