/**
 * The members pdf-lib keeps private that the kernel relies on, typed once here. The parser's steps are
 * looked up when this module loads, the others on use, and what they give back is checked: an upgrade
 * of @cantoo/pdf-lib that renames or drops one fails loudly, naming it, instead of writing a wrong PDF.
 */
import {
  PDFDocument,
  PDFObjectStream,
  PDFParser,
  PDFRef,
  type PDFContentStream,
  type PDFContext,
  type PDFFont,
} from '@cantoo/pdf-lib';

/** pdf-lib's private parser steps the hardened parser calls or replaces (parse/parser.ts). */
const PARSER_STEPS = [
  'parseIndirectObjectHeader',
  'tryToParseInvalidIndirectObject',
  'skipJibberish',
  'maybeParseTrailerDict',
  'maybeRecoverRoot',
] as const;
type ParserStep = (typeof PARSER_STEPS)[number];

function changed(member: string): never {
  throw new Error(`@cantoo/pdf-lib changed: ${member} is gone; src/pdf/pdf-lib-internals.ts must be revisited`);
}

for (const name of PARSER_STEPS) {
  if (typeof Reflect.get(PDFParser.prototype, name) !== 'function') changed(`PDFParser.${name}`);
}

/** Runs the parser's private step `name` (pdf-lib's, or the replacement a subclass put in its place). */
function step(parser: PDFParser, name: ParserStep): unknown {
  const method: unknown = Reflect.get(parser, name);
  if (typeof method !== 'function') changed(`PDFParser.${name}`);
  return method.call(parser);
}

/** Reads the object header (`12 0 obj`) at the parser's position. */
export function parseIndirectObjectHeader(parser: PDFParser): PDFRef {
  const ref = step(parser, 'parseIndirectObjectHeader');
  if (!(ref instanceof PDFRef)) changed('PDFParser.parseIndirectObjectHeader returning a PDFRef');
  return ref;
}

/** Reads the trailer dictionary at the parser's position into its context, if there is one. */
export function maybeParseTrailerDict(parser: PDFParser): void {
  step(parser, 'maybeParseTrailerDict');
}

/** The end of pdf-lib's parseDocument: a trailer /Root that is not a catalog is replaced by a catalog among the objects. */
export function maybeRecoverRoot(parser: PDFParser): void {
  step(parser, 'maybeRecoverRoot');
}

/**
 * The document over a parsed or prepared `context`, as PDFDocument.load makes it after parsing
 * (the constructor is private): encryption ignored or not, metadata updated or not, XFA kept or not.
 */
export function documentOver(
  ...args: [context: PDFContext, ignoreEncryption: boolean, updateMetadata: boolean, preserveXFA?: boolean]
): PDFDocument {
  const doc: unknown = Reflect.construct(PDFDocument, args);
  if (!(doc instanceof PDFDocument)) changed('the PDFDocument constructor');
  return doc;
}

/** Adds `font` to the fonts `doc` embeds when it is saved, as embedFont does (the list is private). */
export function addDocumentFont(doc: PDFDocument, font: PDFFont): void {
  const fonts: unknown = Reflect.get(doc, 'fonts');
  if (!Array.isArray(fonts)) changed('PDFDocument.fonts');
  fonts.push(font);
}

/** pdf-lib's lists of what a document embeds when it is saved (private), and its page and form caches. */
const DOCUMENT_LISTS = ['fonts', 'images', 'embeddedPages', 'embeddedFiles', 'javaScripts'] as const;
const DOCUMENT_CACHES = ['pageCache', 'formCache'] as const;

/**
 * Empties what a written document keeps for itself: the lists of fonts, images, pages, files and
 * scripts it embeds, its page objects and its page and form caches. The document itself lives on
 * until V8's next full collection whatever its caller does (pdf-lib's own closures hold it, see
 * src/pdf/README.md); emptied, it no longer reaches the objects of the update it wrote.
 */
export function releaseDocument(doc: PDFDocument): void {
  for (const name of DOCUMENT_LISTS) {
    const list: unknown = Reflect.get(doc, name);
    if (!Array.isArray(list)) changed(`PDFDocument.${name}`);
    list.length = 0;
  }
  const pages: unknown = Reflect.get(doc, 'pageMap');
  if (!(pages instanceof Map)) changed('PDFDocument.pageMap');
  pages.clear();
  for (const name of DOCUMENT_CACHES) {
    const cache: unknown = Reflect.get(doc, name);
    const invalidate: unknown =
      typeof cache === 'object' && cache !== null ? Reflect.get(cache, 'invalidate') : undefined;
    if (typeof invalidate !== 'function') changed(`PDFDocument.${name}.invalidate`);
    invalidate.call(cache);
  }
}

/**
 * Empties a written stream: a content stream's operators or an object stream's objects, and the
 * encoded bytes. The stream's own closure (pdf-lib's `computeContents`) keeps it until V8's next full
 * collection, and with it every operator drawn or object compressed into it.
 */
export function releaseWrittenStream(stream: PDFContentStream | PDFObjectStream): void {
  const name = stream instanceof PDFObjectStream ? 'objects' : 'operators';
  const list: unknown = Reflect.get(stream, name);
  if (!Array.isArray(list)) changed(`${stream.constructor.name}.${name}`);
  list.length = 0;
  const cache: unknown = Reflect.get(stream, 'contentsCache');
  const invalidate: unknown =
    typeof cache === 'object' && cache !== null ? Reflect.get(cache, 'invalidate') : undefined;
  if (typeof invalidate !== 'function') changed(`${stream.constructor.name}.contentsCache.invalidate`);
  invalidate.call(cache);
}
