/**
 * Active content removed from an input PDF before anything is built on it: what a viewer runs
 * or opens by itself, or on a click, beyond moving inside the document or opening a web link.
 *
 * Removed: an /OpenAction that is an action other than a plain GoTo (a destination array stays);
 * /AA (automatic actions) on the catalog, pages, annotations and form fields; document JavaScript
 * (/Names /JavaScript); embedded files (/Names /EmbeddedFiles, /AF associated files, a portfolio's
 * /Collection, FileAttachment annotations); sound, movie, screen, rich-media and 3D annotations;
 * /A actions of annotations, fields and outline items whose chain (/Next) holds JavaScript, Launch,
 * SubmitForm, ImportData, GoToR, GoToE, GoTo3DView, Rendition, Sound, Movie or RichMediaExecute;
 * XFA. Kept: GoTo, URI (a link the reader clicks, shown by the viewer), Named, Hide, ResetForm, SetOCGState, Thread, Trans.
 *
 * An encrypted file that opens with the empty user password (an owner password only) is written out
 * decrypted: what is built on it later (signature fields, marks, signatures) is appended as
 * incremental updates, which an encrypted file cannot take without its encryption (the kernel does
 * not encrypt), and a signature over a decrypted update of an encrypted file is one no viewer
 * checks the same way. Its permissions (no printing, no changes) go with the encryption.
 *
 * A file with none of it is returned as it came (same bytes). Otherwise the file is written out
 * clean once (uploads are not signed yet; signatures an upload already carried no longer validate)
 * and objects nothing refers to any more are dropped, so the JavaScript and the attachments are
 * gone from the bytes, not just unreferenced: later updates keep this file as their prefix.
 */
import { PDFArray, PDFDict, PDFName, PDFRef, PDFStream, type PDFDocument, type PDFObject } from '@cantoo/pdf-lib';
import { loadPdfReporting } from './load.js';
import { PDF } from './names.js';
import { rewritePdf } from './new-document.js';

const DANGEROUS_ACTIONS = new Set([
  'JavaScript',
  'Launch',
  'SubmitForm',
  'ImportData',
  'GoToR',
  'GoToE',
  'GoTo3DView',
  'Rendition',
  'Sound',
  'Movie',
  'RichMediaExecute',
]);
/** Annotations that carry a file or play media. */
const MEDIA_ANNOTATIONS = new Set(['FileAttachment', 'Sound', 'Movie', 'Screen', 'RichMedia', '3D']);

const N = {
  AA: PDFName.of('AA'),
  AF: PDFName.of('AF'),
  Collection: PDFName.of('Collection'),
  EmbeddedFiles: PDFName.of('EmbeddedFiles'),
  JavaScript: PDFName.of('JavaScript'),
  OpenAction: PDFName.of('OpenAction'),
  S: PDFName.of('S'),
};

/** Bounds for walks over hostile structure (loadPdf already cut cycles in the page and field trees). */
const MAX_CHAIN = 1000;
const MAX_ITEMS = 1_000_000;

export interface StrippedPdf {
  /** The input itself when nothing was found, else the clean rewrite. */
  pdf: Uint8Array;
  /** What was removed, one short description each (`OpenAction JavaScript`, `page 1 /AA`, `embedded files`…); empty when nothing. */
  removed: string[];
  /** Pages of the document (read while it was loaded anyway: callers count pages against their limits). */
  pages: number;
  /** The input was encrypted (opened with the empty user password): `pdf` is its decrypted rewrite. */
  decrypted: boolean;
}

/** Removes the active content of `bytes` (see the file comment); a bad PDF is an `InvalidPdfError` naming `property`. */
export async function stripActiveContent(bytes: Uint8Array, property = 'pdf'): Promise<StrippedPdf> {
  const { doc, droppedXfa, decrypted } = await loadPdfReporting(bytes, property);
  const removed = new Set<string>();
  if (droppedXfa) removed.add('XFA form');
  stripCatalog(doc, removed);
  doc.getPages().forEach((page, i) => stripPage(doc, page.node, i + 1, removed));
  stripFields(doc, removed);
  stripOutlines(doc, removed);
  const pages = doc.getPageCount();
  if (removed.size === 0 && !decrypted) return { pdf: bytes, removed: [], pages, decrypted };
  dropUnreachable(doc);
  return { pdf: await rewritePdf(doc), removed: [...removed], pages, decrypted };
}

function stripCatalog(doc: PDFDocument, removed: Set<string>): void {
  const catalog = doc.catalog;
  const open = catalog.get(N.OpenAction);
  if (open !== undefined) {
    const resolved = doc.context.lookup(open);
    // A destination array only turns to a page; an action dictionary runs something unless it is a plain GoTo.
    if (!(resolved instanceof PDFArray)) {
      const danger = resolved instanceof PDFDict ? actionDanger(doc, resolved, true) : 'malformed';
      if (danger) {
        catalog.delete(N.OpenAction);
        removed.add(`OpenAction ${danger}`);
      }
    }
  }
  if (catalog.has(N.AA)) {
    catalog.delete(N.AA);
    removed.add('document /AA');
  }
  for (const key of [N.AF, N.Collection]) {
    if (catalog.has(key)) {
      catalog.delete(key);
      removed.add('embedded files');
    }
  }
  const names = catalog.lookup(PDF.Names);
  if (names instanceof PDFDict) {
    if (names.has(N.JavaScript)) {
      names.delete(N.JavaScript);
      removed.add('document JavaScript');
    }
    if (names.has(N.EmbeddedFiles)) {
      names.delete(N.EmbeddedFiles);
      removed.add('embedded files');
    }
  }
}

