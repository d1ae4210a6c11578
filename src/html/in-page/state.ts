/**
 * The state of one job in the page. setContent rewrites the document but keeps the Window, so
 * entry.ts makes a fresh one each time the bundle is evaluated (once per job) and every function
 * takes it as its first argument: nothing lives in module scope.
 */
import {
  ID_PREFIX,
  type NthSelector,
  type PlacedControl,
  type OverlayGrid,
  type FormControl,
  type Side,
  type PrepareResult,
} from './contract.js';

/** A named string's value is text and counters (string-values.ts). */
/** A counter() or counters() in a value, resolved after the counter model ran. */
export interface CounterPart {
  name: string;
  all: boolean;
  sep: string;
  style: string;
  /** Added to the innermost value: the ::before's own counter-increment (content(before) shows it counted). */
  add: number;
  /** The ::before's own counter-set, if any. */
  set: number | null;
}

export type ValuePart = string | CounterPart;

/** One declaration as read from the CSSOM: [name, value, important]. */
export type Declaration = [string, string, boolean];

export interface PageSelector {
  name: string;
  pseudos: string[];
  spec: number;
  /** `:nth(An+B [of group])` (css-gcpm-3 §4), matched by castpress alone. */
  nth?: NthSelector;
}

/** A page's page group (css-gcpm-3 §4.1): the name of its run of named pages, and its place in it from 1. */
export interface PageGroup {
  name: string;
  index: number;
}

export interface PageRuleInfo {
  selectors: PageSelector[];
  order: number;
  decls: Declaration[];
  /** Margin box name → its declarations. */
  boxes: Record<string, Declaration[]>;
}

/** A style rule with the selector it has at the top level (nested rules resolved). */
export interface StyleRuleInfo {
  style: CSSStyleDeclaration;
  selectorText: string;
}

export interface RunningElement {
  el: HTMLElement;
  name: string;
  /** The element's copy (ids removed), the source of its margin-box copies. */
  html: string;
  /** The inherited properties of its parent, as a style attribute. */
  inherited: string;
  float: string;
  id: string;
  slack: number;
  /** counter-reset per nesting level the copy starts from (counter model). */
  counterLevels?: string[];
}

export interface NamedString {
  el: Element;
  name: string;
  /** The value; counter(page)/counter(pages) as PAGE_MARK/PAGES_MARK (string-values.ts), filled per page. */
  value: string;
  /** The value's parts: countCounters rewrites `value` from them once counters are known. */
  parts: ValuePart[];
  id: string;
  /** How far below the content top (px) it still starts the page; -Infinity: never (no box of its own). */
  slack: number;
}

/** One piece of a target-*()/leader()/string() content value (only the fields of its kind are set). */
export interface TargetPart {
  raw?: string;
  leader?: string;
  pages?: boolean;
  style?: string;
  /** target-counter() of a counter other than page: its element until countCounters reads the value. */
  counterOf?: Element;
  name?: string;
  all?: boolean;
  sep?: string;
  values?: number[] | null;
  /** Marker id of the element whose page is shown. */
  target?: string;
  /** string(name): `raw` holds its value at the element; a running element's copy shows its page's instead. */
  string?: string;
}

export interface TargetRule {
  el: HTMLElement;
  pseudo: '::before' | '::after';
  key: string;
  parts: TargetPart[];
  leaderId: string | null;
  baseReset: string;
}

export interface PageCounterElement {
  el: HTMLElement;
  id: string;
  base: string;
}

export interface NamedPageElement {
  el: Element;
  name: string;
  start: string;
  next: string | null;
  /** A forced break comes before it: it starts a page group of its own even after pages of its name. */
  forced: boolean;
  /** Its own margin-top (CSS text): castpress adds to it the top margin rules only it matches ask. */
  marginTop: string;
}

export interface SideBreak {
  el: Element;
  before: Side | null;
  after: Side | null;
  start: string;
  next: string | null;
  spacerBefore: HTMLElement | null;
  spacerAfter: HTMLElement | null;
  blanks: string[];
}

export interface SheetRule {
  rule: CSSPageRule;
  size: [number, number] | null;
  sizePriority: string;
  margins: Record<string, [number, string]>;
}

export interface SheetState {
  bleed: number;
  extra: number;
  crop: boolean;
  cross: boolean;
  rules: SheetRule[];
  area: number;
  /** The root's own margin-right: [value, priority, computed px]. */
  rootMargin: [string, string, number];
}

