import { ValidationError } from '../../errors/index.js';
import { scriptBlocks, scriptFontFor } from '../../fonts/index.js';
import { catalogueFontCss } from '../web-fonts/catalogue.js';

export type PageCountPosition = 'topLeft' | 'topRight' | 'topCenter' | 'bottomLeft' | 'bottomRight' | 'bottomCenter';

export interface HtmlPageOptions {
  width?: string;
  height?: string;
  margin?: string;
  marginTop?: string;
  marginRight?: string;
  marginBottom?: string;
  marginLeft?: string;
  pageCount?: PageCountPosition;
}

/** US Letter, as the hosted API's documentation states. */
const DEFAULT_PAGE_WIDTH = '8.5in';
const DEFAULT_PAGE_HEIGHT = '11in';
/** The hosted API's clients default to 50px on every side. */
const DEFAULT_MARGIN = '50px';

const LENGTH = /^(?:0|[+-]?(?:\d+\.?\d*|\.\d+)(?:mm|cm|in|px|em|rem|pt|pc))$/i;

const BOX: Record<PageCountPosition, string> = {
  topLeft: 'top-left',
  topRight: 'top-right',
  topCenter: 'top-center',
  bottomLeft: 'bottom-left',
  bottomRight: 'bottom-right',
  bottomCenter: 'bottom-center',
};

/**
 * Largest page side and margin: PDF's own limit (14,400 units = 200 in, ISO
 * 32000-1 annex C). Chromium fails to print past it ("Printing failed"), which
 * was a 500; it is the caller's mistake, so a 400 on the property.
 */
export const MAX_PAGE_INCHES = 200;

/** Smallest content box side, as in src/markdown (MIN_CONTENT). */
const MIN_CONTENT_PT = 36;

/** Inches per unit; `em`/`rem` in `@page` are the initial font size, 16px. */
const INCHES: Record<string, number> = {
  in: 1,
  cm: 1 / 2.54,
  mm: 1 / 25.4,
  pt: 1 / 72,
  pc: 1 / 6,
  px: 1 / 96,
  em: 16 / 96,
  rem: 16 / 96,
};

function inches(v: string): number {
  const m = /^([+-]?(?:\d+\.?\d*|\.\d+))([a-z]*)$/i.exec(v);
  return m ? Number(m[1]) * (INCHES[m[2]!.toLowerCase()] ?? 0) : 0;
}

/** Lengths are pasted into CSS, so anything but a plain length is refused (no CSS injection). */
function length(value: string | undefined, property: string, kind: 'side' | 'margin' = 'margin'): string | undefined {
  if (value === undefined) return undefined;
  const v = value.trim();
  if (!LENGTH.test(v))
    throw ValidationError.of(
      `page.${property}`,
      `Must be a length with a unit (mm, cm, in, px, em, rem, pt, pc), got ${JSON.stringify(value)}`,
    );
  const size = inches(v);
  if (Math.abs(size) > MAX_PAGE_INCHES)
    throw ValidationError.of(
      `page.${property}`,
      `Must be at most ${MAX_PAGE_INCHES}in (the largest PDF page), got ${JSON.stringify(value)}`,
    );
  if (kind === 'side' && !(size > 0))
    throw ValidationError.of(`page.${property}`, `Must be a positive length, got ${JSON.stringify(value)}`);
  return v;
}

function sides(shorthand: string | undefined): [string, string, string, string] {
  const parts = (shorthand ?? DEFAULT_MARGIN)
    .trim()
    .split(/\s+/)
    .map((p) => length(p, 'margin')!);
  const [t, r = t, b = t, l = r] = parts as [string, string?, string?, string?];
  if (parts.length > 4) throw ValidationError.of('page.margin', 'Must be one to four lengths');
  return [t, r!, b!, l!];
}

/**
 * The page options as one `@page` rule placed before every document style:
 * at equal specificity the later rule wins, so the document's own `@page`
 * rules override whatever they also set, and `:first`/named pages beat it anyway.
 */
/** The request's page: its CSS lengths (checked) and its content box in points. */
function pageGeometry(page: HtmlPageOptions): {
  width: string;
  height: string;
  margin: string[];
  contentWidth: number;
  contentHeight: number;
} {
  const width = length(page.width, 'width', 'side') ?? DEFAULT_PAGE_WIDTH;
  const height = length(page.height, 'height', 'side') ?? DEFAULT_PAGE_HEIGHT;
  const [t, r, b, l] = sides(page.margin);
  const margin = [
    length(page.marginTop, 'marginTop') ?? t,
    length(page.marginRight, 'marginRight') ?? r,
    length(page.marginBottom, 'marginBottom') ?? b,
    length(page.marginLeft, 'marginLeft') ?? l,
  ];
  // Margins that leave no room would be silently replaced by Chromium's Letter default: they are
  // the same 400 as in Markdown, with Markdown's minimum of half an inch (36 pt).
  const contentWidth = (inches(width) - inches(margin[1]!) - inches(margin[3]!)) * 72;
  const contentHeight = (inches(height) - inches(margin[0]!) - inches(margin[2]!)) * 72;
  if (contentWidth < MIN_CONTENT_PT || contentHeight < MIN_CONTENT_PT) {
    throw ValidationError.of(
      'page',
      `The margins leave no room for content (${Math.round(contentWidth)} × ${Math.round(contentHeight)} pt)`,
    );
  }
  return { width, height, margin, contentWidth, contentHeight };
}

