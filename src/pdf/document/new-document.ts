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
