import type { CDPSession } from 'playwright-core';
import type { FormControl, PlacedControl } from './acroform.js';

/**
 * The Node side of the in-page script's contract: what `window.__castpress.prepare()` reports, the
 * layout state written back into the page for another pass, the page margins it resolves, and the
 * call that brings a result back from the page.
 */

/** What the page layout is assumed to be when page numbers are written into the document. */
export interface LayoutState {
  total: number;
  /** Marker id → 0-based page. */
  pages: Record<string, number>;
  /** Page name per page ('' = unnamed). */
  names: string[];
  /** [width, height] in points per page. */
  sizes: Array<[number, number]>;
  /** Marker id → offset of its top from the content box's top, pt (for the `start` policy). */
  tops?: Record<string, number>;
  /** Insert or remove blank pages so left/right breaks land on the right side. */
  fixSides?: boolean;
  /** Room added on the right of the sheet for content wider than the page area, CSS px (see {@link Sheet}). */
  extra?: number;
}

export interface PrepareResult {
  /** Some margin box uses element()/string() with the `start` policy (which depends on positions, not only pages). */
  usesStart: boolean;
  /** Ids of the elements that set named strings (string-set). */
  strings: string[];
  /** `<meta name=author|description|keywords>` of the document. */
  meta: DocumentMeta;
  /** Headings and other elements with a bookmark-level, in document order. */
  bookmarks: Array<{ level: number; label: string; open: boolean; id: string }>;
  /** Ids of the elements whose page a target-counter() prints, and of leader() elements when page widths can differ. */
  targets: string[];
  needsLayout: boolean;
  needsDests: boolean;
  overlay: boolean;
  guess: LayoutState;
  calibration: string;
  overlayStart: string | null;
  running: Array<{ name: string; id: string }>;
  counters: string[];
  /** `next`: the first rendered element after the named element (where its pages end), null at the end of the body. */
  named: Array<{ name: string; start: string; next: string | null }>;
  /** `blanks`: ids of the spacers that make the blank pages (their destinations mark those pages `:blank`). */
  sides: Array<{ start: string; next: string | null; before: 'left' | 'right' | null; after: 'left' | 'right' | null; blanks: string[] }>;
  forms: FormControl[];
  /** Width of the initial containing block (CSS px) when `forms` were measured. */
  layoutWidth: number;
  /** Controls inside running elements, as laid out in the overlay pages of the layout written last. */
  overlayForms: PlacedControl[];
  sheet: Sheet | null;
}

/**
 * A printed sheet larger than the page (README "Sheets"): `bleed` on every side, `extra` on the right so
 * content wider than the page area does not make Chromium scale every page down. CSS px. The extra is
 * cropped off after printing; the bleed stays, with the trim box at the page.
 */
export interface Sheet {
  bleed: number;
  extra: number;
  crop: boolean;
  cross: boolean;
  /** Content width of the first page (px): the base of a correction when Chromium still scaled. */
  area: number;
}

export interface DocumentMeta {
  author: string | null;
  subject: string | null;
  keywords: string | null;
}

/** A page's margins on the printed sheet (a bleed adds to each) and the page's own width, CSS px. */
export interface Margins {
  top: number;
  right: number;
  bottom: number;
  left: number;
  width: number;
}

/** Evaluates in the document's main world; the result comes back as JSON. */
export async function evaluate<T>(cdp: CDPSession, expression: string): Promise<T> {
  const r = await cdp.send('Runtime.evaluate', { expression, awaitPromise: true, returnByValue: true });
  if (r.exceptionDetails) {
    const d = r.exceptionDetails;
    throw new Error(`In-page script failed: ${d.exception?.description ?? d.text}`);
  }
  return r.result.value as T;
}
