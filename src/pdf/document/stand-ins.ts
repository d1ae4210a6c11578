/**
 * Streams made to stand in for a page's content while the page is drawn elsewhere as a form (HTML's
 * overlay pages): once the page has left the document and the form holds its content, nothing names the
 * stand-in, and a write leaves it out. Only the pages' /Contents name a stand-in.
 */
import { PDFArray, PDFName, PDFRef, type PDFContext, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';

const standIns = new WeakMap<PDFContext, Set<PDFRef>>();

/**
 * The references a page's /Contents holds: the stream's, or an array's and those in it. Read from the
 * entry itself: pdf-lib's `Contents()` gives the stream it names, not the reference.
 */
export function contentRefs(doc: PDFDocument, page: PDFPage): PDFRef[] {
  const entry = page.node.get(PDFName.of('Contents'));
  const value = entry instanceof PDFRef ? doc.context.lookup(entry) : entry;
  const inArray = value instanceof PDFArray ? value.asArray().filter((r) => r instanceof PDFRef) : [];
  return entry instanceof PDFRef ? [entry, ...inArray] : inArray;
}

/** Records `ref` as a stand-in of `doc`. */
export function addStandIn(doc: PDFDocument, ref: PDFRef): void {
  const set = standIns.get(doc.context) ?? new Set<PDFRef>();
  set.add(ref);
  standIns.set(doc.context, set);
}

/** Deletes the stand-ins of `doc` that no page of it draws any more; how many. */
export function dropUnusedStandIns(doc: PDFDocument): number {
  const set = standIns.get(doc.context);
  if (!set || set.size === 0) return 0;
  const drawn = new Set(doc.getPages().flatMap((page) => contentRefs(doc, page)));
  let dropped = 0;
  for (const ref of set) {
    if (drawn.has(ref)) continue;
    doc.context.delete(ref);
    set.delete(ref);
    dropped++;
  }
  return dropped;
}
