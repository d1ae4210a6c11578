import type { PDFDocument } from '@cantoo/pdf-lib';
import { loadPdf } from './load.js';
import { UpdateSession } from './update.js';

/**
 * Appends every page of `pages` (a PDF) after the last page of `pdf`, as one
 * incremental update: the bytes of `pdf` stay an exact prefix, so signatures
 * already in it stay valid (a certificate of completion goes in this way, before
 * the seal).
 */
export async function appendPages(
  pdf: Uint8Array,
  pages: Uint8Array,
  options: { property?: string; edit?: (doc: PDFDocument) => void } = {},
): Promise<Uint8Array> {
  const property = options.property ?? 'pages';
  const session = await UpdateSession.open(pdf, 'pdf');
  // Other changes that belong in the same update (e.g. removing placeholders), made by the caller.
  options.edit?.(session.doc);
  // The hardened loader, as for every input: bounded parsing, decrypted when no password is needed.
  const source = await loadPdf(pages, property);
  const copied = await session.doc.copyPages(source, source.getPageIndices());
  for (const page of copied) session.doc.addPage(page);
  return session.commit();
}
