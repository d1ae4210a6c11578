/**
 * Page floats (`float: top | bottom`, renamed `--fs-page-float` by css/page-float-css.ts), as Prince and
 * Vivliostyle place them: at the top or the bottom of the page their place in the text falls on, the
 * text of that page flowing below or above them. Chromium paginates; castpress only moves the element.
 * The first print says on which page each float landed and how far down it; on the screen layout (the
 * print's width) that page then starts at the float's screen top less that offset, and the float moves
 * in the DOM to where that page starts (top) or to where content that would not fit with it begins
 * (bottom): before a block, or inside a paragraph as a full-width float before the line, as footnote
 * spacers go (footnotes/cut.ts finds both). One more print shows the result.
 */
import type { LayoutState } from './contract.js';
import { candidates, idFor } from './dom.js';
import { cutAt, top, type Cut } from './footnotes/cut.js';
import { resolvePage } from './page-cascade.js';
import type { PageState, StyleRuleInfo } from './state.js';

type PageFloat = PageState['pageFloats'][number];

/** Finds the page floats of the body's flow and gives each a destination. */
export function preparePageFloats(S: PageState, styleRules: StyleRuleInfo[]): void {
  const found: Array<{ el: HTMLElement; side: PageFloat['side'] }> = [];
  for (const el of candidates(styleRules, '--fs-page-float')) {
    const cs = getComputedStyle(el);
    const side = cs.getPropertyValue('--fs-page-float').trim();
    if (side !== 'top' && side !== 'bottom') continue;
    // Running elements and notes leave the flow; a float inside another float moves with it.
    if (cs.display === 'none' || !el.getClientRects().length || S.running.some((r) => r.el.contains(el))) continue;
    if (found.some((f) => f.el.contains(el))) continue;
    found.push({ el, side });
  }
  for (const { el, side } of found) S.pageFloats.push({ el, side, id: idFor(S, el, 'f') });
}

interface Plan {
  f: PageFloat;
  /** Screen y of the float's top, of its page's start, and the page area's height (CSS px). */
  y: number;
  start: number;
  room: number;
  /** The float's margin box height. */
  height: number;
}

/** Moves each page float of the printed `state` to its page's top or bottom; how many moved. */
export function placePageFloats(S: PageState, state: LayoutState): number {
  // Everything is read before anything moves.
  const plans: Plan[] = [];
  for (const f of S.pageFloats) {
    const page = state.pages[f.id];
    const offset = state.tops?.[f.id];
    if (page === undefined || offset === undefined || !f.el.isConnected) continue;
    const r = f.el.getBoundingClientRect();
    const cs = getComputedStyle(f.el);
    const P = resolvePage(S, page, state.names[page] ?? '');
    const y = r.top + window.scrollY;
    plans.push({
      f,
      y,
      // Destinations are points from the top of the page area.
      start: y - offset / 0.75,
      room: P.h - P.top - P.bottom,
      height: r.height + (parseFloat(cs.marginTop) || 0) + (parseFloat(cs.marginBottom) || 0),
    });
  }
  let moved = 0;
  // Last first: a float moved within its page leaves everything before that page where it was.
  for (const p of plans.reverse()) if (p.f.side === 'top' ? toTop(p) : toBottom(p)) moved++;
  return moved;
}

/** Before the content that starts the float's page. */
function toTop(p: Plan): boolean {
  if (p.y - p.start < 1) return false;
  const cut = cutAt(p.start - p.room, p.start + 0.5);
  if (!cut || cut.kind === 'row' || cut.top > p.y - 0.5) return false;
  insertAt(p.f.el, cut);
  return true;
}

/** Before the first content that would not fit above it, its bottom pushed down to the page's end. */
function toBottom(p: Plan): boolean {
  const end = p.start + p.room;
  // Two pixels short of the end: the screen and the print may differ by one.
  if (end - (p.y + p.height) < 3) return false;
  const el = p.f.el;
  const parent = el.parentNode as Node;
  const next = el.nextSibling;
  el.remove();
  const cut = cutAt(p.start, end - p.height);
  if (cut && cut.kind === 'row') {
    parent.insertBefore(el, next);
    return false;
  }
  if (cut) insertAt(el, cut);
  else document.body.appendChild(el);
  const gap = end - 2 - (top(el) - (parseFloat(getComputedStyle(el).marginTop) || 0) + p.height);
  if (gap > 0)
    el.style.setProperty('margin-top', (parseFloat(getComputedStyle(el).marginTop) || 0) + gap + 'px', 'important');
  return true;
}

/** `el` where a spacer for `cut` would go: a block before a block, a full-width float before a line. */
function insertAt(el: HTMLElement, cut: Cut): void {
  let node = cut.node;
  if (cut.offset > 0 && node.nodeType === Node.TEXT_NODE) node = (node as Text).splitText(cut.offset);
  if (cut.kind === 'float') {
    el.style.setProperty('float', 'left', 'important');
    el.style.setProperty('clear', 'none', 'important');
    el.style.setProperty('box-sizing', 'border-box', 'important');
    el.style.setProperty('width', '100%', 'important');
  }
  (node.parentNode as Node).insertBefore(el, node);
}
