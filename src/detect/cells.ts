/**
 * Fields read from a flat page's shapes. Every horizontal segment is a place one may write
 * above: the vertical segments that rise from it cut it into pieces (table cells, comb cells,
 * the span of an underline). A run of equal narrow pieces is a comb; a small square piece closed
 * by a segment above is a check box; any other piece wide enough is a box (closed above and on
 * both sides) or an underline, and its field is the room left above it once the text standing in
 * that room (the cell's own label) is taken away. A piece with no room left is a label cell.
 */
import type { Phrase } from './phrases.js';
import { LINE_HEIGHT, roomOf, topOf, type FlatField, type PageContext, type Piece, type Room } from './room.js';
import { firstAtLeast, SNAP, type Box, type HSeg, type Shapes, type VSeg } from './shapes.js';

export type { FlatField } from './room.js';

/** Widest and narrowest comb cell. */
const COMB_MAX = 32;
const COMB_MIN = 6;
/** Shortest field: what is lower is a figure's detail. */
const MIN_HEIGHT = 8;

/**
 * The solid verticals meeting `s`, one per x: how far they rise above it (walls of a cell above,
 * at least 2 points) and go down below it. Dashed verticals separate the parts of one field.
 */
function wallsOf(s: HSeg, v: VSeg[]): Array<{ x: number; up: number; down: number }> {
  const walls: Array<{ x: number; up: number; down: number }> = [];
  for (let i = firstAtLeast(v, (w) => w.x, s.x0 - SNAP); i < v.length && v[i]!.x <= s.x1 + SNAP; i++) {
    const w = v[i]!;
    if (w.y0 > s.y + SNAP || w.y1 < s.y - SNAP) continue;
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
    out.push({
      x0: a,
      x1: b,
      y: s.y,
      left: up(a),
      right: up(b),
      ...(down(a) && down(b) ? { hangs: true } : {}),
      ...(s.leader ? { leader: true } : {}),
    });
  }
  return out;
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

/**
 * Rooms without those that follow words in cells of one column, three or more: a table's row
 * headings (`Alberta`, `Manitoba`, …) with the row's cells beside them, not labels of a field.
 */
function headed(rooms: Room[]): FlatField[] {
  const column = (r: Room) => `${Math.round(r.field!.rect.x + r.field!.rect.width)}`;
  const counts = new Map<string, number>();
  for (const r of rooms) if (r.afterWords) counts.set(column(r), (counts.get(column(r)) ?? 0) + 1);
  return rooms.filter((r) => !r.afterWords || (counts.get(column(r)) ?? 0) < 3).map((r) => r.field!);
}

/**
 * Whether lines run through a field's inside (two or more, not its edges): a figure or a chart,
 * not a box to write in. A comb's own walls do not count.
 */
function cluttered(f: FlatField, shapes: Shapes): boolean {
  const { x, y, width, height } = f.rect;
  let n = 0;
  for (const s of shapes.h)
    if (s.y > y + 1.5 && s.y < y + height - 1.5 && Math.min(s.x1, x + width) - Math.max(s.x0, x) > 2 && ++n >= 2)
      return true;
  if (f.kind === 'comb') return false;
  for (const s of shapes.v)
    if (s.x > x + 1.5 && s.x < x + width - 1.5 && Math.min(s.y1, y + height) - Math.max(s.y0, y) > 2 && ++n >= 2)
      return true;
  return false;
}

/** The size most of a page's characters are set in. */
function bodySize(phrases: Phrase[]): number {
  const sizes = phrases.flatMap((p) => Array.from({ length: Math.min(p.text.length, 200) }, () => p.size));
  sizes.sort((a, b) => a - b);
  return sizes[Math.floor(sizes.length / 2)] ?? 10;
}

/** The fields of a flat page: combs and check boxes first, then boxes and underlines they do not overlap. */
export function flatFields(shapes: Shapes, phrases: Phrase[], pageWidth: number, max: number): FlatField[] {
  const page: PageContext = { shapes, phrases, bodySize: bodySize(phrases), width: pageWidth };
  const sure: FlatField[] = [];
  const rooms: Room[] = [];
  for (const s of shapes.h) {
    const pieces = piecesOf(s, shapes.v);
    const runs = combRuns(pieces);
    const inRun = new Set<number>();
    for (const [i, j] of runs) {
      sure.push(combOf(pieces.slice(i, j), shapes.h));
      for (let k = i; k < j; k++) inRun.add(k);
    }
    const found = pieces.map((p, k) => (inRun.has(k) ? {} : roomOf(p, page)));
    // A row whose cells hold several lines of text as often as labels is a table's row of text:
    // room left under a cell's own text there is the row's height, not a field (an empty cell
    // still is one).
    const texts = found.filter((r) => (r.textLines ?? 0) >= 2).length;
    const textRow = texts > 0 && texts >= found.filter((r) => r.labelled).length;
    for (const r of found) {
      if (!r.field || (textRow && r.labelled)) continue;
      if (r.field.kind === 'checkbox') sure.push(r.field);
      else rooms.push(r);
    }
    if (sure.length + rooms.length > max * 4) break;
  }
  const out: FlatField[] = [];
  const keep = (f: FlatField) => {
    if ((f.kind !== 'checkbox' && f.kind !== 'radio' && f.rect.height < MIN_HEIGHT) || cluttered(f, shapes)) return;
    if (!out.some((o) => overlapRatio(o.rect, f.rect) > 0.3)) out.push(f);
  };
  [...sure, ...roundFields(shapes.rounds), ...headed(rooms)].forEach(keep);
  return out.slice(0, max);
}
