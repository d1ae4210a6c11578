import type { PDFDocument } from '@cantoo/pdf-lib';
import { openForUpdate, rewritePdf, setDocumentInfo, UpdateSession, type BasePdf, type DocumentInfo } from '../pdf/index.js';
import type { ResourceProblem } from '../resources/index.js';
import { addHtmlFields, type PlacedControl } from './acroform.js';
import type { BrowserPool } from './browser-pool.js';
import { buildDocument, type DocumentInput } from './document.js';
import { INPAGE_SOURCE } from './inpage-script.js';
import { observe, sameLayout, sidesWrong } from './layout-passes.js';
import { contentWidthPx } from './page-css.js';
import { evaluate, type DocumentMeta, type LayoutState, type Margins, type PrepareResult } from './page-results.js';
import { addOutline } from './outline.js';
import { readDests, removeDests } from './pdf-dests.js';
import { mergeOverlay, placeBookmarks, placeControls } from './placement.js';
import { VIEWPORT_HEIGHT } from './pool-chromium.js';
import { finishSheet, widerSheet } from './sheet.js';

export interface HtmlRenderRequest extends DocumentInput {
  /** Told about every stylesheet, image or font the document names that did not load (once per URL and kind). */
  onResourceProblem?: (problem: ResourceProblem) => void;
}

/** Passes after the first when the guessed page numbers turn out wrong (each is one more print). */
const MAX_EXTRA_PASSES = 3;
const PRINT_OPTIONS = { preferCSSPageSize: true, printBackground: true, displayHeaderFooter: false } as const;

/** Renders one HTML document to PDF bytes on a pooled Chromium page. */
export async function renderHtml(pool: BrowserPool, request: HtmlRenderRequest): Promise<Uint8Array> {
  return (await renderHtmlDocument(pool, request)).pdf;
}

/** The rendered PDF with what the engine reports about it: page count and title (the request's, else the document's <title>). */
export interface RenderedHtml {
  pdf: Uint8Array;
  pageCount: number;
  title?: string;
}

