/**
 * The in-page code's entry: bundled (scripts/generate-page-code.mjs) into `INPAGE_SOURCE`, which
 * render.ts evaluates through CDP, so it works with scripts disabled. The source defines
 * `window.__castpressInstall` and calls it; each job calls it once (setContent rewrites the document
 * but keeps the Window, so a reused page still holds it), which makes a fresh state and installs
 * `window.__castpress` (contract.ts `PageApi`):
 *
 * - prepare: reads the CSSOM once (page rules, margin boxes, running elements,
 *   page-counter elements, named pages, unpaginated tables, form controls),
 *   marks the elements with ids that hidden links point at (so Chromium writes
 *   a named destination for each: their page and position), guesses the page
 *   of each from the screen layout, and lays out for that guess.
 * - layout(state): writes the page numbers of `state` into the document
 *   (counter-reset on counter elements) and rebuilds the overlay pages that
 *   carry the margin boxes, one per body page, appended after the body.
 */
import { PAGE_GLOBAL, PAGE_INSTALL, type LayoutState, type PageApi, type PrepareResult } from './contract.js';
import { addDestLinks, beforeHead, helper, hideBrokenImages, moveCanvasBackground } from './dom.js';
import {
  applySides,
  estimate,
  inlineBreaks,
  pageMargins,
  prepareBreaks,
  prepareCounters,
  prepareNamed,
  prepareSideBreaks,
  prepareTables,
  wantsMargins,
} from './flow.js';
import { measureForms, prepareForms } from './forms.js';
import { applyHyphenation, hyphenationWords } from './hyphenation.js';
import { prepareFootnotes } from './footnotes/notes.js';
import { placePageFloats, preparePageFloats } from './page-floats.js';
import { guessFootnotes, planFootnotes, planHolds, widenTops } from './footnotes/plan.js';
import { buildOverlay } from './overlay/index.js';
import { collectRules, defaultSizes, pageGroups, readPageRules } from './page-rules.js';
import { countCounters, prepareRunning, syncRunningCopies } from './generated-content/running.js';
import { prepareSheet, sheetPrinting, writeSheetRules } from './sheet.js';
import { newId, newState, type PageState } from './state.js';
import { prepareBookmarks, prepareStrings, readMeta } from './generated-content/strings.js';
import { leaderTargets, prepareTargets, targetRules } from './generated-content/targets.js';

/** What the bundle leaves on the Window: the page's API, and the call that installs a fresh state. */
declare global {
  interface Window {
    [PAGE_GLOBAL]: PageApi;
    [PAGE_INSTALL]: () => void;
  }
}

/**
 * Writes `state`'s numbers into the document; returns the layout they were written for (`state`, or with
 * `fixSides` the layout after the blank pages it inserts). `printed`: `state` is what the last print
 * showed (not the first guess), so the footnote plan is checked against it.
 */
function layout(S: PageState, state: LayoutState, printed = true): LayoutState {
  sheetPrinting(S, false);
  S.pageGroups = pageGroups(S, state.names, state.pages);
  // First, on the document as it printed: the plan is checked against the positions the print gave.
  if (printed) planFootnotes(S, state);
  if (state.fixSides) {
    const after = applySides(S, state);
    // A footnote plan is indexed by the printed pages: it is made again from the next print instead.
    if (!planned(S)) {
      state = after;
      S.pageGroups = pageGroups(S, state.names, state.pages);
    }
  }
  widenTops(S, state);
  if (S.sheet && state.extra !== undefined && state.extra !== S.sheet.extra) {
    S.sheet.extra = state.extra;
    writeSheetRules(S);
  }
  if (S.targets.length) targetRules(S, state);
  for (const c of S.counters) {
    const p = state.pages[c.id];
    c.el.style.setProperty(
      'counter-reset',
      (c.base ? c.base + ' ' : '') + 'page ' + ((p === undefined ? 0 : p) + 1) + ' pages ' + state.total,
      'important',
    );
  }
  buildOverlay(S, state);
  sheetPrinting(S, true);
  return state;
}

/** Page ends are planned in the page (footnotes, added margins): each print is checked with `planHolds`. */
function planned(S: PageState): boolean {
  return S.footnotes.length > 0 || S.marginExtras;
}

