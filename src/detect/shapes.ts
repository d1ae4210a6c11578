/**
 * A flat page's drawing as the few shapes forms are made of: horizontal and vertical line
 * segments (stroked lines and rectangles' edges, thin filled rectangles, text leaders) merged
 * where they continue one another, and small round outlines (radio buttons). Diagonals, curves
 * of other sizes, white paint and lines thicker than a rule are no field's edge and are dropped.
 */
import type { PaintedPath } from '../packets/index.js';
import type { Leader } from './phrases.js';
import { LIMITS } from './types.js';

/** A horizontal segment at `y` from `x0` to `x1` (display frame, y down). */
export interface HSeg {
  x0: number;
  x1: number;
  y: number;
  /** Drawn (in part) as text: underscores or packed dots. */
  leader?: boolean;
}

/** A vertical segment at `x` from `y0` (top) to `y1` (bottom). */
export interface VSeg {
  y0: number;
  y1: number;
  x: number;
}

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

export interface Shapes {
  /** By y, then x. */
  h: HSeg[];
  /** Solid ones only (a dashed vertical separates the parts of one field: an SSN's groups), by x, then y. */
  v: VSeg[];
  /** Small round outlines: radio buttons or round check boxes. */
  rounds: Box[];
  /** Midpoints of diagonal strokes: hatching marks a cell not to fill. */
  hatches: Array<[number, number]>;
  /** Areas painted with a pattern (hatching) or grey: cells not to fill. */
  blocked: Box[];
}

