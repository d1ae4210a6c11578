/** The geometry the tile splitter (tiles.ts) works with: boxes, and the cells of a grid they meet. */
import { applyMatrix as apply, type Matrix } from '../document/page-frame.js';

/** A grid of equal cells in the stream's user space (y up): row 0 is the top row, tile index row·cols+col. */
export interface TileGrid {
  left: number;
  top: number;
  /** A cell's width and height. */
  pitch: readonly [number, number];
  cols: number;
  rows: number;
}

/** [x0, y0, x1, y1] */
export type Box = [number, number, number, number];

/** The cells of a text object's glyph origins inside the clip; with none inside, the cells the clip meets. */
export function textTiles(
  grid: TileGrid,
  all: Set<number>,
  clip: Box | null,
  points: Array<[number, number]>,
): Set<number> {
  const inside = clip ? points.filter((p) => within(clip, p)) : points;
  if (inside.length === 0) return points.length === 0 ? new Set() : tilesOf(grid, all, clip, null, true);
  const tiles = new Set<number>();
  for (const [x, y] of inside) {
    const col = clamp(Math.floor((x - grid.left) / grid.pitch[0]), grid.cols);
    const row = clamp(Math.floor((grid.top - y) / grid.pitch[1]), grid.rows);
    tiles.add(row * grid.cols + col);
  }
  return tiles;
}

/** The cells `box` meets within the clip (a null box: the clip's cells); `orClip` keeps the clip's cells for an empty meeting. */
export function tilesOf(
  grid: TileGrid,
  all: Set<number>,
  clip: Box | null,
  box: Box | null,
  orClip: boolean,
): Set<number> {
  let area = box ? intersect(clip, box) : clip;
  if (area && (area[2] < area[0] || area[3] < area[1])) {
    if (!orClip || !clip) return new Set();
    area = clip;
  }
  if (!area) return all;
  const [px, py] = grid.pitch;
  const c0 = clamp(Math.floor((area[0] - grid.left) / px), grid.cols);
  const c1 = clamp(Math.ceil((area[2] - grid.left) / px) - 1, grid.cols);
  const r0 = clamp(Math.floor((grid.top - area[3]) / py), grid.rows);
  const r1 = clamp(Math.ceil((grid.top - area[1]) / py) - 1, grid.rows);
  const tiles = new Set<number>();
  for (let r = r0; r <= r1; r++) for (let c = c0; c <= c1; c++) tiles.add(r * grid.cols + c);
  return tiles;
}

const clamp = (i: number, n: number): number => Math.max(0, Math.min(n - 1, i));
const within = (b: Box, [x, y]: [number, number]): boolean => x >= b[0] && x <= b[2] && y >= b[1] && y <= b[3];

export function rectPoints([x, y, w, h]: number[]): number[] {
  return [x!, y!, x! + w!, y!, x! + w!, y! + h!, x!, y! + h!];
}

export function extend(box: Box | null, [x, y]: [number, number]): Box {
  return box ? [Math.min(box[0], x), Math.min(box[1], y), Math.max(box[2], x), Math.max(box[3], y)] : [x, y, x, y];
}

export function boxOf(m: Matrix, [x0, y0, x1, y1]: Box): Box {
  let box: Box | null = null;
  for (const [x, y] of [
    [x0, y0],
    [x1, y0],
    [x1, y1],
    [x0, y1],
  ] as Array<[number, number]>)
    box = extend(box, apply(m, x, y));
  return box!;
}

export function intersect(a: Box | null, b: Box): Box {
  return a ? [Math.max(a[0], b[0]), Math.max(a[1], b[1]), Math.min(a[2], b[2]), Math.min(a[3], b[3])] : b;
}

/** How much the CTM can stretch a length (the larger of its axes' scales). */
export function scaleOf(m: Matrix): number {
  return Math.max(Math.hypot(m[0], m[1]), Math.hypot(m[2], m[3]));
}
