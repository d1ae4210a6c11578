/**
 * The CSSOM read once per job: style rules (nested ones with their full selector), `@page` rules
 * with their margin boxes, page sizes and lengths, page groups; the cascade for one page is
 * page-cascade.ts.
 */
import { DEFAULTS_STYLE_ID, ELEMENT_SENTINEL, FOOTNOTE_RULE, STRING_SENTINEL } from './contract.js';
import { contentHasText, declarations, overlayDraws, parseSelectors, splitArgs, tokens } from './css-text.js';
import { beforeHead, helper } from './dom.js';
import type { Declaration, PageGroup, PageState, StyleRuleInfo } from './state.js';

const NAMED_SIZES: Record<string, [number, number, string]> = {
  a5: [148, 210, 'mm'],
  a4: [210, 297, 'mm'],
  a3: [297, 420, 'mm'],
  b5: [176, 250, 'mm'],
  b4: [250, 353, 'mm'],
  'jis-b5': [182, 257, 'mm'],
  'jis-b4': [257, 364, 'mm'],
  letter: [8.5, 11, 'in'],
  legal: [8.5, 14, 'in'],
  ledger: [11, 17, 'in'],
};
const UNIT_PX: Record<string, number> = { mm: 96 / 25.4, in: 96, cm: 96 / 2.54, pt: 96 / 72, pc: 16, px: 1 };

/** A margin rule (`@top-center`…) inside a page rule; TypeScript's DOM has no CSSMarginRule. */
type MarginRule = CSSRule & { name?: string; style?: CSSStyleDeclaration };

/** The rules of a document: style rules, page rules, and each page rule's `@footnote` (css/footnote-css.ts). */
export interface DocumentRules {
  style: StyleRuleInfo[];
  page: CSSPageRule[];
  footnote: Map<CSSPageRule, CSSStyleDeclaration>;
}

/** Every style rule and page rule that applies (media and supports conditions checked, imports followed). */
export function collectRules(): DocumentRules {
  const style: StyleRuleInfo[] = [],
    page: CSSPageRule[] = [];
  const footnote = new Map<CSSPageRule, CSSStyleDeclaration>();
  // Nested rules serialise relative to their parent ('&::before'): each style rule gets its full selector.
  const walk = (rules: CSSRuleList, parent: string): void => {
    for (const r of rules) {
      if (r instanceof CSSPageRule) page.push(r);
      else if (r instanceof CSSStyleRule && r.selectorText === FOOTNOTE_RULE) {
        // Written right after its page rule: the last one read.
        const owner = page[page.length - 1];
        if (owner) footnote.set(owner, r.style);
      } else if (r instanceof CSSStyleRule) {
        const own = r.selectorText;
        const full = !parent
          ? own
          : splitArgs(own)
              .map((one) =>
                one.includes('&') ? one.replace(/&/g, ':is(' + parent + ')') : ':is(' + parent + ') ' + one,
              )
              .join(', ');
        style.push({ style: r.style, selectorText: full });
        if (r.cssRules && r.cssRules.length) walk(r.cssRules, full);
      } else if (r instanceof CSSMediaRule) {
        if (matchMedia(r.media.mediaText || 'all').matches) walk(r.cssRules, parent);
      } else if (r instanceof CSSSupportsRule) {
        if (CSS.supports(r.conditionText)) walk(r.cssRules, parent);
      } else if (r instanceof CSSImportRule) {
        try {
          if (r.styleSheet) walk(r.styleSheet.cssRules, parent);
        } catch {
          /* cross-origin */
        }
      } else if ((r as Partial<CSSGroupingRule>).cssRules) walk((r as CSSGroupingRule).cssRules, parent);
    }
  };
  for (const sheet of document.styleSheets) {
    if (sheet.disabled) continue;
    if (sheet.media && sheet.media.length && !matchMedia(sheet.media.mediaText).matches) continue;
    let rules: CSSRuleList;
    try {
      rules = sheet.cssRules;
    } catch {
      continue;
    }
    walk(rules, '');
  }
  return { style, page, footnote };
}

