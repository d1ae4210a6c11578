/** The last steps every HTML output takes: structure for annotations, document information, PDF/A. */
import type { PDFDocument } from '@cantoo/pdf-lib';
import {
  conformToPdfA,
  embedFiles,
  setDocumentInfo,
  tagAnnotations,
  type DocumentInfo,
  type EmbeddedFile,
  type PdfALevel,
} from '../../pdf/index.js';
import type { DocumentMeta } from '../in-page/contract.js';

/**
 * The last step on every path: form widgets tied to the structure tree and links described (tagged output only), document
 * information, the document's attachments, PDF/A conformance when asked for (`seed`, the print, gives
 * the file identifier).
 */
export function finishDocument(
  doc: PDFDocument,
  request: { title?: string; pdfa?: PdfALevel; tagged?: boolean; lang?: string | undefined; now?: Date },
  meta: DocumentMeta,
  seed: Uint8Array,
  files: readonly EmbeddedFile[] = [],
): void {
  if (request.tagged !== false) tagAnnotations(doc);
  documentInfo(doc, request.title, meta, request.tagged === false ? request.lang : undefined, request.now);
  embedFiles(doc, files);
  if (request.pdfa) conformToPdfA(doc, request.pdfa, seed);
}

/**
 * The request's title, else the document's <title>, else none (Chromium titles a page without
 * one by its address, about:blank); author, subject and keywords from `<meta name=author|description|keywords>`
 * (WeasyPrint's mapping; `subject` is accepted too). The kernel adds castpress as producer and creator,
 * as for Markdown; the dates are the engine's clock when it gives one (the print's are pinned to it as well),
 * else Chromium's. `lang` is given for untagged output only (a tagged print has Chromium's /Lang).
 */
function documentInfo(
  doc: PDFDocument,
  title: string | undefined,
  meta: DocumentMeta,
  lang: string | undefined,
  date: Date | undefined,
): void {
  const info: DocumentInfo = { showTitle: true };
  if (date) info.date = date;
  if (lang) info.lang = lang;
  if (meta.author) info.author = meta.author;
  if (meta.subject) info.subject = meta.subject;
  if (meta.keywords)
    info.keywords = meta.keywords
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean);
  if (title !== undefined) info.title = title;
  else if (/^(about:blank|data:|blob:)/.test(doc.getTitle() ?? '')) info.title = null;
  setDocumentInfo(doc, info);
}