/** `renderHtml`, with the page count and title of the result (read from the document the job already holds). */
export async function renderHtmlDocument(pool: BrowserPool, request: HtmlRenderRequest): Promise<RenderedHtml> {
  // Building the document (stylesheet fetches, @import inlining) runs under the job's deadline too.
  const onProblem = request.onResourceProblem && onceEach(request.onResourceProblem);
  const build = (signal: AbortSignal): Promise<string> =>
    buildDocument(request, { resolver: pool.resolver, maxResourceBytes: pool.maxResourceBytes, signal, lookup: pool.hosts.lookup, ...(onProblem ? { onProblem } : {}) });
  return pool.run(async ({ page, cdp, deadline }, source) => {
    // The screen layout (page guesses, the overflow check, leaders, forms) at the request's content width.
    const width = Math.max(1, Math.round(contentWidthPx(request.page)));
    if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: VIEWPORT_HEIGHT });
    await page.setContent(source, { waitUntil: 'load', timeout: Math.max(1, deadline - Date.now()) });
    // One round trip: define the helpers and run them (each costs a CDP round trip).
    const info = await evaluate<PrepareResult>(cdp, `${INPAGE_SOURCE}
window.__castpress.prepare()`);
    let pdf: Uint8Array = await page.pdf(PRINT_OPTIONS);
    if (!info.needsDests) {
      // Nothing else to change: the document information goes in as an update of Chromium's bytes.
      const session = await UpdateSession.open(pdf, 'html');
      documentInfo(session.doc, request.title, info.meta);
      return rendered(session.doc, await session.commit());
    }

    if (!info.needsLayout && info.forms.length === 0) {
      // Only bookmarks: an incremental update (a full pdf-lib save of an 8-page document cost ~30 ms).
      const session = await UpdateSession.open(pdf, 'html');
      const found = readDests(session.doc);
      const names = observe(session.doc, found, info).names;
      const margins = await evaluate<Margins[]>(cdp, `window.__castpress.resolvePages(${JSON.stringify(names)})`);
      addOutline(session.doc, placeBookmarks(info, found, session.doc, margins));
      removeDests(session.doc, (name) => name.startsWith('__fs_'));
      documentInfo(session.doc, request.title, info.meta);
      return rendered(session.doc, await session.commit());
    }

    // Layout passes only read the prints (destinations, page sizes); the last one is the base of the update.
    let base: BasePdf = await openForUpdate(pdf, 'html');
    let dests = readDests(base.doc);
    const sheet = info.sheet ? { ...info.sheet } : null;
    let state: LayoutState = sheet ? { ...info.guess, extra: sheet.extra } : info.guess;
    let actual = observe(base.doc, dests, info, sheet);
    let overlayForms = info.overlayForms;
    for (let pass = 0; info.needsLayout && pass < MAX_EXTRA_PASSES; pass++) {
      const fixSides = sidesWrong(actual, info);
      const wider = sheet ? widerSheet(sheet, base.doc) : 0;
      if (!fixSides && !wider && sameLayout(state, actual, info)) break;
      state = { ...actual, fixSides, ...(sheet ? { extra: wider || sheet.extra } : {}) };
      if (sheet && wider) sheet.extra = wider;
      overlayForms = await evaluate<PlacedControl[]>(cdp, `window.__castpress.layout(${JSON.stringify(state)})`);
      pdf = await page.pdf(PRINT_OPTIONS);
      base = await openForUpdate(pdf, 'html');
      dests = readDests(base.doc);
      actual = observe(base.doc, dests, info, sheet);
    }
    let placed: PlacedControl[] = [];
    const margins = info.forms.length > 0 || info.bookmarks.length > 0 || sheet ? await evaluate<Margins[]>(cdp, `window.__castpress.resolvePages(${JSON.stringify(actual.names)})`) : [];
    if (info.forms.length > 0) placed = await placeControls(cdp, info, dests, base.doc, margins, sheet?.extra ?? 0);
    const bookmarks = info.bookmarks.length > 0 ? placeBookmarks(info, dests, base.doc, margins) : [];
    // Controls in margin boxes: one widget per page the running element shows on.
    placed.push(...overlayForms.filter((p) => p.page < actual.total));
    if (info.overlay) {
      // Chromium's file is the document's first version: the overlay pages are drawn onto the body and
      // dropped in one clean write (an update would leave them in the file); everything after it appends.
      await mergeOverlay(base.doc, actual.total, sheet?.bleed ?? 0);
      if (sheet) finishSheet(base.doc, sheet, margins);
      removeDests(base.doc, (name) => name.startsWith('__fs_'));
      if (placed.length === 0) {
        // No fields to append: the clean write is the output.
        if (bookmarks.length > 0) addOutline(base.doc, bookmarks);
        documentInfo(base.doc, request.title, info.meta);
        return rendered(base.doc, await rewritePdf(base.doc));
      }
      base = await openForUpdate(await rewritePdf(base.doc), 'html');
    }
    const session = UpdateSession.over(base);
    if (sheet && !info.overlay) finishSheet(session.doc, sheet, margins);
    addHtmlFields(session.doc, placed, pool.fonts);
    if (bookmarks.length > 0) addOutline(session.doc, bookmarks);
    removeDests(session.doc, (name) => name.startsWith('__fs_'));
    documentInfo(session.doc, request.title, info.meta);
    return rendered(session.doc, await session.commit());
  }, build, onProblem ? { onResourceProblem: onProblem } : {});
}

/** Chromium may ask for one URL more than once (several rules, retries): one warning each. */
function onceEach(report: (problem: ResourceProblem) => void): (problem: ResourceProblem) => void {
  const seen = new Set<string>();
  return (p) => {
    const key = `${p.kind} ${p.url}`;
    if (seen.has(key)) return;
    seen.add(key);
    report(p);
  };
}

function rendered(doc: PDFDocument, pdf: Uint8Array): RenderedHtml {
  const title = doc.getTitle();
  return title === undefined ? { pdf, pageCount: doc.getPageCount() } : { pdf, pageCount: doc.getPageCount(), title };
}

/**
 * The request's title, else the document's <title>, else none (Chromium titles a page without
 * one by its address, about:blank); author, subject and keywords from `<meta name=author|description|keywords>`
 * (WeasyPrint's mapping; `subject` is accepted too). The kernel adds castpress as producer and creator,
 * as for Markdown; the dates stay Chromium's.
 */
function documentInfo(doc: PDFDocument, title: string | undefined, meta: DocumentMeta): void {
  const info: DocumentInfo = { showTitle: true };
  if (meta.author) info.author = meta.author;
  if (meta.subject) info.subject = meta.subject;
  if (meta.keywords) info.keywords = meta.keywords.split(',').map((k) => k.trim()).filter(Boolean);
  if (title !== undefined) info.title = title;
  else if (/^(about:blank|data:|blob:)/.test(doc.getTitle() ?? '')) info.title = null;
  setDocumentInfo(doc, info);
}