/** A CSS length in px (percentages of basis); other units through a hidden probe element. */
export function px(S: PageState, value: string | number | null | undefined, basis: number): number {
  const text = String(value || '').trim();
  if (!text || text === 'auto') return 0;
  if (text.endsWith('%')) return (parseFloat(text) / 100) * basis;
  const m = /^(-?[\d.]+)(mm|in|cm|pt|pc|px)$/i.exec(text);
  if (m) return parseFloat(m[1]) * (UNIT_PX[m[2].toLowerCase()] as number);
  if (!S.probe)
    S.probe = beforeHead(
      helper(
        'probe',
        'display:block!important;position:absolute!important;visibility:hidden!important;font-size:medium!important;height:0;left:0;top:0;padding:0!important;border:0!important;box-sizing:content-box!important;min-width:0!important;max-width:none!important',
      ),
    );
  S.probe.style.width = text;
  return S.probe.getBoundingClientRect().width;
}

/** A `size` value → [width, height] px (the request's page when it names none). */
export function pageSize(S: PageState, value: string | null | undefined): [number, number] {
  const tokens = String(value || '')
    .trim()
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean);
  let [w, h] = S.defaultSize || [816, 1056];
  let orient = '';
  const lengths: number[] = [];
  for (const t of tokens) {
    const named = NAMED_SIZES[t];
    if (named) {
      const [a, b, u] = named;
      w = a * (UNIT_PX[u] as number);
      h = b * (UNIT_PX[u] as number);
    } else if (t === 'landscape' || t === 'portrait') orient = t;
    else if (t !== 'auto') lengths.push(px(S, t, 0));
  }
  if (lengths.length === 1) {
    w = h = lengths[0] as number;
  }
  if (lengths.length >= 2) {
    w = lengths[0] as number;
    h = lengths[1] as number;
  }
  if ((orient === 'landscape' && w < h) || (orient === 'portrait' && w > h)) [w, h] = [h, w];
  return [w, h];
}

/**
 * The request's page is the "UA default" of css-page-3: `size: auto | landscape | portrait` keep its size
 * (Chromium would turn them into Letter, so the ticket sample printed on Letter landscape instead of A4).
 */
export function defaultSizes(S: PageState, pageRules: CSSPageRule[]): void {
  const own = document.getElementById(DEFAULTS_STYLE_ID) as HTMLStyleElement | null;
  let rules: CSSRule[] = [];
  try {
    rules = own && own.sheet ? [...own.sheet.cssRules] : [];
  } catch {
    /* unreadable: no defaults */
  }
  const options = rules.find((r): r is CSSPageRule => r instanceof CSSPageRule && !r.selectorText);
  if (!options || !options.style.getPropertyValue('size')) return;
  S.defaultSize = pageSize(S, options.style.getPropertyValue('size'));
  const [w, h] = S.defaultSize;
  for (const r of pageRules) {
    const v = r.style.getPropertyValue('size').trim().toLowerCase();
    if (v !== 'auto' && v !== 'landscape' && v !== 'portrait') continue;
    const [a, b] =
      v === 'landscape'
        ? [Math.max(w, h), Math.min(w, h)]
        : v === 'portrait'
          ? [Math.min(w, h), Math.max(w, h)]
          : [w, h];
    r.style.setProperty('size', a + 'px ' + b + 'px', r.style.getPropertyPriority('size'));
  }
}

export function readPageRules(
  S: PageState,
  pageRules: CSSPageRule[],
  footnote: Map<CSSPageRule, CSSStyleDeclaration> = new Map(),
): void {
  S.rtl = rightToLeft();
  let order = 0;
  for (const r of pageRules) {
    const boxes: Record<string, Declaration[]> = {};
    for (const m of (r.cssRules || []) as Iterable<MarginRule>)
      if (m.name && m.style) boxes[m.name] = declarations(m.style);
    const area = footnote.get(r);
    // The footnote area cascades like a margin box (css-gcpm-3 §2.3), under the name `footnote`.
    if (area) boxes.footnote = declarations(area);
    S.pageRules.push({
      selectors: parseSelectors(r.selectorText),
      order: order++,
      decls: declarations(r.style),
      boxes,
    });
  }
  S.marginExtras = S.pageRules.some(
    (r) =>
      r.decls.some(([n]) => n === 'margin-top' || n === 'margin-bottom') &&
      r.selectors.some((s) => s.nth || (s.name && s.pseudos.includes('first'))),
  );
  const contents = S.pageRules.flatMap((r) =>
    Object.values(r.boxes).flatMap((d) => d.filter(([n]) => n === 'content').map(([, v]) => v)),
  );
  S.usesStart = contents.some((v) => tokens(v).some((t) => (t.element ?? t.string)?.policy === 'start'));
  if (contents.some((v) => v.includes(ELEMENT_SENTINEL) || v.includes(STRING_SENTINEL)) || ownBoxes(S))
    switchToOverlay(S, pageRules);
  else if (readingOrderNeedsOverlay(S)) switchToOverlay(S, pageRules, (name) => !TOP_BAND.has(name));
}

