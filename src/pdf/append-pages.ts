import { PDFDocument } from '@cantoo/pdf-lib';
import { InvalidPdfError } from '../errors/index.js';
import { UpdateSession } from './update.js';

/**
 * Appends every page of `pages` (a PDF) after the last page of `pdf`, as one
 * incremental update: the bytes of `pdf` stay an exact prefix, so signatures
 * already in it stay valid (a certificate of completion goes in this way, before
 * the seal).
 */
export async function appendPages(pdf: Uint8Array, pages: Uint8Array, options: { property?: string; edit?: (doc: PDFDocument) => void } = {}): Promise<Uint8Array> {
  const property = options.property ?? 'pages';
  const session = await UpdateSession.open(pdf, 'pdf');
  // Other changes that belong in the same update (e.g. removing placeholders), made by the caller.
  options.edit?.(session.doc);
  let source: PDFDocument;
  try {
    source = await PDFDocument.load(pages, { updateMetadata: false });
  } catch (e) {
    throw new InvalidPdfError('Not a readable PDF', property, { cause: e });
  }
  const copied = await session.doc.copyPages(source, source.getPageIndices());
  for (const page of copied) session.doc.addPage(page);
  return session.commit();
}
