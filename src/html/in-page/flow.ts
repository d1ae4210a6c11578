/**
 * Where pages start and what they are called: page counters in ordinary elements, named pages,
 * forced and left/right breaks, unpaginated tables, and the first guess of every marker's page
 * from the screen layout.
 */
import { BLANK_PAGE, wrongSide, type LayoutState, type Margins, type Side } from './contract.js';
import { candidates, documentOrder, followingId, helper, idFor } from './dom.js';
import { forcedStarts, pageRoom, pageStarts } from './footnotes/pages.js';
import { resolvePage } from './page-cascade.js';
import { pageGroups } from './page-rules.js';
import { newId, type NamedPageElement, type PageState, type StyleRuleInfo } from './state.js';

/** Elements whose ::before/::after show counter(page) or counter(pages): their counter-reset carries the numbers. */
export function prepareCounters(S: PageState, styleRules: StyleRuleInfo[]): void {
  const uses = (v: string) => /counters?\(\s*pages?\s*[,)]/.test(v);
  const els = candidates(styleRules, 'content', (v, r) => uses(v) && /::?(before|after|marker)\b/.test(r.selectorText));
  for (const el of els) {
    if (S.running.some((r) => r.el.contains(el))) continue;
    if (!['::before', '::after'].some((p) => uses(getComputedStyle(el, p).content))) continue;
    const cr = getComputedStyle(el).counterReset;
    S.counters.push({ el, id: idFor(S, el, 'c'), base: cr && cr !== 'none' ? cr : '' });
  }
}

export function prepareNamed(S: PageState, styleRules: StyleRuleInfo[]): void {
  for (const el of candidates(styleRules, 'page')) {
    const name = getComputedStyle(el).page;
    if (!name || name === 'auto' || S.named.some((n) => n.el.contains(el))) continue;
    S.named.push({
      el,
      name,
      start: idFor(S, el, 'n'),
      next: followingId(S, el),
      forced: forcedBefore(el),
      marginTop: getComputedStyle(el).marginTop,
    });
  }
}

const FORCED = /^(page|left|right|recto|verso)$/;

/** A forced break before `el`: its own break-before, or break-after on the element before it. */
function forcedBefore(el: Element): boolean {
  if (FORCED.test(getComputedStyle(el).breakBefore)) return true;
  const prev = el.previousElementSibling;
  return !!prev && FORCED.test(getComputedStyle(prev).breakAfter);
}

/**
 * Chromium treats break-before/after: left|right|recto|verso as a plain page break. The
 * blank page a book-style break needs is a zero-height spacer on a page of its own (named
 * page '__fs_blank', which author `@page :blank` rules are renamed to, page-rules.ts), inserted
 * once the printed layout shows the side is wrong.
 *
 * The side is kept as the parity wrongSide() wants: 'right' = recto (page 1's side), 'left' =
 * verso. In a right-to-left page progression page 1 is a left page (css-page-3), so a physical
 * `left` is recto there and `right` verso.
 */
export function side(value: string | null | undefined, rtl = false): Side | null {
  const v = String(value || '').trim();
  if (v === 'recto') return 'right';
  if (v === 'verso') return 'left';
  if (v === 'left') return rtl ? 'right' : 'left';
  if (v === 'right') return rtl ? 'left' : 'right';
  return null;
}

export function prepareSideBreaks(S: PageState, styleRules: StyleRuleInfo[]): void {
  const set = new Set<HTMLElement>();
  for (const prop of ['break-before', 'page-break-before', 'break-after', 'page-break-after']) {
    for (const el of candidates(styleRules, prop, (v) => side(v) !== null)) set.add(el);
  }
  for (const el of set) {
    const cs = getComputedStyle(el);
    const before = side(cs.breakBefore, S.rtl),
      after = side(cs.breakAfter, S.rtl);
    if (!before && !after) continue;
    // The blank pages' spacers get their ids (and links) now: a destination then tells which pages are :blank.
    const blanks = [newId(S, 'b'), newId(S, 'b')];
    S.markers.push(...blanks);
    S.sides.push({
      el,
      before,
      after,
      start: idFor(S, el, 's'),
      next: after ? followingId(S, el) : null,
      spacerBefore: null,
      spacerAfter: null,
      blanks,
    });
  }
  S.sides.sort((a, b) => documentOrder(a.el, b.el));
}

