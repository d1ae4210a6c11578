import { type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import type { CDPSession } from 'playwright-core';
import {
  UpdateSession,
  openForUpdate,
  rewritePdf,
  type BasePdf,
  type EmbeddedFile,
  type PdfALevel,
  dropSoftHyphenSpans,
  markArtifacts,
  stablePrint,
  recolourPages,
} from '../pdf/index.js';
import type { ResourceProblem } from '../resources/index.js';
import { addHtmlFields } from './post/acroform.js';
import type { BrowserPool } from './chromium/pool.js';
import { buildDocument, documentLang, type DocumentInput } from './document.js';
import { findAttachments, loadAttachments } from './attachments.js';
import { RenderError } from '../errors/index.js';
import { rewriteCmyk, type CmykColours } from './css/cmyk.js';
import { addOutline, type Bookmark } from './post/outline.js';
import { contentWidthPx } from './css/page-css.js';
import {
  ID_PREFIX,
  NOT_INSTALLED,
  pageCall,
  reinstallAndCall,
  type LayoutState,
  type Margins,
  type PageApi,
  type PlacedControl,
  type PrepareResult,
  type BeginResult,
} from './in-page/contract.js';
import { hyphenateGroups } from './hyphenation.js';
import { INPAGE_SOURCE } from '../../generated/inpage.js';
import { readDests, removeDests, shiftDests, type DestPoint } from './post/dests.js';
import { VIEWPORT_HEIGHT } from './chromium/launch.js';
import { finishSheet, widerSheet } from './post/sheet-marks.js';
import { finishDocument } from './post/finish.js';
import { mergeOverlay } from './post/overlay.js';
import { guessedMargins, observe, sameLayout, sidesWrong } from './post/print-state.js';

export interface HtmlRenderRequest extends DocumentInput {
  /** PDF/A conformance of the output. */
  pdfa?: PdfALevel;
  /**
   * Whether the output carries a structure tree (default true). Untagged, Chromium prints without one
   * and every step that exists only for the tree (artifacts, Form elements, link descriptions) is skipped.
   */
  tagged?: boolean;
  /** Told about every stylesheet, image or font the document names that did not load (once per URL and kind). */
  onResourceProblem?: (problem: ResourceProblem) => void;
  /** The request value that holds `html`, named by errors about its attachments (default `html`). */
  htmlProperty?: string;
  /** The creation and modification date (the engine's clock); without one, the time of the print. */
  now?: Date;
}

/** Passes after the first when the guessed page numbers turn out wrong (each is one more print). */
const MAX_EXTRA_PASSES = 3;
/** With footnotes: a plan corrected from a print moves what follows, which takes one more print to confirm. */
const FOOTNOTE_EXTRA_PASSES = 5;
const PRINT_OPTIONS = {
  preferCSSPageSize: true,
  printBackground: true,
  displayHeaderFooter: false,
} as const;
/**
 * How the print's clean writes go: its parse read only what the steps needed (pages, content,
 * annotations, the structure tree's root), and the rest (mostly the structure elements of every run
 * of text) is Chromium's bytes, copied as they are.
 */
const PRINT = { copyUnread: true } as const;

/**
 * Chromium 156 writes destinations relative to the page's content box; a
 * future fix may make them page-absolute. The marker at the content origin tells which.
 */
function contentRelativeDests(info: PrepareResult, dests: Map<string, DestPoint>, pages: PDFPage[]): boolean {
  const calib = dests.get(info.calibration);
  return !calib || (Math.abs(calib.x) < 0.5 && Math.abs(calib.y - (pages[calib.page]?.getHeight() ?? 0)) < 0.5);
}

/**
 * Body controls on their printed pages: the position is the control's named destination (print
 * layout); the size is measured again at the printed content width of that page when it differs
 * from the screen layout's (a document `@page` size other than the request's page).
 */
async function placeControls(
  cdp: CDPSession,
  info: PrepareResult,
  dests: Map<string, DestPoint>,
  doc: PDFDocument,
  margins: Margins[],
  extra: number,
): Promise<PlacedControl[]> {
  const pages = doc.getPages();
  const contentRelative = contentRelativeDests(info, dests, pages);
  const placed: PlacedControl[] = [];
  const remeasure: Record<string, string[]> = {};
  for (const control of info.forms) {
    const d = dests.get(control.id);
    const page = d ? pages[d.page] : undefined;
    if (!d || !page) continue;
    const height = page.getHeight();
    const m = margins[d.page] ?? { top: 0, left: 0, right: 0, bottom: 0 };
    const left = contentRelative ? m.left * 0.75 + d.x : d.x;
    const top = contentRelative ? m.top * 0.75 + (height - d.y) : height - d.y;
    placed.push({ control, page: d.page, left, top });
    const contentWidth = Math.round((page.getWidth() / 0.75 - extra - m.left - m.right) * 100) / 100;
    if (Math.abs(contentWidth - info.layoutWidth) > 0.5) (remeasure[contentWidth] ??= []).push(control.id);
  }
  if (Object.keys(remeasure).length === 0) return placed;
  const sizes = await callPage(cdp, 'measureForms', remeasure);
  return placed.map((p) => {
    const size = sizes[p.control.id];
    return size ? { ...p, control: { ...p.control, width: size[0], height: size[1] } } : p;
  });
}

/** Bookmarks at their element's top. */
function placeBookmarks(
  info: PrepareResult,
  dests: Map<string, DestPoint>,
  doc: PDFDocument,
  margins: Margins[],
): Bookmark[] {
  const contentRelative = contentRelativeDests(info, dests, doc.getPages());
  const out: Bookmark[] = [];
  for (const b of info.bookmarks) {
    const d = dests.get(b.id);
    if (!d) continue;
    const top = contentRelative ? d.y - (margins[d.page]?.top ?? 0) * 0.75 : d.y;
    out.push({ level: b.level, label: b.label, open: b.open, page: d.page, top });
  }
  return out;
}

const isHelper = (name: string): boolean => name.startsWith(ID_PREFIX);

/** Whether the print has destinations of the document's own (`<a href="#x">` targets). */
function hasAuthorDests(dests: Map<string, DestPoint>): boolean {
  for (const name of dests.keys()) if (!isHelper(name)) return true;
  return false;
}

/** The document's own destinations at their targets' place on the page, not on the content box. */
function placeAuthorDests(
  info: PrepareResult,
  dests: Map<string, DestPoint>,
  doc: PDFDocument,
  margins: Margins[],
): void {
  if (!contentRelativeDests(info, dests, doc.getPages())) return;
  shiftDests(doc, isHelper, (page) => {
    const m = margins[page];
    return m ? { dx: m.left * 0.75, dy: -m.top * 0.75 } : { dx: 0, dy: 0 };
  });
}

/** Evaluates in the document's main world; the result comes back as JSON. */
async function evaluate(cdp: CDPSession, expression: string): Promise<unknown> {
  const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new Error(`In-page script failed: ${d.exception?.description ?? d.text}`);
  }
  return r.result.value;
}

