/**
 * Fields read from a flat page's shapes. Every horizontal segment is a place one may write
 * above: the vertical segments that rise from it cut it into pieces (table cells, comb cells,
 * the span of an underline). A run of equal narrow pieces is a comb; a small square piece closed
 * by a segment above is a check box; any other piece wide enough is a box (closed above and on
 * both sides) or an underline, and its field is the room left above it once the text standing in
 * that room (the cell's own label) is taken away. A piece with no room left is a label cell.
 */
import type { Phrase } from './phrases.js';
import { SNAP, type Box, type HSeg, type Shapes, type VSeg } from './shapes.js';

export interface FlatField {
  kind: 'box' | 'underline' | 'comb' | 'checkbox' | 'radio';
  rect: Box;
  /** comb: number of cells. */
  cells?: number;
  /** radio: each button's box. */
  options?: Box[];
}

interface Piece {
  x0: number;
  x1: number;
  y: number;
  /** How far the walls at either end rise above the segment (0: no wall). */
  left: number;
  right: number;
  /** Whether walls go down from the segment at both ends: the top of a box below. */
  hangs?: boolean;
}

/** Widest comb cell; narrowest writing field. */
const COMB_MAX = 32;
const COMB_MIN = 4;
const FIELD_MIN_WIDTH = 14;
/** Room above a segment a field needs: an enclosed cell, a bare line. */
const ROOM_BOX = 8;
const ROOM_LINE = 9;
/** Height given to a line's field when nothing above bounds it. */
const LINE_HEIGHT = 16;
/** How far above a segment a cell's top may be. */
const REACH = 90;

/**
 * The solid verticals meeting `s`, one per x: how far they rise above it (walls of a cell above,
 * at least 2 points) and go down below it. Dashed verticals separate the parts of one field.
 */
function wallsOf(s: HSeg, v: VSeg[]): Array<{ x: number; up: number; down: number }> {
  const walls: Array<{ x: number; up: number; down: number }> = [];
  for (const w of v) {
    if (w.dashed || w.x < s.x0 - SNAP || w.x > s.x1 + SNAP || w.y0 > s.y + SNAP || w.y1 < s.y - SNAP) continue;
    const up = Math.max(0, s.y - w.y0);
    const down = Math.max(0, w.y1 - s.y);
    const near = walls.find((o) => Math.abs(o.x - w.x) <= SNAP);
    if (near) {
      near.up = Math.max(near.up, up);
      near.down = Math.max(near.down, down);
    } else walls.push({ x: w.x, up, down });
  }
  return walls.sort((a, b) => a.x - b.x);
}

function piecesOf(s: HSeg, v: VSeg[]): Piece[] {
  const walls = wallsOf(s, v);
  const at = (x: number) => walls.find((w) => Math.abs(w.x - x) <= SNAP);
  const up = (x: number) => at(x)?.up ?? 0;
  const down = (x: number) => (at(x)?.down ?? 0) >= 4;
  const cuts = walls.filter((w) => w.up >= 2).map((w) => w.x);
  const xs = [s.x0, ...cuts.filter((x) => x > s.x0 + SNAP && x < s.x1 - SNAP), s.x1];
  const out: Piece[] = [];
  for (let i = 1; i < xs.length; i++) {
    const [a, b] = [xs[i - 1]!, xs[i]!];
    out.push({ x0: a, x1: b, y: s.y, left: up(a), right: up(b), ...(down(a) && down(b) ? { hangs: true } : {}) });
  }
  return out;
}

/** The nearest segment above `p` covering most of it, within REACH. */
function topOf(p: Piece, h: HSeg[]): HSeg | undefined {
  const width = p.x1 - p.x0;
  let best: HSeg | undefined;
  for (const s of h) {
    if (s.y >= p.y - 2 || s.y < p.y - REACH) continue;
    const cover = Math.min(s.x1, p.x1) - Math.max(s.x0, p.x0);
    if (cover >= width * 0.6 && (!best || s.y > best.y)) best = s;
  }
  return best;
}

