/**
 * Where each page starts in the screen layout, for the first guess of every marker's page: Chromium's
 * pagination modelled with the footnote plan's cuts (cut.ts: lines, orphans, widows, `break-*: avoid`,
 * table rows, unbreakable boxes) and the forced breaks. A guess cut at page heights alone lost a line's
 * leftover at every page end and, a few pages on, put headings on the page before theirs: one more print.
 * The walk resumes where the last page ended, so it costs a pass over the document, not one per page.
 */
import { resolvePage } from '../page-cascade.js';
import type { PageState } from '../state.js';
import { allAbove, cutAt, type Resume } from './cut.js';

/** Pages modelled at most (a guard: a document that makes progress never reaches it). */
const MAX_PAGES = 100000;

/** Out of the flow or not rendered: nothing in it makes a page. */
function boxless(el: Element): boolean {
  if (el.tagName.startsWith('CASTPRESS-')) return true;
  const cs = getComputedStyle(el);
  return cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed';
}

/** The node after `n` in document order within <body>, past n's subtree when `skip`. */
function nextNode(n: Node, skip: boolean): Node | null {
  if (!skip && n.firstChild) return n.firstChild;
  for (let up: Node | null = n; up && up !== document.body; up = up.parentNode)
    if (up.nextSibling) return up.nextSibling;
  return null;
}

/**
 * Whether anything rendered (text, a box with height) lies between break `from` (null: the body's start)
 * and break `to` (null: the body's end). Walks only until the first such thing, usually a node or two.
 */
export function renderedBetween(
  from: { el: Element; before: boolean } | null,
  to: { el: Element; before: boolean } | null,
): boolean {
  let n: Node | null = from === null ? document.body.firstChild : from.before ? from.el : nextNode(from.el, true);
  while (n) {
    if (to && n === to.el) return !to.before;
    if (n.nodeType === Node.TEXT_NODE) {
      if (/\S/.test(n.textContent || '')) return true;
      n = nextNode(n, true);
      continue;
    }
    if (!(n instanceof Element) || boxless(n)) {
      n = nextNode(n, true);
      continue;
    }
    // An element that holds the next break is entered; one beside it counts when it has a box.
    if (!(to && n.contains(to.el)) && n.getBoundingClientRect().height > 0) return true;
    n = nextNode(n, false);
  }
  return false;
}

/**
 * Screen y of the forced breaks that make a page (a forced break with nothing rendered since the last one,
 * like the document's first heading or `break-after` then `break-before`, makes none), in order: a
 * break before an element starts the page at its margin (kept after a forced break), one after it below
 * its margin.
 */
export function forcedStarts(S: PageState): number[] {
  const height = document.documentElement.scrollHeight;
  // In document order (a collapsed margin can put an element's top above its parent's): a break before an
  // element sits before it, one after it after its last descendant.
  const at = S.breaks.map((b) => {
    const r = b.el.getBoundingClientRect();
    const cs = getComputedStyle(b.el);
    const y = b.before ? r.top - (parseFloat(cs.marginTop) || 0) : r.bottom + (parseFloat(cs.marginBottom) || 0);
    const point = document.createRange();
    if (b.before) point.setStartBefore(b.el);
    else point.setStartAfter(b.el);
    return { b, y: y + window.scrollY, point };
  });
  at.sort((p, q) => p.point.compareBoundaryPoints(Range.START_TO_START, q.point));
  const ys: number[] = [];
  let kept: (typeof S.breaks)[number] | null = null;
  for (const { b, y } of at) {
    if (y <= 1 || y >= height - 1) continue;
    // Breaks with nothing between them are one: the page starts at the higher of their tops.
    if (!renderedBetween(kept, b)) {
      if (kept) ys[ys.length - 1] = Math.min(ys[ys.length - 1] as number, y);
      continue;
    }
    ys.push(y);
    kept = b;
  }
  if (kept && !kept.before && !renderedBetween(kept, null)) ys.pop();
  return ys.sort((p, q) => p - q);
}

/** Content height of page k (CSS px) as its page rules give it; `name`: its page name. */
export function pageRoom(S: PageState, k: number, name: string): number {
  const p = resolvePage(S, k, name);
  return Math.max(50, p.h - p.top - p.bottom);
}

/**
 * Screen y of each page's content top, the first at 0. A page's name is that of the innermost named
 * element at its top (its size and margins can differ: a full-page chapter opener on a page without
 * margins).
 */
export function pageStarts(S: PageState): number[] {
  const end = document.documentElement.scrollHeight;
  const breaks = forcedStarts(S);
  const named = S.named.map((n) => {
    const r = n.el.getBoundingClientRect();
    return { name: n.name, top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
  });
  const nameAt = (y: number): string => {
    let name = '';
    for (const n of named) if (n.top <= y + 0.5 && n.bottom > y + 0.5) name = n.name;
    return name;
  };
  const resume: Resume = new Map();
  const starts = [0];
  let b = 0;
  for (let k = 0, start = 0; k < MAX_PAGES; k++) {
    const limit = start + pageRoom(S, k, nameAt(start));
    while (b < breaks.length && (breaks[b] as number) <= start + 1) b++;
    const forced = breaks[b] ?? Infinity;
    let next: number;
    if (forced <= limit + 0.5) next = forced;
    else {
      const cut = cutAt(start, limit, resume);
      if (cut) next = cut.next;
      else if (!allAbove(limit, resume))
        next = limit; // a box taller than the page: Chromium slices it
      else if (forced < Infinity) next = forced;
      else break;
    }
    if (next <= start + 1) next = limit;
    if (next >= end - 1) break;
    starts.push(next);
    start = next;
  }
  return starts;
}
