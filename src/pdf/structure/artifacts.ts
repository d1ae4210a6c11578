/**
 * Artifacts (ISO 32000-1 §14.8.2.2): content that is not part of the document's reading order —
 * page backgrounds, running headers and footers, printer's marks. A tagged page has every mark
 * either in a structure element's marked content or in an artifact (PDF/UA-1 §7.1).
 */
import { promisify } from 'node:util';
import { deflate, deflateSync } from 'node:zlib';
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
import { decodeCappedAsync } from '../parse/decode.js';
import { markUncovered, stripMarks } from './marked-content.js';
import { cmykContent, cmykXObjects, type CmykColours } from '../content/device-cmyk.js';

/** §14.8.2.2.2: Pagination (running heads, page numbers), Layout (rules, backgrounds that only structure), Page (printer's marks). */
export type ArtifactType = 'Pagination' | 'Layout' | 'Page';

/** A content stream holding `deflated` (zlib is native: pako takes ~10× longer on a 50 KB page). */
function contentStream(doc: PDFDocument, deflated: Uint8Array): PDFRawStream {
  const dict = doc.context.obj({ Filter: 'FlateDecode' });
  dict.set(PDFName.of('Length'), PDFNumber.of(deflated.length));
  return PDFRawStream.of(dict, deflated);
}

/** `page` drawn by one new stream holding `deflated`; its old streams leave the document. */
function replaceContent(doc: PDFDocument, page: PDFPage, deflated: Uint8Array, shared: ReadonlySet<PDFRef>): void {
  const contents = page.node.Contents();
  page.node.set(PDFName.of('Contents'), doc.context.register(contentStream(doc, deflated)));
  // The old streams leave the document (a clean write would otherwise keep them), unless another page draws them.
  const old = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  for (const ref of old) if (ref instanceof PDFRef && !shared.has(ref)) doc.context.delete(ref);
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
  replaceContent(doc, page, deflateSync(changed), shared);
  return true;
}

const deflateAsync = promisify<Uint8Array, Buffer>(deflate);

/** Streams longer than this are not rewritten (as pageContent's budget). */
const MAX_CONTENT = 64 << 20;

/**
 * `page`'s content streams decoded and joined as `pageContent` joins them, inflated on libuv's
 * threads; undefined where `pageContent` gives a reason instead.
 */
async function pageContentAsync(doc: PDFDocument, page: PDFPage): Promise<Uint8Array | undefined> {
  const contents = page.node.Contents();
  const list = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const streams = list.map((item) => (item instanceof PDFRef ? doc.context.lookup(item) : item));
  if (!streams.every((s) => s instanceof PDFRawStream)) return undefined;
  try {
    const parts = await Promise.all(streams.map((s) => decodeCappedAsync(s, MAX_CONTENT)));
    return Buffer.concat(parts.flatMap((p) => [p, NEWLINE]));
  } catch {
    return undefined;
  }
}
const NEWLINE = Uint8Array.of(0x0a);

/** Pages in the artifact pass at once: enough to keep zlib's threads busy while one is scanned, few enough to bound memory. */
const IN_FLIGHT = 8;

/**
 * `edit` on every page of `pages` with zlib off this thread: each page's content is inflated and its
 * new content deflated on libuv's threads (zlib's asynchronous calls, the same bytes as its
 * synchronous ones), so the scan of one page runs while others are decompressed or compressed, on
 * the second core when it is free. At most `IN_FLIGHT` pages are held decoded at a time. Pages get
 * their new streams in page order once all are done, as the synchronous rewrite gives them: the same
 * object numbers. Returns how many pages changed.
 */
async function rewriteContents(
  doc: PDFDocument,
  pages: PDFPage[],
  edit: (content: Uint8Array) => Uint8Array | undefined,
  shared: ReadonlySet<PDFRef>,
): Promise<number> {
  const deflated: Array<Uint8Array | undefined> = [];
  let next = 0;
  const lane = async (): Promise<void> => {
    while (next < pages.length) {
      const i = next++;
      const content = await pageContentAsync(doc, pages[i]!);
      const changed = content && edit(content);
      deflated[i] = changed ? await deflateAsync(changed) : undefined;
    }
  };
  await Promise.all(Array.from({ length: Math.min(IN_FLIGHT, pages.length) }, lane));
  let count = 0;
  pages.forEach((page, i) => {
    const data = deflated[i];
    if (!data) return;
    replaceContent(doc, page, data, shared);
    count++;
  });
  return count;
}

/** Content streams more than one page of `doc` draws. */
function sharedStreams(doc: PDFDocument): Set<PDFRef> {
  const seen = new Set<PDFRef>();
  const shared = new Set<PDFRef>();
  for (const page of doc.getPages()) {
    const contents = page.node.Contents();
    for (const ref of contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [])
      if (ref instanceof PDFRef) (seen.has(ref) ? shared : seen).add(ref);
  }
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
 * nothing to change keeps its own. Returns how many pages changed (after zlib's threads are done).
 */
export async function markArtifacts(
  doc: PDFDocument,
  pages: PDFPage[] = doc.getPages(),
  colours?: CmykColours,
): Promise<number> {
  const changed = colours ? cmykXObjects(doc, pages, colours) : 0;
  return changed + (await rewriteContents(doc, pages, withColours(colours, markUncovered), sharedStreams(doc)));
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
 * `dropPageStructure`): for pages that are drawn onto others as a whole, inside an artifact.
 */
export function stripPageMarks(doc: PDFDocument, pages: PDFPage[], colours?: CmykColours): void {
  if (colours) cmykXObjects(doc, pages, colours);
  const edit = withColours(colours, stripMarks);
  const shared = sharedStreams(doc);
  for (const page of pages) rewriteContent(doc, page, edit, shared);
}

/** Draws what `draw` adds to `page` as one artifact of `type`. */
export function drawArtifact(page: PDFPage, type: ArtifactType, draw: () => void): void {
  // An operand string is written as it is: the property list inline.
  page.pushOperators(PDFOperator.of(Ops.BeginMarkedContentSequence, [PDFName.of('Artifact'), `<< /Type /${type} >>`]));
  draw();
  page.pushOperators(endMarkedContent());
}