/** The index of the first of `sorted` (ascending by `key`) whose key is at least `value`. */
export function firstAtLeast<T>(sorted: T[], key: (t: T) => number, value: number): number {
  let lo = 0;
  let hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (key(sorted[mid]!) < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** How far apart two points may be and still count as the same line or corner. */
export const SNAP = 1.5;
/** Filled rectangles at most this thick are rules. */
const THIN = 2.5;
/** Strokes wider than this are decoration (bars, frames of headings), not edges. */
const THICK = 4;

const visible = (color: string) => color !== 'none' && color.toLowerCase() !== '#ffffff';

/** A pattern (hatching) or a mid grey: how forms mark a cell that takes no entry (a tint of colour does not). */
function blocking(color: string): boolean {
  if (color === 'pattern') return true;
  const m = /^#([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/iu.exec(color);
  if (!m) return false;
  const [r, g, b] = [m[1]!, m[2]!, m[3]!].map((h) => parseInt(h, 16)) as [number, number, number];
  return Math.max(r, g, b) - Math.min(r, g, b) <= 8 && r > 0x40 && r <= 0xd8;
}

function boundsOf(points: Array<[number, number]>): Box {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const x = Math.min(...xs);
  const y = Math.min(...ys);
  return { x, y, width: Math.max(...xs) - x, height: Math.max(...ys) - y };
}

/** An axis-aligned rectangle's box, or undefined when the subpath is another shape. */
function rectangle(points: Array<[number, number]>, closed: boolean): Box | undefined {
  const pts = points.length === 5 && closeTo(points[0]!, points[4]!) ? points.slice(0, 4) : points;
  if (pts.length !== 4 || (!closed && points.length !== 5)) return undefined;
  for (let i = 0; i < 4; i++) {
    const a = pts[i]!;
    const b = pts[(i + 1) % 4]!;
    if (Math.abs(a[0] - b[0]) > 0.5 && Math.abs(a[1] - b[1]) > 0.5) return undefined;
  }
  return boundsOf(pts);
}

const closeTo = (a: [number, number], b: [number, number]) =>
  Math.abs(a[0] - b[0]) < 0.5 && Math.abs(a[1] - b[1]) < 0.5;

/** The segments and round outlines of a page's paths and text leaders. */
export function shapesOf(paths: PaintedPath[], leaders: Leader[]): Shapes {
  const h: HSeg[] = [];
  const v: VSeg[] = [];
  const rounds: Box[] = [];
  const hatches: Array<[number, number]> = [];
  const blocked: Box[] = [];
  const edge = (a: [number, number], b: [number, number], dashed = false) => {
    if (Math.abs(a[1] - b[1]) <= 0.5 && Math.abs(a[0] - b[0]) >= 1) {
      // A dashed horizontal is still a line to write on (a dotted underline).
      h.push({ x0: Math.min(a[0], b[0]), x1: Math.max(a[0], b[0]), y: (a[1] + b[1]) / 2 });
    } else if (Math.abs(a[0] - b[0]) <= 0.5 && Math.abs(a[1] - b[1]) >= 1) {
      if (!dashed) v.push({ y0: Math.min(a[1], b[1]), y1: Math.max(a[1], b[1]), x: (a[0] + b[0]) / 2 });
    } else if (Math.hypot(a[0] - b[0], a[1] - b[1]) >= 3 && hatches.length < LIMITS.maxSegments) {
      hatches.push([(a[0] + b[0]) / 2, (a[1] + b[1]) / 2]);
    }
  };
  const edges = (box: Box) => {
    edge([box.x, box.y], [box.x + box.width, box.y]);
    edge([box.x, box.y + box.height], [box.x + box.width, box.y + box.height]);
    edge([box.x, box.y], [box.x, box.y + box.height]);
    edge([box.x + box.width, box.y], [box.x + box.width, box.y + box.height]);
  };
  for (const path of paths) {
    const stroked = path.stroked && visible(path.strokeColor) && path.lineWidth <= THICK;
    const filled = path.filled && path.fillColor !== 'none';
    // White paint shows only over a tinted page: a white box on a tinted form is a field to fill.
    const paper = filled && !visible(path.fillColor);
    if (!stroked && !filled) continue;
    for (const sub of path.subpaths) {
      if (sub.curved) {
        const b = boundsOf(sub.points);
        const square = b.width >= 4 && b.width <= 18 && Math.abs(b.width - b.height) <= b.width * 0.2;
        if (square && (stroked || (filled && !paper && sub.closed))) rounds.push(b);
        continue;
      }
      const box = rectangle(sub.points, sub.closed);
      if (filled && box && blocking(path.fillColor) && blocked.length < LIMITS.maxSegments) blocked.push(box);
      if (filled && !stroked && box) {
        // A thin filled rectangle is a rule; a larger one (a shaded cell) is bounded by its edges.
        if (paper) {
          if (box.height >= 5 && box.height <= 60 && box.width >= 5 && box.width <= 400) edges(box);
        } else if (box.height <= THIN && box.width > box.height)
          h.push({ x0: box.x, x1: box.x + box.width, y: box.y + box.height / 2 });
        else if (box.width <= THIN && box.height > box.width)
          v.push({ y0: box.y, y1: box.y + box.height, x: box.x + box.width / 2 });
        else if ((box.width <= 60 || box.height <= 60) && (box.width > 20 || box.height > 20)) {
          // A shaded cell; a small filled square (a bullet, a letter's badge) bounds nothing.
          edges(box);
        }
        continue;
      }
      if (!stroked) continue;
      const pts = sub.points;
      for (let i = 1; i < pts.length; i++) edge(pts[i - 1]!, pts[i]!, path.dashed);
      if (sub.closed && pts.length > 2) edge(pts[pts.length - 1]!, pts[0]!, path.dashed);
    }
  }
  for (const l of leaders) h.push({ x0: l.x0, x1: l.x1, y: l.y, leader: true });
  return {
    h: mergeH(h),
    v: mergeV(v),
    rounds: dedupeBoxes(rounds),
    hatches,
    blocked,
  };
}

/** Collinear horizontal pieces that touch or overlap as one segment, by y then x; the longest kept when there are too many. */
function mergeH(segs: HSeg[]): HSeg[] {
  const sorted = [...segs].sort((a, b) => a.y - b.y || a.x0 - b.x0);
  const out: HSeg[] = [];
  for (const s of sorted) {
    // Sorted by y: only the last few kept segments can lie on the same line.
    let same: HSeg | undefined;
    for (let j = out.length - 1; j >= 0 && s.y - out[j]!.y <= 0.75; j--) {
      if (s.x0 <= out[j]!.x1 + SNAP && s.x1 >= out[j]!.x0 - SNAP) {
        same = out[j];
        break;
      }
    }
    if (same) {
      same.x0 = Math.min(same.x0, s.x0);
      same.x1 = Math.max(same.x1, s.x1);
      if (s.leader) same.leader = true;
    } else out.push({ ...s });
  }
  if (out.length <= LIMITS.maxSegments) return out;
  return out
    .sort((a, b) => b.x1 - b.x0 - (a.x1 - a.x0))
    .slice(0, LIMITS.maxSegments)
    .sort((a, b) => a.y - b.y || a.x0 - b.x0);
}

function mergeV(segs: VSeg[]): VSeg[] {
  const flipped = mergeH(segs.map((s) => ({ x0: s.y0, x1: s.y1, y: s.x })));
  return flipped.map((s) => ({ y0: s.x0, y1: s.x1, x: s.y }));
}

function dedupeBoxes(boxes: Box[]): Box[] {
  const out: Box[] = [];
  for (const b of boxes) if (!out.some((o) => Math.abs(o.x - b.x) < 1 && Math.abs(o.y - b.y) < 1)) out.push(b);
  return out;
}