/**
 * The blank page: a spacer alone on a page. In block flow its page name parts it from what comes before and
 * after; between flex or grid items names do not break, so its own forced breaks do (and a full row).
 */
function spacer(id: string): HTMLElement {
  const d = helper('blank', '');
  d.id = id;
  d.setAttribute('data-fs-blank', '');
  d.style.cssText =
    'page:' +
    BLANK_PAGE +
    '!important;height:0!important;margin:0!important;padding:0!important;border:0!important;display:block!important;float:none!important;position:static!important;' +
    'break-before:page!important;break-after:page!important;width:100%!important;flex:0 0 100%!important;grid-column:1/-1!important;min-height:1px!important';
  return d;
}

function blockFlow(el: Element | null): boolean {
  const d = el ? getComputedStyle(el).display : 'block';
  return d === 'block' || d === 'flow-root' || d === 'list-item';
}

/**
 * Where a side break's blank page goes: before the element (or after it), or before (after) the flex or grid
 * container it starts (ends), where a forced break on a first (last) item takes effect (css-flexbox-1 §12).
 */
function breakHost(el: Element, before: boolean): Element {
  let e = el;
  for (let up = e.parentElement; up && up !== document.body && !blockFlow(up); up = up.parentElement) {
    const edge = before ? up.firstElementChild : up.lastElementChild;
    if (edge !== e) break;
    e = up;
  }
  return e;
}

/**
 * Inserts (or removes) the blank pages that put left/right breaks on their side in `state`, and returns
 * `state` as the print will then be: pages after a blank page one later, the blank pages named
 * `BLANK_PAGE`. The numbers written for it (counters, overlay) then match that print, which a second
 * print confirms instead of correcting.
 */
export function applySides(S: PageState, state: LayoutState): LayoutState {
  let delta = 0;
  // Per original page: blank pages inserted before it (their marker ids), or the page itself dropped.
  const added = new Map<number, string[]>();
  const dropped = new Set<number>();
  const add = (page: number, id: string) => added.set(page, [...(added.get(page) || []), id]);
  const drop = (id: string) => {
    const p = state.pages[id];
    if (p !== undefined) dropped.add(p);
  };
  for (const e of S.sides) {
    const start = state.pages[e.start];
    if (e.before && start !== undefined && wrongSide(start + delta, e.before)) {
      if (e.spacerBefore) {
        e.spacerBefore.remove();
        e.spacerBefore = null;
        drop(e.blanks[0] as string);
        delta--;
      } else {
        e.spacerBefore = spacer(e.blanks[0] as string);
        const host = breakHost(e.el, true);
        (host.parentNode as Node).insertBefore(e.spacerBefore, host);
        add(start, e.blanks[0] as string);
        delta++;
      }
    }
    const next = e.next ? state.pages[e.next] : undefined;
    if (e.after && e.next && next !== undefined && wrongSide(next + delta, e.after)) {
      if (e.spacerAfter) {
        e.spacerAfter.remove();
        e.spacerAfter = null;
        drop(e.blanks[1] as string);
        delta--;
      } else {
        e.spacerAfter = spacer(e.blanks[1] as string);
        const host = breakHost(e.el, false);
        (host.parentNode as Node).insertBefore(e.spacerAfter, host.nextSibling);
        add(next, e.blanks[1] as string);
        delta++;
      }
    }
  }
  if (!added.size && !dropped.size) return state;
  const to: number[] = [];
  const names: string[] = [];
  const sizes: LayoutState['sizes'] = [];
  const pages: Record<string, number> = {};
  const tops: Record<string, number> = { ...(state.tops || {}) };
  for (let p = 0; p < state.total; p++) {
    for (const id of added.get(p) || []) {
      pages[id] = names.length;
      tops[id] = 0;
      names.push(BLANK_PAGE);
      sizes.push(state.sizes[p] as [number, number]);
    }
    to[p] = names.length;
    if (dropped.has(p)) continue;
    names.push(state.names[p] ?? '');
    sizes.push(state.sizes[p] as [number, number]);
  }
  for (const [id, p] of Object.entries(state.pages)) {
    if (id in pages) continue;
    if (dropped.has(p) && S.sides.some((e) => e.blanks.includes(id))) continue;
    pages[id] = p < state.total ? (to[p] as number) : p + names.length - state.total;
  }
  return { ...state, total: names.length, pages, names, sizes, tops };
}

