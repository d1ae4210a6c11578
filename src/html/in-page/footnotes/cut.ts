/**
 * Where a page ends in the screen layout, and the spacers that end a printed page early (plan.ts). The
 * screen layout has the print's content width, so a page that starts at screen y `from` and is H tall
 * holds what lies above `from + H`; Chromium breaks before the first line or unbreakable box that crosses
 * it, keeping `orphans`, `widows` and `break-*: avoid`. A spacer is an empty box inserted before that
 * content: in a paragraph a full-width float (lines after it move below it; the lines before stay
 * justified, which a block inside the paragraph would end), between blocks a block, in a table a row.
 * It reaches half that content's first line short of the page end, so small differences between the
 * screen and the print move nothing.
 */
import { FOOTNOTE_CALL } from '../contract.js';
import { helper } from '../dom.js';

/** One line of a block's inline content (screen y, CSS px), and where it starts. */
export interface Line {
  top: number;
  bottom: number;
  node: Node;
}

/** Content that does not fit: a spacer goes before `node` (a text node is split at `offset` first). */
export interface Cut {
  node: Node;
  offset: number;
  kind: 'float' | 'block' | 'row';
  /** Screen y of the content moved on, the height of its first line or box, and the page top it makes (screen y). */
  top: number;
  height: number;
  next: number;
}

const REPLACED = /^(IMG|SVG|VIDEO|CANVAS|IFRAME|OBJECT|EMBED|INPUT|SELECT|TEXTAREA|BUTTON|METER|PROGRESS|MATH)$/;
const CALL = FOOTNOTE_CALL.toUpperCase();

export function top(el: Element): number {
  return el.getBoundingClientRect().top + window.scrollY;
}
function bottom(el: Element): number {
  return el.getBoundingClientRect().bottom + window.scrollY;
}

/** Elements that take no part in the flow: castpress's helpers (not its calls), out-of-flow and box-less ones. */
function outOfFlow(el: Element, cs: CSSStyleDeclaration): boolean {
  if (el.tagName.startsWith('CASTPRESS-') && el.tagName !== CALL) return true;
  return cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed';
}

function blockFlow(display: string): boolean {
  return display === 'block' || display === 'flow-root' || display === 'list-item';
}

/** Boxes castpress does not cut inside: replaced, flex, grid, multicol, floats, and `break-inside: avoid`. */
function unbreakable(el: Element, cs: CSSStyleDeclaration): boolean {
  return (
    REPLACED.test(el.tagName.toUpperCase()) ||
    el.tagName === CALL ||
    /flex|grid|box/.test(cs.display) ||
    cs.float !== 'none' ||
    cs.columnCount !== 'auto' ||
    cs.columnWidth !== 'auto' ||
    /avoid/.test(cs.breakInside)
  );
}

function blockOf(n: Node): Element {
  let b: Element | null = n.parentElement;
  while (b && b !== document.body && getComputedStyle(b).display.startsWith('inline')) b = b.parentElement;
  return b || document.body;
}

/** Half the leading of text in `el`: a glyph box of height `h` grows by it on both sides into its line box. */
function halfLeading(el: Element | null, h: number): number {
  const lh = el ? parseFloat(getComputedStyle(el).lineHeight) : NaN;
  return Number.isNaN(lh) ? 0 : Math.max(0, (lh - h) / 2);
}