/** The phrases standing over [x0, x1] between `top` and the line at `y`. */
function textOver(x0: number, x1: number, top: number, y: number, phrases: Phrase[]): Phrase[] {
  return phrases.filter((p) => {
    const cover = Math.min(p.x1, x1) - Math.max(p.x0, x0);
    return cover > Math.min(p.x1 - p.x0, x1 - x0) * 0.5 && p.y1 > top + 1 && p.y0 < y - 1;
  });
}

/** Lines of text among `phrases` (baselines more than 2 points apart). */
function lineCount(phrases: Phrase[]): number {
  const baselines = phrases.map((p) => p.y1).sort((a, b) => a - b);
  return baselines.filter((y, i) => i === 0 || y - baselines[i - 1]! > 2).length;
}

const inside = (b: Box, x: number, y: number) => x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height;

/** The field a piece leaves room for, or undefined. */
function roomOf(p: Piece, shapes: Shapes, phrases: Phrase[]): FlatField | undefined {
  const top = topOf(p, shapes.h);
  const height = top ? p.y - top.y : 0;
  const width = p.x1 - p.x0;
  const enclosed = top !== undefined && p.left >= height - SNAP && p.right >= height - SNAP;
  const hatched = (b: Box) => shapes.hatches.filter(([x, y]) => inside(b, x, y)).length >= 2;
  if (top && enclosed && width >= 5 && width <= 18 && Math.abs(height - width) <= width * 0.25) {
    const box = { x: p.x0, y: top.y, width, height };
    // A letter in a small box is a badge naming a line (`A`), not a box to tick.
    const lettered = phrases.some((t) => inside(box, (t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2));
    return lettered || hatched(box) ? undefined : { kind: 'checkbox', rect: box };
  }
  if (width < FIELD_MIN_WIDTH) return undefined;
  // A cell: a segment above and a wall at one end at least (three sides drawn, or four).
  const cell = top !== undefined && Math.max(p.left, p.right) >= height * 0.5;
  // A bare line that is the top edge of a box below it is no line to write on.
  if (!cell && p.hangs) return undefined;
  const ceiling = top ? top.y : p.y - REACH;
  let x0 = p.x0;
  let over = textOver(x0, p.x1, ceiling, p.y, phrases);
  // A cell holding a paragraph (an instructions table) is read, not filled.
  if (cell && lineCount(over) >= 3) return undefined;
  let floor = Math.max(ceiling, ...over.map((t) => t.y1));
  const need = cell ? ROOM_BOX : ROOM_LINE;
  if (p.y - floor < need) {
    // Text on the line at its left end (`Date ▶ ____` over one rule): the field starts after it.
    const low = over.filter((t) => t.y1 > p.y - need);
    const end = Math.max(...low.map((t) => t.x1));
    if (end > p.x0 + width * 0.7) return undefined;
    x0 = end + 2;
    over = textOver(x0, p.x1, ceiling, p.y, phrases);
    floor = Math.max(ceiling, ...over.map((t) => t.y1));
    if (p.y - floor < need || p.x1 - x0 < FIELD_MIN_WIDTH) return undefined;
  }
  const y0 = cell ? floor + 0.5 : Math.max(floor + 0.5, p.y - LINE_HEIGHT);
  const rect = { x: x0, y: y0, width: p.x1 - x0, height: p.y - y0 };
  return hatched(rect) ? undefined : { kind: cell ? 'box' : 'underline', rect };
}

/** Runs of at least `min` equal narrow walled pieces: combs (their indexes into `pieces`). */
function combRuns(pieces: Piece[]): Array<[number, number]> {
  const runs: Array<[number, number]> = [];
  const fits = (p: Piece) => p.x1 - p.x0 >= COMB_MIN && p.x1 - p.x0 <= COMB_MAX && p.left > 0 && p.right > 0;
  let i = 0;
  while (i < pieces.length) {
    if (!fits(pieces[i]!)) {
      i++;
      continue;
    }
    const w = pieces[i]!.x1 - pieces[i]!.x0;
    let j = i + 1;
    while (
      j < pieces.length &&
      fits(pieces[j]!) &&
      Math.abs(pieces[j]!.x1 - pieces[j]!.x0 - w) <= Math.max(1, w * 0.12)
    )
      j++;
    const count = j - i;
    // Two cells make a comb only when they are closed boxes (a tick row needs three).
    const boxed = pieces.slice(i, j).every((p) => Math.min(p.left, p.right) >= w * 0.8);
    if (count >= 3 || (count === 2 && boxed)) runs.push([i, j]);
    i = j;
  }
  return runs;
}

function combOf(run: Piece[], h: HSeg[]): FlatField {
  const x0 = run[0]!.x0;
  const x1 = run.at(-1)!.x1;
  const y = run[0]!.y;
  const cell = (x1 - x0) / run.length;
  const wall = Math.min(...run.map((p) => Math.min(p.left, p.right)));
  const top = topOf({ x0, x1, y, left: wall, right: wall }, h);
  // Closed cells reach their top; ticks are shorter than the characters written between them.
  const height = top && y - top.y <= wall + SNAP ? y - top.y : Math.max(wall, Math.min(cell * 1.6, LINE_HEIGHT));
  return { kind: 'comb', rect: { x: x0, y: y - height, width: x1 - x0, height }, cells: run.length };
}

/** Round outlines in a row or column near one another are one radio group; a lone one is a check box. */
function roundFields(rounds: Box[]): FlatField[] {
  const group = rounds.map((_, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
  rounds.forEach((a, i) =>
    rounds.forEach((b, j) => {
      if (j <= i) return;
      const column = Math.abs(a.x - b.x) <= 3 && Math.abs(a.y - b.y) <= 40;
      const row = Math.abs(a.y - b.y) <= 3 && Math.abs(a.x - b.x) <= 160;
      if (column || row) group[find(j)] = find(i);
    }),
  );
  const byRoot = new Map<number, Box[]>();
  rounds.forEach((b, i) => byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), b]));
  return [...byRoot.values()].map((options) => {
    if (options.length === 1) return { kind: 'checkbox', rect: options[0]! };
    const x = Math.min(...options.map((o) => o.x));
    const y = Math.min(...options.map((o) => o.y));
    const width = Math.max(...options.map((o) => o.x + o.width)) - x;
    const height = Math.max(...options.map((o) => o.y + o.height)) - y;
    return { kind: 'radio', rect: { x, y, width, height }, options };
  });
}

