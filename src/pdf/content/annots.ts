/**
 * Putting an annotation on a page without touching its content. pdf-lib's `addAnnot` normalises
 * the page first, which wraps its content streams in q/Q (two new content streams and a new
 * /Contents): after a signature that is a page-content change no signature allows (the
 * placeholders and mark fields of a document signed elsewhere).
 */
import { PDFArray, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import { PDF } from '../document/names.js';

export function addAnnotation(page: PDFPage, ref: PDFRef): void {
  const annots = page.node.lookupMaybe(PDF.Annots, PDFArray);
  if (annots) annots.push(ref);
  else page.node.set(PDF.Annots, page.doc.context.obj([ref]));
}