/** The line boxes (near enough: glyph boxes grown by their half-leading) of `block`'s inline content, its nested blocks left out. */
export function linesOf(block: Element): Line[] {
  const pieces: Line[] = [];
  const range = document.createRange();
  const walk = (parent: Node): void => {
    for (let n = parent.firstChild; n; n = n.nextSibling) {
      if (n.nodeType === Node.TEXT_NODE) {
        if (!/\S/.test(n.textContent || '')) continue;
        range.selectNodeContents(n);
        for (const r of range.getClientRects()) {
          if (r.height <= 0) continue;
          const hl = halfLeading(n.parentElement, r.height);
          pieces.push({ top: r.top + window.scrollY - hl, bottom: r.bottom + window.scrollY + hl, node: n });
        }
      } else if (n instanceof Element) {
        const cs = getComputedStyle(n);
        if (outOfFlow(n, cs)) continue;
        if (cs.display === 'contents' || (cs.display === 'inline' && n.tagName !== CALL)) walk(n);
        else if (cs.display.startsWith('inline') || n.tagName === CALL) {
          const r = n.getBoundingClientRect();
          pieces.push({ top: r.top + window.scrollY, bottom: r.bottom + window.scrollY, node: n });
        }
      }
    }
  };
  walk(block);
  const lines: Line[] = [];
  for (const p of pieces) {
    const cur = lines[lines.length - 1];
    if (cur && p.top < (cur.top + cur.bottom) / 2) {
      cur.top = Math.min(cur.top, p.top);
      cur.bottom = Math.max(cur.bottom, p.bottom);
    } else lines.push({ ...p });
  }
  return lines;
}

/** The line box `el` (an inline box, a call) is on, screen y. */
export function lineOf(el: Element): { top: number; bottom: number } {
  const r = el.getBoundingClientRect();
  const y = (r.top + r.bottom) / 2 + window.scrollY;
  const line = linesOf(blockOf(el)).find((l) => y < l.bottom + 0.5);
  return line || { top: r.top + window.scrollY, bottom: r.bottom + window.scrollY };
}

