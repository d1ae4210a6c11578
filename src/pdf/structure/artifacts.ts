/**
 * Artifacts (ISO 32000-1 §14.8.2.2): content that is not part of the document's reading order —
 * page backgrounds, running headers and footers, printer's marks. A tagged page has every mark
 * either in a structure element's marked content or in an artifact (PDF/UA-1 §7.1).
 */
import { deflateSync } from 'node:zlib';
import {
  PDFArray,
  PDFName,
  PDFRef,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames as Ops,
  PDFRawStream,
  endMarkedContent,
  type PDFDocument,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { pageContent } from '../content/drop-glyphs.js';
import { markUncovered, stripMarks } from './marked-content.js';
import { addStandIn, contentRefs } from '../document/stand-ins.js';
import { cmykContent, cmykXObjects, type CmykColours } from '../content/device-cmyk.js';

/** §14.8.2.2.2: Pagination (running heads, page numbers), Layout (rules, backgrounds that only structure), Page (printer's marks). */
export type ArtifactType = 'Pagination' | 'Layout' | 'Page';

/** A content stream holding `bytes`, compressed (zlib is native: pako takes ~10× longer on a 50 KB page). */
function contentStream(doc: PDFDocument, bytes: Uint8Array): PDFRawStream {
  const dict = doc.context.obj({ Filter: 'FlateDecode' });
  const data = deflateSync(bytes);
  dict.set(PDFName.of('Length'), PDFNumber.of(data.length));
  return PDFRawStream.of(dict, data);
}

function rewriteContent(
  doc: PDFDocument,
  page: PDFPage,
  edit: (content: Uint8Array) => Uint8Array | undefined,
  shared: ReadonlySet<PDFRef>,
): boolean {
  const content = pageContent(page.node.Contents(), (o) => doc.context.lookup(o));
  if (typeof content === 'string') return false;
  const changed = edit(content);
  if (!changed) return false;
  replaceContents(doc, page, contentStream(doc, changed), shared);
  return true;
}

/** `page` drawn by `stream` alone; its old streams leave the document (a clean write would otherwise keep them), unless another page draws them. */
function replaceContents(doc: PDFDocument, page: PDFPage, stream: PDFRawStream, shared: ReadonlySet<PDFRef>): PDFRef {
  const old = contentRefs(doc, page);
  const ref = doc.context.register(stream);
  page.node.set(PDFName.of('Contents'), ref);
  for (const r of old) if (!shared.has(r)) doc.context.delete(r);
  return ref;
}

/** Content streams (and arrays of them) more than one page of `doc` draws. */
function sharedStreams(doc: PDFDocument): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const shared = new Set<PDFRef>();
  for (const page of doc.getPages()) for (const ref of contentRefs(doc, page)) (seen.has(ref) ? shared : seen).add(ref);
  return shared;
}

/** `edit` after the stand-in colours of `colours` became CMYK (`cmykContent`), in one rewrite. */
function withColours(
  colours: CmykColours | undefined,
  edit: (content: Uint8Array) => Uint8Array | undefined,
): (content: Uint8Array) => Uint8Array | undefined {
  if (!colours || colours.size === 0) return edit;
  return (content) => {
    const coloured = cmykContent(content, colours);
    return edit(coloured ?? content) ?? coloured;
  };
}

/**
 * Wraps the marks of `pages` that are neither tagged nor artifacts (Chromium leaves page backgrounds,
 * its own margin boxes and decorative images unmarked) in artifacts, and turns `colours` into DeviceCMYK
 * on the way (form XObjects included). Each changed page gets one new content stream; a page with
 * nothing to change keeps its own. Returns how many pages changed.
 */
export function markArtifacts(doc: PDFDocument, pages: PDFPage[] = doc.getPages(), colours?: CmykColours): number {
  let changed = colours ? cmykXObjects(doc, pages, colours) : 0;
  const edit = withColours(colours, markUncovered);
  const shared = sharedStreams(doc);
  for (const page of pages) if (rewriteContent(doc, page, edit, shared)) changed++;
  return changed;
}

/**
 * Turns `colours` into DeviceCMYK on `pages` (form XObjects included) and marks nothing: for untagged
 * prints, whose marks are no one's reading order. Returns how many pages or XObjects changed.
 */
export function recolourPages(doc: PDFDocument, pages: PDFPage[] = doc.getPages(), colours?: CmykColours): number {
  if (!colours || colours.size === 0) return 0;
  let changed = cmykXObjects(doc, pages, colours);
  const shared = sharedStreams(doc);
  for (const page of pages) if (rewriteContent(doc, page, (c) => cmykContent(c, colours), shared)) changed++;
  return changed;
}

/**
 * Takes the marked-content operators out of `pages` (their structure is dropped with
 * `dropPageStructure`): for pages that are drawn onto others as a whole, inside an artifact, and then
 * leave the document. Each page is left drawn by one stream made here, its own streams deleted: once the
 * page has left and the form XObject that draws it holds its content, a clean write (`rewritePdf`) leaves
 * the stand-in out (document/stand-ins.ts), where the page's own streams would stay in the file. A page with no
 * marks keeps its stream's bytes (one stream: copied, neither inflated nor deflated here); the form
 * reads the same content either way.
 */
export function stripPageMarks(doc: PDFDocument, pages: PDFPage[], colours?: CmykColours): void {
  if (colours) cmykXObjects(doc, pages, colours);
  const edit = withColours(colours, stripMarks);
  const shared = sharedStreams(doc);
  for (const page of pages) {
    const content = pageContent(page.node.Contents(), (o) => doc.context.lookup(o));
    if (typeof content === 'string') continue;
    const edited = edit(content);
    const refs = contentRefs(doc, page);
    const single = refs.length === 1 ? doc.context.lookup(refs[0]) : undefined;
    // pageContent ends every stream with a newline; the form's reader adds one after the last stream itself.
    const stream = edited
      ? contentStream(doc, edited)
      : single instanceof PDFRawStream
        ? PDFRawStream.of(single.dict.clone(doc.context), single.getContents())
        : contentStream(doc, content.subarray(0, content.length - 1));
    addStandIn(doc, replaceContents(doc, page, stream, shared));
  }
}

/** Draws what `draw` adds to `page` as one artifact of `type`. */
export function drawArtifact(page: PDFPage, type: ArtifactType, draw: () => void): void {
  // An operand string is written as it is: the property list inline.
  page.pushOperators(PDFOperator.of(Ops.BeginMarkedContentSequence, [PDFName.of('Artifact'), `<< /Type /${type} >>`]));
  draw();
  page.pushOperators(endMarkedContent());
}
