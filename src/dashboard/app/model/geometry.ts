/**
 * Rects in points (from the page's top-left, as the template stores them) and in CSS pixels on the
 * screen (points × zoom), and what the mouse and the keyboard do to them.
 */
import type { PageSize, Rect } from './types.js';

export interface Point {
  x: number;
  y: number;
}

/** The smallest side a field may be drawn or resized to, in points. */
export const MIN_SIDE = 4;

/** Points are kept to two decimals: mouse positions divided by a zoom are not worth more. */
export function roundPt(n: number): number {
  return Math.round(n * 100) / 100;
}

export function roundRect(r: Rect): Rect {
  return { x: roundPt(r.x), y: roundPt(r.y), width: roundPt(r.width), height: roundPt(r.height) };
}

/** A rect in points as CSS pixels on a page shown at `zoom`. */
export function toScreen(r: Rect, zoom: number): Rect {
  return { x: r.x * zoom, y: r.y * zoom, width: r.width * zoom, height: r.height * zoom };
}

/** CSS pixels on a page shown at `zoom` as points. */
export function toPoints(r: Rect, zoom: number): Rect {
  return roundRect({ x: r.x / zoom, y: r.y / zoom, width: r.width / zoom, height: r.height / zoom });
}

export function pointToPoints(p: Point, zoom: number): Point {
  return { x: roundPt(p.x / zoom), y: roundPt(p.y / zoom) };
}

/** The rect a drag from `a` to `b` spans, whichever way it went. */
export function spanned(a: Point, b: Point): Rect {
  return { x: Math.min(a.x, b.x), y: Math.min(a.y, b.y), width: Math.abs(b.x - a.x), height: Math.abs(b.y - a.y) };
}

/** The rect moved by (dx, dy) but kept on the page (its size never changes). */
export function moveWithin(r: Rect, dx: number, dy: number, page: PageSize): Rect {
  const x = Math.min(Math.max(r.x + dx, 0), Math.max(0, page.width - r.width));
  const y = Math.min(Math.max(r.y + dy, 0), Math.max(0, page.height - r.height));
  return roundRect({ ...r, x, y });
}

/** The same (dx, dy) for a group of rects: as far as the one nearest an edge can go, so they keep their layout. */
export function groupDelta(rects: Rect[], dx: number, dy: number, page: PageSize): Point {
  let lo = { x: -Infinity, y: -Infinity };
  let hi = { x: Infinity, y: Infinity };
  for (const r of rects) {
    lo = { x: Math.max(lo.x, -r.x), y: Math.max(lo.y, -r.y) };
    hi = { x: Math.min(hi.x, page.width - r.width - r.x), y: Math.min(hi.y, page.height - r.height - r.y) };
  }
  const clamp = (v: number, a: number, b: number) => (a > b ? 0 : Math.min(Math.max(v, a), b));
  return { x: roundPt(clamp(dx, lo.x, hi.x)), y: roundPt(clamp(dy, lo.y, hi.y)) };
}

/** A rect cut to the page, at least MIN_SIDE each way (a rect off the page entirely becomes a small one at its edge). */
export function clampToPage(r: Rect, page: PageSize): Rect {
  const x = Math.min(Math.max(r.x, 0), Math.max(0, page.width - MIN_SIDE));
  const y = Math.min(Math.max(r.y, 0), Math.max(0, page.height - MIN_SIDE));
  const right = Math.min(Math.max(r.x + r.width, x + MIN_SIDE), page.width);
  const bottom = Math.min(Math.max(r.y + r.height, y + MIN_SIDE), page.height);
  return roundRect({ x, y, width: right - x, height: bottom - y });
}

/** The eight resize handles: which edges each one moves. */
export const HANDLES = ['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'] as const;
export type Handle = (typeof HANDLES)[number];

/** The rect after dragging `handle` by (dx, dy) points: never smaller than MIN_SIDE, never off the page. */
export function resizeBy(r: Rect, handle: Handle, dx: number, dy: number, page: PageSize): Rect {
  let left = r.x;
  let top = r.y;
  let right = r.x + r.width;
  let bottom = r.y + r.height;
  if (handle.includes('w')) left = Math.min(Math.max(left + dx, 0), right - MIN_SIDE);
  if (handle.includes('e')) right = Math.max(Math.min(right + dx, page.width), left + MIN_SIDE);
  if (handle.includes('n')) top = Math.min(Math.max(top + dy, 0), bottom - MIN_SIDE);
  if (handle.includes('s')) bottom = Math.max(Math.min(bottom + dy, page.height), top + MIN_SIDE);
  return roundRect({ x: left, y: top, width: right - left, height: bottom - top });
}

/** True when the two rects overlap (touching edges do not). */
export function intersects(a: Rect, b: Rect): boolean {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

/** The smallest rect holding them all (undefined for none). */
export function bounds(rects: Rect[]): Rect | undefined {
  if (rects.length === 0) return undefined;
  const left = Math.min(...rects.map((r) => r.x));
  const top = Math.min(...rects.map((r) => r.y));
  const right = Math.max(...rects.map((r) => r.x + r.width));
  const bottom = Math.max(...rects.map((r) => r.y + r.height));
  return { x: left, y: top, width: right - left, height: bottom - top };
}

/**
 * `r` carried along when the rect `from` becomes `to`: a part of a field (a line, an option, a part's box)
 * keeps its place inside the field when the field moves or is resized.
 */
export function carry(r: Rect, from: Rect, to: Rect): Rect {
  const sx = from.width > 0 ? to.width / from.width : 1;
  const sy = from.height > 0 ? to.height / from.height : 1;
  return roundRect({
    x: to.x + (r.x - from.x) * sx,
    y: to.y + (r.y - from.y) * sy,
    width: r.width * sx,
    height: r.height * sy,
  });
}

/** `r` cut into `n` equal rows, top to bottom (textWrap's lines, a column's rows). */
export function splitRows(r: Rect, n: number): Rect[] {
  const count = Math.max(1, Math.floor(n));
  const h = r.height / count;
  return Array.from({ length: count }, (_, i) => roundRect({ x: r.x, y: r.y + i * h, width: r.width, height: h }));
}

/** `r` cut into columns with the given shares of its width, left to right (a name's or an address's parts). */
export function splitColumns(r: Rect, shares: number[]): Rect[] {
  const total = shares.reduce((a, b) => a + b, 0) || 1;
  let x = r.x;
  return shares.map((s) => {
    const width = (r.width * s) / total;
    const out = roundRect({ x, y: r.y, width, height: r.height });
    x += width;
    return out;
  });
}