/** Where line `line` starts in its first node: a character offset, or 0 for a box. */
function lineOffset(line: Line): number {
  const t = line.node;
  if (t.nodeType !== Node.TEXT_NODE) return 0;
  const range = document.createRange();
  let lo = 0,
    hi = (t.textContent || '').length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    range.setStart(t, mid);
    range.setEnd(t, mid + 1);
    const r = range.getBoundingClientRect();
    if (r.height > 0 && r.top + window.scrollY >= line.top - 0.5) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** What first crosses `limit` below `from`: a line of a block, or a box; null when everything fits. */
type Found = { block: Element } | { box: Element } | { row: Element; table: Element };

/**
 * Per parent, the first child not yet known to lie above a limit: asked with limits that only grow (pages
 * in order), `crossing` starts there instead of at the first child, so a document's pages cost a walk
 * of its nodes, not a walk per page.
 */
export type Resume = Map<Node, ChildNode | null>;

function crossing(parent: Element, limit: number, resume?: Resume): Found | null {
  let n = resume && resume.has(parent) ? (resume.get(parent) as ChildNode | null) : parent.firstChild;
  // Children before the one returned lie above `limit`, hence above every later limit too.
  const at = (child: ChildNode | null, found: Found | null): Found | null => {
    if (resume) resume.set(parent, child);
    return found;
  };
  for (; n; n = n.nextSibling) {
    if (n.nodeType === Node.TEXT_NODE) {
      if (!/\S/.test(n.textContent || '')) continue;
      const range = document.createRange();
      range.selectNodeContents(n);
      for (const r of range.getClientRects())
        if (r.height > 0 && r.bottom + window.scrollY + halfLeading(n.parentElement, r.height) > limit + 0.5)
          return at(n, { block: blockOf(n) });
      continue;
    }
    if (!(n instanceof Element)) continue;
    const cs = getComputedStyle(n);
    if (outOfFlow(n, cs)) continue;
    if (cs.display === 'contents') {
      const inner = crossing(n, limit, resume);
      if (inner) return at(n, inner);
      continue;
    }
    if (bottom(n) <= limit + 0.5) continue;
    if (cs.display.startsWith('inline')) {
      if (cs.display === 'inline' && n.tagName !== CALL) {
        const inner = crossing(n, limit, resume);
        if (inner) return at(n, inner);
        continue;
      }
      return at(n, { block: blockOf(n) });
    }
    if (/table/.test(cs.display) && n instanceof HTMLTableElement) {
      for (const row of n.rows) {
        if (bottom(row) <= limit + 0.5) continue;
        const group = row.parentElement;
        const body = group && group.tagName === 'TBODY' && row !== n.tBodies[0]?.rows[0];
        return at(n, body ? { row, table: n } : { box: n });
      }
      return at(n, { box: n });
    }
    if (unbreakable(n, cs) || !blockFlow(cs.display)) return at(n, { box: n });
    const inner = crossing(n, limit, resume);
    if (inner) return at(n, inner);
  }
  return at(null, null);
}

/**
 * Bottom of the first line (or replaced box) inside `el`: what must fit for `el` to start on a page (Chromium
 * splits blocks, tables, flex and grid containers alike). Side by side children (cells, flex items): the
 * least of theirs.
 */
function firstLineBottom(el: Element): number {
  const cs = getComputedStyle(el);
  if (REPLACED.test(el.tagName.toUpperCase()) || el.tagName === CALL) return bottom(el);
  const flow = blockFlow(cs.display);
  const lines = flow ? linesOf(el) : [];
  let best = lines.length ? (lines[0] as Line).bottom : Infinity;
  for (let c = el.firstElementChild; c; c = c.nextElementSibling) {
    const ccs = getComputedStyle(c);
    if (outOfFlow(c, ccs) || (flow && ccs.display.startsWith('inline')) || !c.getClientRects().length) continue;
    best = Math.min(best, firstLineBottom(c));
    if (flow) break;
  }
  return best < Infinity ? best : bottom(el);
}

function lineHeight(lines: Line[], j: number): number {
  const l = lines[j];
  return l ? l.bottom - l.top : 0;
}

/** Whether anything (a line, a box) starts between screen y `from` and `to`: a forced break right at a page's top breaks nothing. */
export function contentBetween(from: number, to: number): boolean {
  const found = crossing(document.body, from);
  if (!found) return false;
  if ('block' in found) {
    const line = linesOf(found.block).find((l) => l.bottom > from + 0.5);
    return !!line && line.top < to - 1;
  }
  return top('box' in found ? found.box : found.row) < to - 1;
}

/** Whether everything in the flow ends above `limit`. */
export function allAbove(limit: number, resume?: Resume): boolean {
  return crossing(document.body, limit, resume) === null;
}

/**
 * Where a page that starts at `from` must end for its content to stay above `limit`; null when it all fits
 * (or nothing can move: the first line or box of the page crosses it already).
 */
export function cutAt(from: number, limit: number, resume?: Resume): Cut | null {
  const found = crossing(document.body, limit, resume);
  if (!found) return null;
  if ('row' in found) return beforeBox(found.row, from);
  if ('box' in found) return beforeBox(found.box, from);
  const lines = linesOf(found.block);
  const j = lines.findIndex((l) => l.bottom > limit + 0.5);
  return j < 0 ? beforeBox(found.block, from) : cutLine(found.block, lines, j, from);
}

/** The cut that moves the line with `el` (a call) on, or its whole block. */
export function cutBefore(el: Element, from: number, wholeBlock: boolean): Cut | null {
  const block = blockOf(el);
  if (wholeBlock) return beforeBox(block, from);
  const lines = linesOf(block);
  const r = el.getBoundingClientRect();
  const y = (r.top + r.bottom) / 2 + window.scrollY;
  const j = lines.findIndex((l) => y < l.bottom + 0.5);
  return cutLine(block, lines, j < 0 ? lines.length - 1 : j, from);
}

/** The top of line j's box: the page top it makes, the block's content top for its first line. */
function lineBoxTop(block: Element, lines: Line[], j: number): number {
  if (j > 0) return (lines[j] as Line).top;
  const cs = getComputedStyle(block);
  return top(block) + (parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.paddingTop) || 0);
}

