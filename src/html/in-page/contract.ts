/**
 * The contract between render.ts (Node) and the in-page code (this folder, bundled into
 * `generated/inpage.js`): the sentinels css-rewrite.ts writes into the CSS and the page reads
 * back, the id prefix of every helper element and destination, and the shapes of what crosses
 * `Runtime.evaluate` (JSON both ways). Both sides import this file; it holds no code that needs
 * Node or a DOM, so it compiles under both tsconfigs and bundles into the page unchanged.
 */

/** `content: element(x[, policy])` (only ever the whole value) as a string: `"__fs_element__x|policy"`. */
export const ELEMENT_SENTINEL = '__fs_element__';
/** `string(x[, policy])` as a string: `"__fs_string__(x|policy)"`. */
export const STRING_SENTINEL = '__fs_string__';
/** Prefix of `target-counter()`, `target-counters()`, `target-text()` and `leader()` kept as strings (`__fs_fn__name(args)`). */
export const FUNCTION_SENTINEL = '__fs_fn__';
/** `bleed` in a page rule, carried as `quotes: "__fs_bleed__" "<value>"`. */
export const BLEED_SENTINEL = '__fs_bleed__';
/** `marks` in a page rule, carried as `content: "__fs_marks__<value>"`. */
export const MARKS_SENTINEL = '__fs_marks__';
/** The element castpress writes right after a footnote's note, in its place in the text: `::footnote-call` is its `::before`. */
export const FOOTNOTE_CALL = 'castpress-fn-call';
/** The first child of a note's copy in the footnote area: `::footnote-marker` is its `::before`. */
export const FOOTNOTE_MARKER = 'castpress-fn-marker';
/** `@page { @footnote { … } }` becomes a style rule with this selector right after its page rule (page-rules.ts pairs them). */
export const FOOTNOTE_RULE = 'castpress-footnote-rule';
/** Prefix of every id the page gives (markers, helpers): destinations with it are removed from the output. */
export const ID_PREFIX = '__fs_';
/** The page name of inserted blank pages (left/right breaks); author `@page :blank` rules are renamed to it (page-rules.ts). */
export const BLANK_PAGE = '__fs_blank';
/** Id of the `<style>` block with castpress's defaults (document.ts writes it, the page reads its @page size). */
export const DEFAULTS_STYLE_ID = '__fs_defaults';
/** The global the bundle defines: `window.__castpress`. */
export const PAGE_GLOBAL = '__castpress';
/** The bundle's installer, `window.__castpressInstall`: a fresh state for the page's document and `__castpress` over it. */
export const PAGE_INSTALL = '__castpressInstall';
/** What `reinstallAndCall` evaluates to in a Window the bundle was never evaluated in. */
export const NOT_INSTALLED = '__fs_not_installed__';

/**
 * `@page :nth(An+B [of group])` (css-gcpm-3 §4), which Chromium drops with its whole rule, as a page name
 * no element has (css/page-selectors.ts writes it, page-rules.ts reads it back): `__fs_nth_<A>_<B>_<group>_<name>`,
 * A and B as `p2` / `m1`, the group and the selector's own page name in hex (either may be empty).
 */
export const NTH_PREFIX = '__fs_nth_';

export interface NthSelector {
  a: number;
  b: number;
  /** `of <group>`: counted within the page group of that name; null: counted in the document. */
  group: string | null;
  /** The selector's own page name ('' for none). */
  name: string;
}

const hex = (s: string): string =>
  [...new TextEncoder().encode(s)].map((c) => c.toString(16).padStart(2, '0')).join('');
const unhex = (s: string): string =>
  new TextDecoder().decode(new Uint8Array((s.match(/../g) || []).map((c) => parseInt(c, 16))));
const signed = (n: number): string => (n < 0 ? 'm' + -n : 'p' + n);

export function encodeNth(nth: NthSelector): string {
  return (
    NTH_PREFIX +
    signed(nth.a) +
    '_' +
    signed(nth.b) +
    '_' +
    (nth.group === null ? 'x' : 'g' + hex(nth.group)) +
    '_' +
    hex(nth.name)
  );
}