/**
 * A forced break on an inline-level element (`<br style="page-break-before: always">`, as word processors
 * write page breaks; a span, an image): css-break-3 has it apply to block-level boxes only, and Chromium
 * ignores it, so the page does not break. It breaks here: an empty block with the break goes before (or
 * after) the element, which parts the line there.
 */
export function inlineBreaks(styleRules: StyleRuleInfo[]): void {
  const forced = (v: string) => FORCED.test(v) || v === 'always';
  const set = new Set<HTMLElement>();
  for (const prop of ['break-before', 'page-break-before', 'break-after', 'page-break-after'])
    for (const el of candidates(styleRules, prop, (v) => /page|always|left|right|recto|verso/.test(v))) set.add(el);
  const found: Array<{ el: HTMLElement; before: string | null; after: string | null }> = [];
  for (const el of set) {
    const cs = getComputedStyle(el);
    if (!cs.display.startsWith('inline') || cs.position === 'absolute' || cs.position === 'fixed') continue;
    const before = forced(cs.breakBefore) ? cs.breakBefore : null;
    const after = forced(cs.breakAfter) ? cs.breakAfter : null;
    if (before || after) found.push({ el, before, after });
  }
  const helperBreak = (value: string, side: 'before' | 'after') =>
    helper(
      'break',
      'display:block!important;height:0!important;margin:0!important;padding:0!important;border:0!important;break-' +
        side +
        ':' +
        value +
        '!important',
    );
  for (const { el, before, after } of found) {
    if (before) (el.parentNode as Node).insertBefore(helperBreak(before, 'before'), el);
    if (after) (el.parentNode as Node).insertBefore(helperBreak(after, 'after'), el.nextSibling);
  }
}

/** Elements with a forced page break before or after them (for the first guess only). */
export function prepareBreaks(S: PageState, styleRules: StyleRuleInfo[]): void {
  const forced = (v: string) => /^(page|left|right|recto|verso)$/.test(v);
  const set = new Set<Element>();
  for (const prop of ['break-before', 'page-break-before', 'break-after', 'page-break-after']) {
    for (const el of candidates(styleRules, prop, (v) => /page|always|left|right|recto|verso/.test(v))) set.add(el);
  }
  // A page-name change breaks only between boxes in block flow (not between flex or grid items).
  const inBlockFlow = (el: Element) => {
    const d = el.parentElement ? getComputedStyle(el.parentElement).display : 'block';
    return d === 'block' || d === 'flow-root' || d === 'list-item';
  };
  for (const n of S.named) if (inBlockFlow(n.el)) set.add(n.el);
  for (const el of set) {
    const cs = getComputedStyle(el);
    const named = S.named.some((n) => n.el === el) && inBlockFlow(el);
    if (forced(cs.breakBefore) || named) S.breaks.push({ el, before: true });
    if (forced(cs.breakAfter) || named) S.breaks.push({ el, before: false });
  }
}