async function prepare(S: PageState): Promise<PrepareResult> {
  await document.fonts.ready;
  hideBrokenImages();
  const { style, page, footnote } = collectRules();
  defaultSizes(S, page);
  readPageRules(S, page, footnote);
  prepareRunning(S, style);
  prepareFootnotes(S, style);
  preparePageFloats(S, style);
  prepareStrings(S, style);
  prepareBookmarks(S, style);
  prepareTargets(S, style);
  countCounters(S, style);
  syncRunningCopies(S);
  prepareCounters(S, style);
  prepareNamed(S, style);
  prepareTables(style);
  inlineBreaks(style);
  prepareBreaks(S, style);
  prepareSideBreaks(S, style);
  prepareForms(S);
  // After every DOM change above: its overflow check reads the layout the page guess then reuses.
  prepareSheet(S, page);
  // The first footnote plan, on the finished screen layout: its spacers are in place for the guess.
  planFootnotes(S, null);
  const calib = beforeHead(
    helper(
      'mark',
      'display:block!important;position:absolute!important;left:0!important;top:0!important;width:0!important;height:0!important;margin:0!important;visibility:hidden!important',
    ),
  );
  calib.id = newId(S, 'k');
  // A sheet is checked after each print (still scaled?) and cropped afterwards: both run in the layout path.
  const needsLayout =
    S.overlay || S.marginExtras || S.counters.length > 0 || S.sides.length > 0 || S.targets.length > 0 || !!S.sheet;
  const needsDests = needsLayout || S.forms.length > 0 || S.bookmarks.length > 0 || S.pageFloats.length > 0;
  if (needsDests) S.markers.push(calib.id);
  if (S.overlay) moveCanvasBackground();
  // The screen layout the guess reads would otherwise show the sentinel strings (long enough to wrap
  // a table of contents' lines): counter values in, pages still empty.
  if (S.targets.length) targetRules(S, { pages: {}, names: [], sizes: [], total: 0 }, true);
  let guess: LayoutState = estimate(S);
  guessFootnotes(S, guess);
  // The guess puts left/right breaks on their side already (a wrong guess is corrected like any other).
  if (needsLayout) guess = layout(S, { ...guess, fixSides: S.sides.length > 0 }, false);
  else sheetPrinting(S, true);
  // For the guessed pages (asked before the helper links go in): when the print bears them out, Node has
  // the margins without one more call.
  const margins = wantsMargins(S, needsDests, needsLayout) ? pageMargins(S, guess.names) : null;
  if (needsDests) addDestLinks(S);
  return {
    margins,
    usesStart: S.usesStart,
    strings: S.strings.map((t) => t.id),
    meta: readMeta(),
    bookmarks: S.bookmarks,
    targets: [
      ...new Set([
        ...S.targets.flatMap((t) => t.parts.filter((p) => p.target).map((p) => p.target as string)),
        ...leaderTargets(S),
      ]),
    ],
    needsLayout,
    needsDests,
    overlay: S.overlay,
    guess,
    calibration: calib.id,
    overlayStart: S.overlayStart,
    running: S.running.map((r) => ({ name: r.name, id: r.id })),
    counters: S.counters.map((c) => c.id),
    footnotes: S.footnotes.map((f) => f.id),
    pageFloats: S.pageFloats.map((f) => f.id),
    planned: planned(S),
    named: S.named.map((n) => ({ name: n.name, start: n.start, next: n.next })),
    sides: S.sides.map((e) => ({ start: e.start, next: e.next, before: e.before, after: e.after, blanks: e.blanks })),
    forms: S.forms,
    layoutWidth: S.layoutWidth,
    overlayForms: S.overlayForms,
    overlayPages: S.overlayPages,
    overlayGrid: S.overlayGrid,
    sheet: S.sheet
      ? { bleed: S.sheet.bleed, extra: S.sheet.extra, crop: S.sheet.crop, cross: S.sheet.cross, area: S.sheet.area }
      : null,
  };
}

/** A fresh state for the document now in the page, and `window.__castpress` over it. */
function install(): void {
  const S = newState();
  const api: PageApi = {
    async begin() {
      const hyphenation = hyphenationWords(S);
      return hyphenation.length ? { hyphenation } : { prepared: await prepare(S) };
    },
    hyphenate: (words) => applyHyphenation(S, words),
    prepare: () => prepare(S),
    layout(state) {
      return {
        state: layout(S, state),
        overlayForms: S.overlayForms,
        overlayPages: S.overlayPages,
        overlayGrid: S.overlayGrid,
      };
    },
    measureForms: (groups) => measureForms(S, groups),
    planHolds: (state) => planHolds(S, state),
    placePageFloats: (state) => placePageFloats(S, state),
    // Margins of the printed sheet: a bleed adds to each.
    resolvePages: (names) => pageMargins(S, names),
  };
  window[PAGE_GLOBAL] = api;
}

// Defined once per Window: a reused page's next document installs a fresh state with one short call
// (contract.ts `reinstallAndCall`) instead of this whole source again (~5 ms of every render).
window[PAGE_INSTALL] = install;
install();