/** A note (`float: footnote`): hidden where it was written, its call right after it, its copy in the footnote area. */
export interface Footnote {
  el: HTMLElement;
  call: HTMLElement;
  /** The call's marker id: its destination gives the page the note belongs to. */
  id: string;
  /** The note's copy (ids removed), its marker first. */
  html: string;
  /** The inherited properties of the note's parent, as a style attribute (the copy keeps them in the area). */
  inherited: string;
  policy: 'auto' | 'line' | 'block';
  display: 'block' | 'inline' | 'compact';
  /** The footnote counter at the note when it is not reset per page. */
  value: number;
}

/** One planned page of the footnote layout (plan.ts): where it starts in the screen layout, its notes, its spacer. */
export interface FootnotePage {
  /** Screen y (CSS px) of the page's content top. */
  start: number;
  /** Indexes into `PageState.footnotes`. */
  notes: number[];
  /** The element that ends the page early (room for the notes, or a call moved on with its note). */
  spacer: HTMLElement | null;
}

export interface PageState {
  uid: number;
  /** Ids of every element whose page is read from a destination. */
  markers: string[];
  running: RunningElement[];
  strings: NamedString[];
  targets: TargetRule[];
  bookmarks: PrepareResult['bookmarks'];
  breaks: Array<{ el: Element; before: boolean }>;
  counters: PageCounterElement[];
  named: NamedPageElement[];
  sides: SideBreak[];
  forms: FormControl[];
  pageRules: PageRuleInfo[];
  overlay: boolean;
  /** With an overlay: the margin boxes it draws (Chromium draws the others); null: all of them. */
  overlayOnly: Set<string> | null;
  /** Page-context declarations (css text) → the inherited ones margin boxes get (page-context.ts). */
  contextStyles: Map<string, string>;
  probe: HTMLElement | null;
  sheet: SheetState | null;
  defaultSize: [number, number] | null;
  runningCounterNames: Set<string>;
  targetCounterNames: Set<string>;
  /** A `counter-reset: reversed()` matches an element (its values depend on what follows it). */
  reversedCounters: boolean;
  usesStart: boolean;
  /** Right-to-left page progression (page 1 is a left page): the root's direction / writing mode. */
  rtl: boolean;
  overlayStart: string | null;
  layoutWidth: number;
  overlayForms: PlacedControl[];
  /** The body pages the overlay has a page for, in order (pages with nothing to draw get none). */
  overlayPages: number[];
  /** The sheets the overlay's pages are tiles of (build.ts). */
  overlayGrid: OverlayGrid;
  /** Text nodes under `hyphens: auto` and the hyphenation group of their words. */
  hyphenNodes: Array<{ node: Text; group: number }>;
  /** Each page's page group, for the layout last written (`:nth(… of name)`, `name:first`). */
  pageGroups: PageGroup[];
  /** Rules only castpress matches ask for more top or bottom margin (plan.ts makes the room). */
  marginExtras: boolean;
  /** Pages whose top margin castpress widened (a named element starts them), for the overlay's boxes. */
  topApplied: Set<number>;
  footnotes: Footnote[];
  /** The footnote layout, page by page from the first; empty until planned. */
  footnotePages: FootnotePage[];
  /** `@page { counter-reset: footnote }`: notes are numbered from 1 on each page. */
  footnotesPerPage: boolean;
  /** `float: top | bottom` elements (page-floats.ts), in document order. */
  pageFloats: Array<{ el: HTMLElement; id: string; side: 'top' | 'bottom' }>;
}

export function newState(): PageState {
  return {
    uid: 0,
    markers: [],
    running: [],
    strings: [],
    targets: [],
    bookmarks: [],
    breaks: [],
    counters: [],
    named: [],
    sides: [],
    forms: [],
    hyphenNodes: [],
    pageGroups: [],
    marginExtras: false,
    topApplied: new Set(),
    footnotes: [],
    footnotePages: [],
    footnotesPerPage: false,
    pageFloats: [],
    pageRules: [],
    overlay: false,
    overlayOnly: null,
    contextStyles: new Map(),
    probe: null,
    sheet: null,
    defaultSize: null,
    runningCounterNames: new Set(),
    targetCounterNames: new Set(),
    reversedCounters: false,
    usesStart: false,
    rtl: false,
    overlayStart: null,
    layoutWidth: 0,
    overlayForms: [],
    overlayPages: [],
    overlayGrid: { sheets: [], tiles: [] },
  };
}

/** A new id for a helper element or marker: `__fs_<prefix><n>` (render.ts drops destinations by that prefix). */
export function newId(S: PageState, prefix: string): string {
  return ID_PREFIX + prefix + S.uid++;
}