/** `-fs-table-paginate: none`: the table's header and footer may break like any row. */
export function prepareTables(styleRules: StyleRuleInfo[]): void {
  for (const el of candidates(styleRules, '--fs-table-paginate')) {
    if (getComputedStyle(el).getPropertyValue('--fs-table-paginate').trim() !== 'none') continue;
    const table = el.tagName === 'TABLE' ? el : el.closest('table');
    if (!table) continue;
    for (const part of table.querySelectorAll<HTMLElement>(':scope > thead, :scope > tfoot'))
      part.style.setProperty('break-inside', 'auto', 'important');
  }
}

function namedEnd(n: NamedPageElement, pages: Record<string, number>, total: number): number {
  const next = n.next ? pages[n.next] : undefined;
  return next === undefined ? total - 1 : Math.max(pages[n.start] as number, Math.min(next - 1, total - 1));
}

/**
 * With a footnote plan: its pages start where it says; past them, and between forced breaks, pages are cut
 * at page heights (the plan models every page when it runs through the document).
 */
function plannedStarts(S: PageState, height: number): number[] {
  const cuts = [...forcedStarts(S)];
  for (const p of S.footnotePages.slice(1)) if (p.start > 1 && p.start < height - 1) cuts.push(p.start);
  cuts.sort((a, b) => a - b);
  cuts.unshift(0);
  const starts: number[] = [];
  cuts.forEach((at, k) => {
    const to = cuts[k + 1] ?? height;
    const h = pageRoom(S, starts.length, '');
    const n = Math.max(1, Math.ceil((to - at - 1) / h));
    for (let j = 0; j < n; j++) starts.push(at + j * h);
  });
  return starts;
}

/** The first guess of every marker's page (and offset), from where pages start in the screen layout. */
export function estimate(S: PageState): LayoutState & { tops: Record<string, number> } {
  const height = document.documentElement.scrollHeight;
  const starts = S.footnotePages.length ? plannedStarts(S, height) : pageStarts(S);
  const place = (y: number): [number, number] => {
    let lo = 0,
      hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] as number) <= y + 0.5) lo = mid;
      else hi = mid - 1;
    }
    return [lo, Math.max(0, y - (starts[lo] as number)) * 0.75];
  };
  const pages: Record<string, number> = {};
  const tops: Record<string, number> = {};
  let total = Math.max(1, starts.length);
  for (const id of S.markers) {
    const el = document.getElementById(id);
    if (!el) continue;
    const [p, t] = place(Math.max(0, el.getBoundingClientRect().top + window.scrollY));
    pages[id] = p;
    tops[id] = t;
    total = Math.max(total, p + 1);
  }
  const names: string[] = [];
  for (let i = 0; i < total; i++) names.push('');
  for (const n of S.named)
    for (let i = pages[n.start] as number; i <= namedEnd(n, pages, total); i++) names[i] = n.name;
  S.pageGroups = pageGroups(S, names, pages);
  const sizes = names.map((name, i): [number, number] => {
    const p = resolvePage(S, i, name);
    return [p.w * 0.75, p.h * 0.75];
  });
  return { total, pages, names, sizes, tops };
}

/**
 * The margins of each page (by its name) on the printed sheet, a bleed added to each, by the page groups of
 * the layout written last (or of the guess).
 */
export function pageMargins(S: PageState, names: string[]): Margins[] {
  const b = S.sheet ? S.sheet.bleed : 0;
  return names.map((n, i) => {
    const p = resolvePage(S, i, n);
    return { top: p.top + b, right: p.right + b, bottom: p.bottom + b, left: p.left + b, width: p.w };
  });
}

/**
 * Whether Node reads the page margins after the print: to place bookmarks, form fields, a sheet's marks,
 * or the targets of the document's own links (`href="#..."`: any such link, whether its target exists or not).
 */
export function wantsMargins(S: PageState, needsDests: boolean, needsLayout: boolean): boolean {
  if (needsDests && (!needsLayout || S.forms.length > 0 || S.bookmarks.length > 0 || !!S.sheet)) return true;
  return document.querySelector('a[href*="#"], area[href*="#"]') !== null;
}