function stripPage(doc: PDFDocument, page: PDFDict, pageNum: number, removed: Set<string>): void {
  if (page.has(N.AA)) {
    page.delete(N.AA);
    removed.add(`page ${pageNum} /AA`);
  }
  if (page.has(N.AF)) {
    page.delete(N.AF);
    removed.add('embedded files');
  }
  const annots = page.lookup(PDF.Annots);
  if (!(annots instanceof PDFArray)) return;
  for (let i = annots.size() - 1; i >= 0; i--) {
    const annot = doc.context.lookup(annots.get(i));
    if (!(annot instanceof PDFDict)) continue;
    const subtype = annot.lookup(PDF.Subtype);
    const kind = subtype instanceof PDFName ? subtype.decodeText() : '';
    if (MEDIA_ANNOTATIONS.has(kind)) {
      annots.remove(i);
      removed.add(kind === 'FileAttachment' ? 'embedded files' : `page ${pageNum} ${kind} annotation`);
      continue;
    }
    stripActions(doc, annot, `page ${pageNum} ${kind || 'annotation'}`, removed);
  }
}

/** /AA of a field or annotation, and its /A when the action chain holds a dangerous action. */
function stripActions(doc: PDFDocument, dict: PDFDict, where: string, removed: Set<string>): void {
  if (dict.has(N.AA)) {
    dict.delete(N.AA);
    removed.add(`${where} /AA`);
  }
  if (dict.has(N.AF)) {
    dict.delete(N.AF);
    removed.add('embedded files');
  }
  const action = dict.lookup(PDF.A);
  if (action === undefined) return;
  const danger = action instanceof PDFDict ? actionDanger(doc, action, false) : 'malformed';
  if (danger) {
    dict.delete(PDF.A);
    removed.add(`${where} ${danger} action`);
  }
}

/** The dangerous type (or `malformed`) found along an action and its /Next chain; undefined when it is safe. `onlyGoTo`: anything but GoTo counts. */
function actionDanger(doc: PDFDocument, first: PDFDict, onlyGoTo: boolean): string | undefined {
  const seen = new Set<PDFDict>();
  const stack: PDFObject[] = [first];
  // Counted in steps, not dictionaries: an array holding itself (through a reference) has none.
  for (let steps = 0; stack.length > 0; steps++) {
    if (steps > MAX_CHAIN) return 'malformed';
    const obj = doc.context.lookup(stack.pop());
    if (obj === undefined) continue;
    if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) stack.push(obj.get(i));
      continue;
    }
    if (!(obj instanceof PDFDict)) return 'malformed';
    if (seen.has(obj)) continue;
    seen.add(obj);
    const s = obj.lookup(N.S);
    const type = s instanceof PDFName ? s.decodeText() : '';
    if (DANGEROUS_ACTIONS.has(type)) return type;
    if (onlyGoTo && type !== 'GoTo') return type || 'malformed';
    const next = obj.get(PDF.Next);
    if (next !== undefined) stack.push(next);
  }
  return undefined;
}

/** Every field of the AcroForm (widgets on pages were seen with their page too). */
function stripFields(doc: PDFDocument, removed: Set<string>): void {
  const form = doc.catalog.lookup(PDF.AcroForm);
  if (!(form instanceof PDFDict)) return;
  const stack: PDFObject[] = [form.get(PDF.Fields)].filter((x): x is PDFObject => x !== undefined);
  const seen = new Set<PDFDict>();
  for (let steps = 0; stack.length > 0 && steps < MAX_ITEMS; steps++) {
    const obj = doc.context.lookup(stack.pop());
    if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) stack.push(obj.get(i));
    } else if (obj instanceof PDFDict && !seen.has(obj)) {
      seen.add(obj);
      stripActions(doc, obj, 'form field', removed);
      const kids = obj.get(PDF.Kids);
      if (kids !== undefined) stack.push(kids);
    }
  }
}

/** Outline (bookmark) items: their /A runs on a click, as a link's does. */
function stripOutlines(doc: PDFDocument, removed: Set<string>): void {
  const root = doc.catalog.lookup(PDF.Outlines);
  if (!(root instanceof PDFDict)) return;
  const stack: PDFObject[] = [root];
  const seen = new Set<PDFDict>();
  for (let steps = 0; stack.length > 0 && steps < MAX_ITEMS; steps++) {
    const item = doc.context.lookup(stack.pop());
    if (!(item instanceof PDFDict) || seen.has(item)) continue;
    seen.add(item);
    if (item !== root) stripActions(doc, item, 'bookmark', removed);
    for (const key of [PDF.First, PDF.Next]) {
      const next = item.get(key);
      if (next !== undefined) stack.push(next);
    }
  }
}

/** Deletes every indirect object the trailer's /Root and /Info no longer reach (the removed scripts and files among them). */
function dropUnreachable(doc: PDFDocument): void {
  const context = doc.context;
  const reached = new Set<PDFRef>();
  const stack: unknown[] = [context.trailerInfo.Root, context.trailerInfo.Info];
  while (stack.length > 0) {
    const obj = stack.pop();
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      stack.push(context.lookup(obj));
    } else if (obj instanceof PDFDict) {
      for (const [, v] of obj.entries()) stack.push(v);
    } else if (obj instanceof PDFArray) {
      for (let i = 0; i < obj.size(); i++) stack.push(obj.get(i));
    } else if (obj instanceof PDFStream) {
      stack.push(obj.dict);
    }
  }
  const doomed = context
    .enumerateIndirectObjects()
    .filter(([ref]) => !reached.has(ref))
    .map(([ref]) => ref);
  for (const ref of doomed) context.delete(ref);
  // The trailer's /Size is one past the largest object number left (qpdf warns otherwise).
  context.largestObjectNumber = Math.max(
    0,
    ...[...reached].filter((r) => context.lookup(r) !== undefined).map((r) => r.objectNumber),
  );
}