export function overlapRatio(a: Box, b: Box): number {
  const w = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const h = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  if (w <= 0 || h <= 0) return 0;
  const inter = w * h;
  return inter / (a.width * a.height + b.width * b.height - inter);
}

/** The fields of a flat page: combs and check boxes first, then boxes and underlines they do not overlap. */
export function flatFields(shapes: Shapes, phrases: Phrase[], max: number): FlatField[] {
  const sure: FlatField[] = [];
  const rooms: FlatField[] = [];
  for (const s of shapes.h) {
    const pieces = piecesOf(s, shapes.v);
    const runs = combRuns(pieces);
    const inRun = new Set<number>();
    for (const [i, j] of runs) {
      sure.push(combOf(pieces.slice(i, j), shapes.h));
      for (let k = i; k < j; k++) inRun.add(k);
    }
    pieces.forEach((p, k) => {
      if (inRun.has(k)) return;
      const room = roomOf(p, shapes, phrases);
      if (room) (room.kind === 'checkbox' ? sure : rooms).push(room);
    });
    if (sure.length + rooms.length > max * 4) break;
  }
  const out: FlatField[] = [];
  const keep = (f: FlatField) => {
    if (!out.some((o) => overlapRatio(o.rect, f.rect) > 0.3)) out.push(f);
  };
  [...sure, ...roundFields(shapes.rounds), ...rooms].forEach(keep);
  return out.slice(0, max);
}