/** Width of the request's content box in CSS px: the screen layout's width, so it matches the print's first page. */
export function contentWidthPx(page: HtmlPageOptions = {}): number {
  return pageGeometry(page).contentWidth / 0.75;
}

export function pageOptionsCss(page: HtmlPageOptions = {}): string {
  const { width, height, margin } = pageGeometry(page);
  const counter = page.pageCount
    ? ` @${BOX[page.pageCount]} { content: "Page " counter(page) " of " counter(pages); font-family: 'Noto Sans', sans-serif; font-size: 9pt; color: #555; }`
    : '';
  return `@page { size: ${width} ${height}; margin: ${margin.join(' ')};${counter} }`;
}

/**
 * `Noto Scripts`: the fonts-noto-core face of each script fill and Markdown fall back to (src/fonts
 * script-ranges), by Unicode block, regular and bold. Without it Chromium asks fontconfig per character,
 * which answers DejaVu Sans for Arabic and ignores the weight: bold Arabic would come out as synthetic
 * bold, which Skia embeds as a Type 3 font. Only the scripts a document's text has get their rules: all
 * ~70 pairs cost ~10 ms on every Latin invoice, and a document with none gets neither the rules nor the
 * family in its stack.
 */
const SCRIPT_RULES = new Map(
  [...scriptBlocks()].map(([font, blocks]) => {
    const range = blocks
      .map(([a, b]) => `U+${a.toString(16).toUpperCase()}-${b.toString(16).toUpperCase()}`)
      .join(', ');
    return [
      font,
      `@font-face { font-family: 'Noto Scripts'; src: local('${font}-Regular'); font-weight: 100 500; unicode-range: ${range}; }
@font-face { font-family: 'Noto Scripts'; src: local('${font}-Bold'); font-weight: 600 900; unicode-range: ${range}; }`,
    ] as const;
  }),
);
const FIRST_SCRIPT_CODE_POINT = Math.min(...[...scriptBlocks().values()].flat().map(([a]) => a));

/** The script fonts whose blocks occur in `text`, written as characters or as numeric character references. */
function scriptsIn(text: string): Set<string> {
  const found = new Set<string>();
  const add = (cp: number): void => {
    if (cp < FIRST_SCRIPT_CODE_POINT) return;
    const font = scriptFontFor(cp);
    if (font) found.add(font);
  };
  // Code units below every script block are skipped without making a string per character (the text is
  // the whole document); a pair of surrogates is read as its one code point, a lone one as itself.
  for (let i = 0; i < text.length; i++) {
    if (text.charCodeAt(i) < FIRST_SCRIPT_CODE_POINT) continue;
    const cp = text.codePointAt(i)!;
    if (cp > 0xffff) i++;
    add(cp);
  }
  for (const m of text.matchAll(/&#(?:x([0-9a-f]{1,6})|([0-9]{1,7}));?/gi))
    add(m[1] ? parseInt(m[1], 16) : Number(m[2]));
  return found;
}

/**
 * `Noto CJK` is not a fontconfig family, so it is aliased to the installed
 * Noto Sans CJK faces; the custom properties are registered non-inherited so
 * only the element that declares them is running / unpaginated.
 */
const BASE_CSS = `@property --fs-running { syntax: "*"; inherits: false; }
@property --fs-table-paginate { syntax: "*"; inherits: false; }
@property --fs-string-set { syntax: "*"; inherits: false; }
@property --fs-bookmark-level { syntax: "*"; inherits: false; }
@property --fs-bookmark-label { syntax: "*"; inherits: false; }
@property --fs-bookmark-state { syntax: "*"; inherits: false; }
@property --fs-footnote { syntax: "*"; inherits: false; }
@property --fs-footnote-display { syntax: "*"; inherits: false; }
@property --fs-footnote-policy { syntax: "*"; inherits: false; }
@property --fs-page-float { syntax: "*"; inherits: false; }
@font-face { font-family: 'Noto CJK'; src: local('NotoSansCJKscTT-Regular'), local('Noto Sans CJK SC TT'), local('Noto Sans CJK SC'), local('NotoSansCJKsc-Regular'); font-weight: 100 500; }
@font-face { font-family: 'Noto CJK'; src: local('NotoSansCJKscTT-Bold'), local('Noto Sans CJK SC TT Bold'), local('Noto Sans CJK SC Bold'), local('NotoSansCJKsc-Bold'); font-weight: 600 900; }`;

/**
 * What every document gets first in `<head>`: the defaults above, the script faces `text` needs, the offline
 * catalogue's faces for the families `text` names (catalogue-fonts.ts), the default stack and the page options.
 */
export function defaultDocumentCss(page?: HtmlPageOptions, text = ''): string {
  const scripts = [...scriptsIn(text)].sort();
  const stack = scripts.length
    ? `'Noto Sans', 'Noto Scripts', 'Noto CJK', sans-serif`
    : `'Noto Sans', 'Noto CJK', sans-serif`;
  const faces = [...scripts.map((font) => SCRIPT_RULES.get(font)!), catalogueFontCss(text)].filter((r) => r).join('\n');
  // No synthetic bold (Skia writes it as a Type 3 font): bold in a family without a bold face uses the
  // regular face, as WeasyPrint does; `font-synthesis-weight: auto` in the document brings it back.
  return `${BASE_CSS}\n${faces}${faces ? '\n' : ''}:where(html) { font-family: ${stack}; font-synthesis-weight: none; }\n${pageOptionsCss(page)}`;
}