export function decodeNth(name: string): NthSelector | null {
  const m = /^__fs_nth_([pm]\d+)_([pm]\d+)_(x|g[0-9a-f]*)_([0-9a-f]*)$/.exec(name);
  if (!m) return null;
  const num = (t: string) => (t[0] === 'm' ? -1 : 1) * Number(t.slice(1));
  return {
    a: num(m[1] as string),
    b: num(m[2] as string),
    group: m[3] === 'x' ? null : unhex((m[3] as string).slice(1)),
    name: unhex(m[4] as string),
  };
}

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
  /** Room added on the right of the sheet for content wider than the page area, CSS px (see {@link SheetInfo}). */
  extra?: number;
}

/**
 * A printed sheet larger than the page (docs/reference/html-css.md, "Sheets wider than the page"): `bleed` on every side, `extra` on the right so
 * content wider than the page area does not make Chromium scale every page down. CSS px. The extra is
 * cropped off after printing; the bleed stays, with the trim box at the page.
 */
export interface SheetInfo {
  bleed: number;
  extra: number;
  crop: boolean;
  cross: boolean;
  /** Content width of the first page (px): the base of a correction when Chromium still scaled. */
  area: number;
}

/** `<meta name=author|description|keywords>` of the document. */
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

/** The computed style that makes a control's box (forms.ts `describeControl`). */
export interface ControlLook {
  appearance: string;
  borderStyle: string;
  /** CSS px. */
  borderWidth: number;
  borderColor: string;
  background: string;
  /** `border-top-left-radius` as computed (`50%`, `8px`…). */
  radius: string;
  /** The bottom side, for underlined fields (a bottom border only). */
  bottomStyle: string;
  bottomWidth: number;
  bottomColor: string;
}

export type ControlKind = 'text' | 'password' | 'textarea' | 'checkbox' | 'radio' | 'combo' | 'list';

/** A form control as measured in the page (CSS px), see forms.ts `describeControl`. */
export interface FormControl {
  id: string;
  kind: ControlKind;
  name: string;
  width: number;
  height: number;
  fontSize: number;
  color: string;
  readOnly: boolean;
  required: boolean;
  maxLength: number;
  textAlign: string;
  look: ControlLook;
  /** Text-like: the text. Check box and radio: the `value` attribute (absent when the control has none). */
  value?: string;
  checked?: boolean;
  /** [value, label, selected] */
  options?: Array<[string, string, boolean]>;
}

export interface PlacedControl {
  control: FormControl;
  page: number;
  /** Top-left corner, points from the page's top-left. */
  left: number;
  top: number;
}

export type Side = 'left' | 'right';

/**
 * Whether 0-based page `index` is on the other side than `want` (page 1 is a right page). `want` is the
 * side in a left-to-right page progression, i.e. 'right' = recto, page 1's parity: flow.ts turns the
 * physical left/right of a right-to-left document into it.
 */
export function wrongSide(index: number, want: Side): boolean {
  return want === 'right' ? index % 2 !== 0 : index % 2 !== 1;
}

export interface PrepareResult {
  /** Some margin box uses element()/string() with the `start` policy (which depends on positions, not only pages). */
  usesStart: boolean;
  /** Ids of the elements that set named strings (string-set). */
  strings: string[];
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
  /** Ids of the footnote calls: their pages and offsets check the footnote plan. */
  footnotes: string[];
  /** Ids of the page floats (`float: top | bottom`): a print places them (`placePageFloats`). */
  pageFloats: string[];
  /** The page code plans where pages end (footnotes, added margins): each print is checked with `planHolds`. */
  planned: boolean;
  /** `next`: the first rendered element after the named element (where its pages end), null at the end of the body. */
  named: Array<{ name: string; start: string; next: string | null }>;
  /** `blanks`: ids of the spacers that make the blank pages (their destinations mark those pages `:blank`). */
  sides: Array<{ start: string; next: string | null; before: Side | null; after: Side | null; blanks: string[] }>;
  forms: FormControl[];
  /** Width of the initial containing block (CSS px) when `forms` were measured. */
  layoutWidth: number;
  /** Controls inside running elements, as laid out in the overlay pages of the layout written last. */
  overlayForms: PlacedControl[];
  /** The body page of each overlay page, in order: a body page with nothing in its margins has none. */
  overlayPages: number[];
  /** Where each overlay page is printed: a tile of a sheet. */
  overlayGrid: OverlayGrid;
  sheet: SheetInfo | null;
  /**
   * `resolvePages(guess.names)` as the page answers it after `prepare`, when Node is going to read the
   * margins (else null): they hold for a print whose page names are the guess's, until `layout` is called.
   */
  margins: Margins[] | null;
}