/** Before line j of `block`, with its orphans and widows kept; before the block when too few lines would stay. */
function cutLine(block: Element, lines: Line[], j: number, from: number): Cut | null {
  const cs = getComputedStyle(block);
  const orphans = parseInt(cs.orphans, 10) || 2;
  const widows = parseInt(cs.widows, 10) || 2;
  const first = Math.max(
    0,
    lines.findIndex((l) => l.top >= from - 0.5),
  );
  if (lines.length - j < widows) j = Math.max(first, lines.length - widows);
  if (first === 0 && j < orphans) return beforeBox(block, from);
  if (j <= first) return first === 0 ? beforeBox(block, from) : null;
  const line = lines[j] as Line;
  return {
    node: line.node,
    offset: lineOffset(line),
    kind: 'float',
    top: line.top,
    height: lineHeight(lines, j),
    next: lineBoxTop(block, lines, j),
  };
}

function previousInFlow(el: Element): Element | null {
  for (let p = el.previousElementSibling; p; p = p.previousElementSibling)
    if (!outOfFlow(p, getComputedStyle(p)) && p.getClientRects().length) return p;
  return null;
}

/**
 * Before a block-level box: before its container instead when it is the container's first (the container's
 * top margin, border and padding go with it), before the box it must not be parted from (`break-*: avoid`),
 * before a flex or grid container rather than inside it. Null when that is the top of the page.
 */
function beforeBox(el: Element, from: number): Cut | null {
  // In a table: before the row (the table goes on on the next page), unless it is the first.
  const row = el.closest('tr');
  const table = row && row.closest('table');
  if (row && table && row.parentElement?.tagName === 'TBODY' && row !== table.tBodies[0]?.rows[0]) {
    const t = top(row);
    if (t > from + 0.5) return { node: row, offset: 0, kind: 'row', top: t, height: firstLineBottom(row) - t, next: t };
  }
  let b = el;
  for (;;) {
    const parent = b.parentElement;
    if (!parent || parent === document.body || parent === document.documentElement) {
      const prev = previousInFlow(b);
      if (prev && avoidBetween(prev, b) && top(prev) > from + 0.5) {
        b = prev;
        continue;
      }
      break;
    }
    const pcs = getComputedStyle(parent);
    const prev = previousInFlow(b);
    if (!blockFlow(pcs.display) || /avoid/.test(pcs.breakInside)) b = parent;
    else if (prev && avoidBetween(prev, b) && top(prev) > from + 0.5) b = prev;
    else if (!prev && top(parent) > from + 0.5) b = parent;
    else break;
  }
  const t = top(b);
  if (t <= from + 0.5) return null;
  return { node: b, offset: 0, kind: 'block', top: t, height: firstLineBottom(b) - t, next: t };
}

function avoidBetween(prev: Element, next: Element): boolean {
  return /avoid/.test(getComputedStyle(prev).breakAfter) || /avoid/.test(getComputedStyle(next).breakBefore);
}

/**
 * Puts a spacer before the cut and sizes it so that what follows starts half its first line (with the
 * margin above it) short of `pageEnd`: it no longer fits, the spacer still does. The page top it makes.
 */
export function insertSpacer(cut: Cut, pageEnd: number): { spacer: HTMLElement; next: number } {
  let node = cut.node;
  if (cut.offset > 0 && node.nodeType === Node.TEXT_NODE) node = (node as Text).splitText(cut.offset);
  const base = 'margin:0!important;padding:0!important;border:0!important;visibility:hidden!important;';
  const spacer = helper(
    'fn-space',
    cut.kind === 'float'
      ? base + 'display:block!important;float:left!important;clear:none!important;width:100%!important;height:0'
      : cut.kind === 'row'
        ? base + 'display:table-row!important;height:1px'
        : base + 'display:block!important;float:none!important;height:1px',
  );
  (node.parentNode as Node).insertBefore(spacer, node);
  const at = top(spacer);
  // Between the spacer and the moved box: its margin (collapsed with its first child's), if any.
  const gap = cut.kind === 'float' || !(node instanceof Element) ? 0 : Math.max(0, top(node) - bottom(spacer));
  const h = Math.max(0, pageEnd - at - (gap + cut.height) / 2);
  spacer.style.height = h + 'px';
  // Lines resume below a float; a box follows a block or row spacer after its margin (no layout to read it).
  const next = at + h + gap;
  return { spacer, next };
}
