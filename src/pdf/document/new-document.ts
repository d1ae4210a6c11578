import { PDFDict, PDFDocument, PDFString } from '@cantoo/pdf-lib';
import { LazyObjects } from '../parse/lazy-objects.js';
import { dropUnusedStandIns } from './stand-ins.js';
import { PDF } from './names.js';

/** Options for a full save with pdf-lib (`doc.save`): no timer pauses, no regenerated appearances, no object streams. */
const FULL_SAVE = {
  useObjectStreams: false,
  updateFieldAppearances: false,
  addDefaultPage: false,
  // pdf-lib's default pauses on a timer (~1 ms) every 50 objects while writing.
  objectsPerTick: Number.POSITIVE_INFINITY,
} as const;

/**
 * What castpress writes into a document's information dictionary. Producer and creator are always
 * castpress; everything else only when given, so a document keeps what its maker (Chromium) wrote.
 */
export interface DocumentInfo {
  /** The title; `null` removes one the document already has. */
  title?: string | null;
  /** Viewers show the title in their window bar instead of the file name (/DisplayDocTitle). */
  showTitle?: boolean;
  author?: string;
  subject?: string;
  keywords?: readonly string[];
  /** Creation and modification date: the engine's pinned clock, never the wall clock. */
  date?: Date;
  /** The catalog's /Lang (ISO 32000-1 §14.9.2), for documents no structure writer gave one. */
  lang?: string;
}

/**
 * Sets `info` on `doc` (a new document or an update session's). The one place document information
 * is written, in one key order (author, subject, keywords, title, producer, creator, dates): new keys
 * of the Info dictionary come out in the order they are set, so the order is part of the bytes.
 */
export function setDocumentInfo(doc: PDFDocument, info: DocumentInfo): void {
  if (info.author) doc.setAuthor(info.author);
  if (info.subject) doc.setSubject(info.subject);
  // An empty list still writes an empty /Keywords, as it always has for `<meta name=keywords content=",">`.
  if (info.keywords) doc.setKeywords([...info.keywords]);
  if (typeof info.title === 'string') doc.setTitle(info.title, { showInWindowTitleBar: info.showTitle === true });
  else if (info.title === null) {
    const dict = doc.context.lookup(doc.context.trailerInfo.Info);
    if (dict instanceof PDFDict) dict.delete(PDF.Title);
  }
  doc.setProducer('castpress');
  doc.setCreator('castpress');
  if (info.lang) doc.catalog.set(PDF.Lang, PDFString.of(info.lang));
  if (info.date) {
    doc.setCreationDate(info.date);
    doc.setModificationDate(info.date);
  }
}

/**
 * A new, empty document with `info` set. pdf-lib's own metadata (its producer, wall-clock dates) is
 * off: the information is set here, first, so the Info dictionary has the same object number in every
 * document made this way.
 */
export async function createPdf(info?: DocumentInfo): Promise<PDFDocument> {
  const doc = await PDFDocument.create({ updateMetadata: false });
  if (info) setDocumentInfo(doc, info);
  return doc;
}

/**
 * Writes a document castpress built from nothing (Markdown output): pdf-lib's defaults, so object and
 * cross-reference streams on the 1.7 header it makes, without its timer pause every 50 objects.
 */
export async function savePdf(doc: PDFDocument): Promise<Uint8Array> {
  return doc.save({ objectsPerTick: Number.POSITIVE_INFINITY });
}

/** How `rewritePdf` writes. */
export interface RewriteOptions {
  /**
   * Objects of a lazily parsed file (parse/lazy-objects.ts) that nothing looked up are written as the
   * bytes they were read from, unparsed. Only for files castpress's own renderer wrote (Chromium's
   * print, whose structure tree is thousands of elements no step reads): an upload's objects go
   * through the hardened parse, so what is written is what was read.
   */
  copyUnread?: boolean;
}

/**
 * Writes a whole document again (`FULL_SAVE`: a cross-reference table, appearances left as they are):
 * for the rare clean write (merged inputs, stripped uploads, a file that cannot take an update, HTML's
 * overlay pages); every later change appends an update to these bytes.
 */
export async function rewritePdf(doc: PDFDocument, options: RewriteOptions = {}): Promise<Uint8Array> {
  // The forms that draw pages which left are made first: then their stand-in streams can go.
  await doc.flush();
  dropUnusedStandIns(doc);
  const objects: unknown = Reflect.get(doc.context, 'indirectObjects');
  if (options.copyUnread && objects instanceof LazyObjects)
    return objects.writingUnreadAsBytes(() => doc.save(FULL_SAVE));
  return doc.save(FULL_SAVE);
}

/** A PDF date of the form Chromium's print writes (`D:YYYYMMDDHHmmSS+HH'mm'`), in UTC. */
function printDate(date: Date): string {
  const d = date.toISOString();
  return `D:${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}+00'00'`;
}

/**
 * Chromium's print with `date` in place of the wall-clock time it writes as /CreationDate and /ModDate of its
 * document information (its first object), byte for byte the same length, so no offset moves: every later
 * step (an update over these bytes, an identifier seeded by them) then sees the engine's clock. A print whose
 * dates are not where or as Chromium writes them is returned as it is.
 */
export function pinPrintDates(pdf: Uint8Array, date: Date): Uint8Array {
  const head = Buffer.from(pdf.buffer, pdf.byteOffset, Math.min(pdf.length, 4096)).toString('latin1');
  const end = head.indexOf('endobj');
  if (end < 0) return pdf;
  const pinned = printDate(date);
  let out: Uint8Array | undefined;
  for (const m of head.slice(0, end).matchAll(/\/(?:CreationDate|ModDate)\s*\((D:[^)]*)\)/g)) {
    if (m[1]!.length !== pinned.length || m.index === undefined) continue;
    out ??= Uint8Array.from(pdf);
    out.set(Buffer.from(pinned, 'latin1'), m.index + m[0].indexOf('(') + 1);
  }
  return out ?? pdf;
}