/**
 * Each page's page group (css-gcpm-3 §4.1): a group starts where the page name changes, and on the page a
 * named element starts after a forced break (chapters of one name, each from a new page, are groups of
 * their own). Unnamed pages are in the group ''.
 */
export function pageGroups(S: PageState, names: string[], pages: Record<string, number>): PageGroup[] {
  const starts = new Set(S.named.filter((n) => n.forced).map((n) => pages[n.start]));
  const out: PageGroup[] = [];
  names.forEach((name, i) => {
    const prev = out[i - 1];
    const fresh = !prev || prev.name !== name || (name !== '' && starts.has(i));
    out.push({ name, index: fresh ? 1 : (prev as PageGroup).index + 1 });
  });
  return out;
}

/** Page rules castpress alone matches with margin boxes: the overlay draws every box then, so one cascade decides. */
function ownBoxes(S: PageState): boolean {
  const drawable = S.pageRules.every((r) =>
    Object.values(r.boxes).every((d) =>
      d.every(
        ([n, v]) =>
          n !== 'content' ||
          v === 'none' ||
          v === 'normal' ||
          overlayDraws(v) ||
          v.includes(ELEMENT_SENTINEL) ||
          v.includes(STRING_SENTINEL),
      ),
    ),
  );
  return (
    drawable &&
    S.pageRules.some(
      (r) =>
        Object.keys(r.boxes).some((b) => b !== 'footnote') &&
        r.selectors.some((s) => s.nth || (s.name && s.pseudos.includes('first'))),
    )
  );
}

/** The top band's boxes: read before the page area, where Chromium paints them. */
const TOP_BAND = new Set(['top-left-corner', 'top-left', 'top-center', 'top-right', 'top-right-corner']);

/**
 * Chromium paints a page's margin boxes before its page area, so text extraction (and anything reading
 * the content stream in order) reads a footer before the page it closes; WeasyPrint and reading order
 * put it after. The overlay is drawn after the page area: the boxes below and beside it go there when
 * one of them has text and the overlay draws every such box as Chromium would (strings and page
 * counters; url(), attr(), other counters or page-context counter rules keep the document on Chromium's boxes).
 */
function readingOrderNeedsOverlay(S: PageState): boolean {
  let text = false;
  for (const r of S.pageRules) {
    // Counters of the page context (`@page { counter-increment: page 2 }`): Chromium's boxes count them, the
    // overlay's page numbers do not.
    if (r.decls.some(([n]) => n.startsWith('counter-'))) return false;
    for (const [name, decls] of Object.entries(r.boxes)) {
      if (TOP_BAND.has(name) || name === 'footnote') continue;
      for (const [n, v] of decls) {
        if (n !== 'content' || v === 'none' || v === 'normal') continue;
        if (!overlayDraws(v)) return false;
        if (contentHasText(v)) text = true;
      }
    }
  }
  return text;
}

/**
 * css-page-3's page progression: right-to-left when the root's writing mode is vertical-rl (or
 * sideways-rl), or horizontal with direction: rtl. Chromium's own :left/:right follow it too.
 */
function rightToLeft(): boolean {
  const cs = getComputedStyle(document.documentElement);
  if (/^(vertical|sideways)-rl$/.test(cs.writingMode)) return true;
  if (/^(vertical|sideways)-lr$/.test(cs.writingMode)) return false;
  return cs.direction === 'rtl';
}

/**
 * Margin boxes are drawn by the overlay pages, Chromium's own are switched off: all of them, or those
 * `only` names (the others stay Chromium's: each side's boxes are laid out apart from the other sides').
 */
export function switchToOverlay(S: PageState, pageRules: CSSPageRule[], only?: (name: string) => boolean): void {
  const names = new Set<string>();
  for (const r of pageRules)
    for (const m of (r.cssRules || []) as Iterable<MarginRule>)
      if (m.style && m.name && (!only || only(m.name))) {
        m.style.setProperty('content', 'none', 'important');
        names.add(m.name);
      }
  S.overlayOnly = only ? (S.overlay && !S.overlayOnly ? null : names) : null;
  S.overlay = true;
}