/** One sheet of the overlay: a grid of tiles of one page size, in pt (`pitch` from cell to cell, `tile` a page). */
export interface OverlaySheet {
  cols: number;
  rows: number;
  pitch: [number, number];
  tile: [number, number];
}

/** The overlay's sheets, and for each overlay page (as `overlayPages`) its sheet and tile (row·cols+col). */
export interface OverlayGrid {
  sheets: OverlaySheet[];
  tiles: Array<{ sheet: number; index: number }>;
}

/**
 * Words to hyphenate, per language and `hyphenate-limit-chars`: the page finds them (text under
 * `hyphens: auto` with a language), Node hyphenates them (src/html/hyphenation.ts), the page writes
 * soft hyphens into its text before anything is measured.
 */
export interface HyphenationGroup {
  /** The element's language (its `lang`, or the root's), lower case. */
  lang: string;
  /** hyphenate-limit-chars: shortest word, fewest characters before and after a break. */
  word: number;
  before: number;
  after: number;
  /** Distinct words of at least `word` letters. */
  words: string[];
}

/** What `begin` answers: words to hyphenate first (then `hyphenate`, then `prepare`), or prepare's result. */
export type BeginResult = { hyphenation: HyphenationGroup[] } | { prepared: PrepareResult };

/** `window.__castpress`: what render.ts calls, one `Runtime.evaluate` each. */
export interface PageApi {
  /** The first call: `prepare`, unless the document asks for hyphenation (then its words). */
  begin(): Promise<BeginResult>;
  /** Writes the hyphenated words (one map per group of `begin`'s answer: word → word with U+00AD). */
  hyphenate(words: Array<Record<string, string>>): void;
  /** Reads the CSSOM, instruments the document and lays it out for its first guess. */
  prepare(): Promise<PrepareResult>;
  /**
   * Writes the page numbers of `state` into the document; the layout they were written for (`state`,
   * or with `fixSides` the layout after the blank pages it inserted), the overlay's controls as now laid out
   * and the body page of each overlay page.
   */
  layout(state: LayoutState): {
    state: LayoutState;
    overlayForms: PlacedControl[];
    overlayPages: number[];
    overlayGrid: OverlayGrid;
  };
  /** Whether the footnote plan holds for this print (else `layout` plans again). */
  planHolds(state: LayoutState): boolean;
  /** Moves each page float to the top or bottom of the page it printed on; how many moved. */
  placePageFloats(state: LayoutState): number;
  /** Content width (px) → control ids: each control's [width, height] at that width. */
  measureForms(groups: Record<string, string[]>): Record<string, [number, number]>;
  /** The margins of each page (by page name) on the printed sheet. */
  resolvePages(names: string[]): Margins[];
}

/**
 * On a page that ran the bundle before (a reused page: setContent keeps the Window): a fresh state for the
 * new document, then `method`; `NOT_INSTALLED` when this Window does not hold the bundle (then send it).
 */
export function reinstallAndCall<K extends keyof PageApi>(method: K, ...args: Parameters<PageApi[K]>): string {
  const install = `window.${PAGE_INSTALL}`;
  return `typeof ${install} === 'function' ? (${install}(), ${pageCall(method, ...args)}) : ${JSON.stringify(NOT_INSTALLED)}`;
}

/** The expression that calls `method` of the page's API with JSON arguments. */
export function pageCall<K extends keyof PageApi>(method: K, ...args: Parameters<PageApi[K]>): string {
  return `window.${PAGE_GLOBAL}.${method}(${args.map((a) => JSON.stringify(a)).join(', ')})`;
}