/**
 * The in-page code's first call for a document. One round trip either way: on a reused page, a fresh state
 * from the code its Window already holds (sending and compiling the 89 KB source again cost ~5 ms of a
 * ~50 ms invoice); on a new page, or a Window without it, the source and the call together.
 */
async function prepareDocument(cdp: CDPSession, reused: boolean): Promise<PrepareResult & { hyphenated: boolean }> {
  let begun: unknown = NOT_INSTALLED;
  if (reused) begun = await evaluate(cdp, reinstallAndCall('begin'));
  if (begun === NOT_INSTALLED) begun = await evaluate(cdp, `${INPAGE_SOURCE}\n${pageCall('begin')}`);
  const result = begun as BeginResult;
  if ('prepared' in result) return { ...result.prepared, hyphenated: false };
  // Hyphenation changes the text, so it comes before anything is measured: two more round trips.
  await callPage(cdp, 'hyphenate', hyphenateGroups(result.hyphenation));
  return { ...(await callPage(cdp, 'prepare')), hyphenated: true };
}

/** Calls `method` of the page's API; its result typed by contract.ts `PageApi` (not restated at each call). */
async function callPage<K extends keyof PageApi>(
  cdp: CDPSession,
  method: K,
  ...args: Parameters<PageApi[K]>
): Promise<Awaited<ReturnType<PageApi[K]>>> {
  return (await evaluate(cdp, pageCall(method, ...args))) as Awaited<ReturnType<PageApi[K]>>;
}

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
  const tagged = request.tagged !== false;
  // Building the document (stylesheet fetches, @import inlining) runs under the job's deadline too.
  const onProblem = request.onResourceProblem && onceEach(request.onResourceProblem);
  // device-cmyk() colours leave the document as stand-in RGB values the kernel turns back after printing.
  const build = async (
    signal: AbortSignal,
  ): Promise<{ source: string; colours: CmykColours; files: EmbeddedFile[]; lang: string | undefined }> => {
    const attaching = findAttachments(request.html, request.baseUrl);
    // Refused before anything loads or prints (the kernel refuses it too).
    if (request.pdfa === '2b' && attaching.refs.length > 0)
      throw new RenderError('PDF/A-2b cannot carry attachments; PDF/A-3b can', 422);
    const policy = {
      resolver: pool.resolver,
      maxResourceBytes: pool.maxResourceBytes,
      signal,
      lookup: pool.hosts.lookup,
      ...(onProblem ? { onProblem } : {}),
    };
    const [built, files] = await Promise.all([
      buildDocument({ ...request, html: attaching.html }, policy),
      loadAttachments(attaching.refs, policy, request.htmlProperty ?? 'html'),
    ]);
    const { html, colours } = rewriteCmyk(built);
    // PDF/A with an sRGB output intent allows no DeviceCMYK (ISO 19005-2 §6.2.4.3): the stand-ins print as RGB.
    // Chromium writes /Lang only with its structure tree: untagged, castpress writes the document's.
    const lang = tagged ? undefined : documentLang(html);
    return { source: html, colours: request.pdfa ? new Map() : colours, files, lang };
  };
  // Untagged, no mark belongs to a reading order: only the CMYK colours change the pages' content.
  const markPages = (doc: PDFDocument, pages: PDFPage[] | undefined, colours: CmykColours): number =>
    tagged ? markArtifacts(doc, pages, colours) : recolourPages(doc, pages, colours);
  return pool.run(
    async ({ page, cdp, deadline, reused }, { source, colours, files, lang }) => {
      const output = { ...request, lang };
      // The screen layout (page guesses, the overflow check, leaders, forms) at the request's content width.
      const width = Math.max(1, Math.round(contentWidthPx(request.page)));
      if (page.viewportSize()?.width !== width) await page.setViewportSize({ width, height: VIEWPORT_HEIGHT });
      await page.setContent(source, { waitUntil: 'load', timeout: Math.max(1, deadline - Date.now()) });
      const info = await prepareDocument(cdp, reused);
      // The printed pages' margins: begin's for the guessed pages while they hold, else one more call.
      const marginsOf = async (names: string[], laidOut = false): Promise<Margins[]> =>
        (!laidOut && guessedMargins(info, names)) || callPage(cdp, 'resolvePages', names);
      const print = async (): Promise<Uint8Array> => {
        const raw = await page.pdf({ ...PRINT_OPTIONS, tagged });
        const printed = stablePrint(raw, request.now);
        return info.hyphenated ? dropSoftHyphenSpans(printed, 'html') : printed;
      };
      let pdf: Uint8Array = await print();
      if (info.pageFloats.length > 0) {
        // Page floats move to their page's top or bottom, where the first print put them: one more print.
        const printed = await openForUpdate(pdf, 'html');
        const state = observe(printed.doc, readDests(printed.doc), info);
        if ((await callPage(cdp, 'placePageFloats', state)) > 0) pdf = await print();
      }
      if (!info.needsDests) {
        // Nothing else to change: the document information goes in with the artifacts.
        const base = await openForUpdate(pdf, 'html');
        const found = readDests(base.doc);
        // Internal links: the page's margins place their targets (one more call, only for such documents).
        const margins = hasAuthorDests(found) ? await marginsOf(observe(base.doc, found, info).names) : [];
        const rewritten = markPages(base.doc, undefined, colours) > 0;
        return writeOutput(base, rewritten, (doc) => {
          if (margins.length > 0) placeAuthorDests(info, found, doc, margins);
          finishDocument(doc, output, info.meta, pdf, files);
        });
      }

      if (!info.needsLayout && info.forms.length === 0) {
        // Only bookmarks: no layout pass.
        const base = await openForUpdate(pdf, 'html');
        const found = readDests(base.doc);
        const margins = await marginsOf(observe(base.doc, found, info).names);
        const rewritten = markPages(base.doc, undefined, colours) > 0;
        return writeOutput(base, rewritten, (doc) => {
          addOutline(doc, placeBookmarks(info, found, doc, margins));
          placeAuthorDests(info, found, doc, margins);
          removeDests(doc, isHelper);
          finishDocument(doc, output, info.meta, pdf, files);
        });
      }

      // Layout passes only read the prints (destinations, page sizes); the last one is the base of the update.
      let base: BasePdf = await openForUpdate(pdf, 'html');
      let dests = readDests(base.doc);
      const sheet = info.sheet ? { ...info.sheet } : null;
      let state: LayoutState = sheet ? { ...info.guess, extra: sheet.extra } : info.guess;
      let actual = observe(base.doc, dests, info, sheet);
      let { overlayForms, overlayPages, overlayGrid } = info;
      const passes = info.planned ? FOOTNOTE_EXTRA_PASSES : MAX_EXTRA_PASSES;
      // A layout call writes other page groups than the guess's: begin's margins no longer hold.
      let laidOut = false;
      for (let pass = 0; info.needsLayout && pass < passes; pass++) {
        const fixSides = sidesWrong(actual, info);
        const wider = sheet ? widerSheet(sheet, base.doc) : 0;
        if (
          !fixSides &&
          !wider &&
          sameLayout(state, actual, info) &&
          (!info.planned || (await callPage(cdp, 'planHolds', actual)))
        )
          break;
        if (sheet && wider) sheet.extra = wider;
        // With fixSides, the page answers the layout its blank pages make: the next print is compared with that.
        laidOut = true;
        ({ state, overlayForms, overlayPages, overlayGrid } = await callPage(cdp, 'layout', {
          ...actual,
          fixSides,
          ...(sheet ? { extra: wider || sheet.extra } : {}),
        }));
        pdf = await print();
        base = await openForUpdate(pdf, 'html');
        dests = readDests(base.doc);
        actual = observe(base.doc, dests, info, sheet);
      }
      let placed: PlacedControl[] = [];
      const margins =
        info.forms.length > 0 || info.bookmarks.length > 0 || sheet || hasAuthorDests(dests)
          ? await marginsOf(actual.names, laidOut)
          : [];
      if (info.forms.length > 0) placed = await placeControls(cdp, info, dests, base.doc, margins, sheet?.extra ?? 0);
      const bookmarks = info.bookmarks.length > 0 ? placeBookmarks(info, dests, base.doc, margins) : [];
      // Controls in margin boxes: one widget per page the running element shows on.
      placed.push(...overlayForms.filter((p) => p.page < actual.total));
      if (info.overlay) {
        markPages(base.doc, base.doc.getPages().slice(0, actual.total), colours);
        // Chromium's file is the document's first version: the overlay pages are drawn onto the body and
        // dropped in one clean write (an update would leave them in the file); everything after it appends.
        mergeOverlay(base.doc, actual.total, overlayPages, overlayGrid, sheet?.bleed ?? 0, colours, tagged);
        if (sheet) finishSheet(base.doc, sheet, margins, tagged);
        placeAuthorDests(info, dests, base.doc, margins);
        removeDests(base.doc, isHelper);
        if (placed.length === 0) {
          // No fields to append: the clean write is the output.
          if (bookmarks.length > 0) addOutline(base.doc, bookmarks);
          finishDocument(base.doc, output, info.meta, pdf, files);
          return rendered(base.doc, await rewritePdf(base.doc, PRINT));
        }
        base = await openForUpdate(await rewritePdf(base.doc, PRINT), 'html');
      }
      const rewritten = !info.overlay && markPages(base.doc, undefined, colours) > 0;
      return writeOutput(base, rewritten, (doc) => {
        if (sheet && !info.overlay) finishSheet(doc, sheet, margins, tagged);
        addHtmlFields(doc, placed, pool.fonts);
        if (bookmarks.length > 0) addOutline(doc, bookmarks);
        // With an overlay, the clean write above has them in place already.
        if (!info.overlay) placeAuthorDests(info, dests, doc, margins);
        removeDests(doc, isHelper);
        finishDocument(doc, output, info.meta, pdf, files);
      });
    },
    build,
    onProblem ? { onResourceProblem: onProblem } : {},
  );
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

/**
 * The output from the last print's parse: one clean write when tagging or colours rewrote its pages'
 * content (an update would keep every page's old content as well, and a tagged print is mostly
 * content), else an update of Chromium's bytes, which costs less (a full pdf-lib save of an 8-page
 * document took ~30 ms). `edit` makes the remaining changes either way.
 */
async function writeOutput(base: BasePdf, rewritten: boolean, edit: (doc: PDFDocument) => void): Promise<RenderedHtml> {
  if (rewritten) {
    edit(base.doc);
    return rendered(base.doc, await rewritePdf(base.doc, PRINT));
  }
  const session = UpdateSession.over(base);
  edit(session.doc);
  return rendered(session.doc, await session.commit());
}

function rendered(doc: PDFDocument, pdf: Uint8Array): RenderedHtml {
  const title = doc.getTitle();
  return title === undefined ? { pdf, pageCount: doc.getPageCount() } : { pdf, pageCount: doc.getPageCount(), title };
}
