/**
 * One content stream cut into one stream per tile of a grid: a large sheet that holds many small pages'
 * drawings side by side becomes each page's own content again. Every drawing unit (a text object, a path
 * built and painted, an XObject, a shading, an inline image) goes to the tiles its geometry is in; the
 * graphics state around it (q/Q, cm, clips, colours, text state) goes with it, so each stream stands on
 * its own. A q…Q block that draws nothing in a tile is left out of that tile's stream whole.
 *
 * Where a unit goes:
 * - text: the cells of its glyph origins (where each show operator starts, after the text and line
 *   matrices); a show that follows a show without moving starts at an advance this does not know and
 *   adds no point. A run that starts in one tile and paints past its edge is drawn only where it starts:
 *   a page's overflow is clipped (Chromium draws a clip for it), and then the clip decides.
 * - paths, images, inline images: the cells their bounding box meets (strokes widened by the line width).
 * - shadings and XObjects whose box is unknown: every cell the current clip meets (all of them without one).
 * - every unit: within the current clip's bounding box; a path or image entirely outside it draws nothing.
 * A unit in a cell it does not paint costs bytes only: each tile is drawn through a form whose BBox is the
 * tile, so more tiles than needed is always the safe side. Unknown operators are kept as state.
 */
import { lexContent, TOKEN, type ContentLex } from './tokens.js';
import { applyMatrix as apply, multiplyMatrices as mul, type Matrix } from '../document/page-frame.js';
import {
  boxOf,
  extend,
  intersect,
  rectPoints,
  scaleOf,
  textTiles,
  tilesOf,
  type Box,
  type TileGrid,
} from './tile-geometry.js';

export type { Box, TileGrid } from './tile-geometry.js';

export interface SplitOptions {
  /** An XObject's box in its own space (an image's is the unit square), when known. */
  xobjectBox?: (name: string) => Box | undefined;
}

/** Bytes for tiles that do not take a unit: `key` names what state they set, so a later setting replaces them. */
interface StateOp {
  bytes: Uint8Array;
  key?: string | undefined;
}
interface Unit {
  bytes: Uint8Array;
  tiles: ReadonlySet<number>;
  others: StateOp[];
}
interface Block {
  open: Uint8Array;
  close?: Uint8Array;
  children: Array<StateOp | Unit | Block>;
  tiles: Set<number>;
}

const IDENTITY: Matrix = [1, 0, 0, 1, 0, 0];
const NL = Uint8Array.of(0x0a);
const enc = (s: string): Uint8Array => Buffer.from(s, 'latin1');

/** Operators that set one part of the state outright: a later one of the same key makes an earlier one moot. */
const KEYED: Record<string, string> = {
  w: 'w',
  J: 'J',
  j: 'j',
  M: 'M',
  d: 'd',
  ri: 'ri',
  i: 'i',
  Tf: 'Tf',
  Tc: 'Tc',
  Tw: 'Tw',
  Tz: 'Tz',
  TL: 'TL',
  Ts: 'Ts',
  Tr: 'Tr',
  cs: 'fill',
  g: 'fill',
  rg: 'fill',
  k: 'fill',
  sc: 'fill colour',
  scn: 'fill colour',
  CS: 'stroke',
  G: 'stroke',
  RG: 'stroke',
  K: 'stroke',
  SC: 'stroke colour',
  SCN: 'stroke colour',
};
/** A colour space (or a colour that sets one) resets the colour set after it. */
const RESETS: Record<string, string> = { fill: 'fill colour', stroke: 'stroke colour' };
const PATH_BUILD = new Set(['m', 'l', 'c', 'v', 'y', 'h', 're']);
const PATH_PAINT = new Set(['S', 's', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'n']);
const STROKES = new Set(['S', 's', 'B', 'B*', 'b', 'b*']);
const SHOWS = new Set(['Tj', 'TJ', "'", '"']);
const MARKS = new Set(['BDC', 'BMC', 'EMC', 'MP', 'DP']);

/**
 * `content` cut into the tiles of `grid`: one stream per index of `wanted` (row·cols+col), or undefined
 * when the content does not lex.
 */
export function splitTiles(
  content: Uint8Array,
  grid: TileGrid,
  wanted: readonly number[],
  options: SplitOptions = {},
): Uint8Array[] | undefined {
  // Strings move whole: the split never reads their bytes.
  const lex = lexContent(content, false);
  if (!lex) return undefined;
  const root = parseBlocks(content, lex, grid, options);
  return wanted.map((tile) => {
    const out: Uint8Array[] = [];
    emit(root, tile, out, new Map());
    return Buffer.concat(out);
  });
}

function emit(block: Block, tile: number, out: Uint8Array[], pending: Map<string, Uint8Array>): void {
  const flush = (): void => {
    for (const bytes of pending.values()) out.push(bytes, NL);
    pending.clear();
  };
  const state = (s: StateOp): void => {
    if (s.key === undefined) {
      flush();
      out.push(s.bytes, NL);
      return;
    }
    pending.delete(s.key);
    const reset = RESETS[s.key];
    if (reset) pending.delete(reset);
    pending.set(s.key, s.bytes);
  };
  for (const child of block.children) {
    if ('children' in child) {
      // State set inside a block ends at its Q: a block with nothing for this tile is left out whole.
      if (!child.tiles.has(tile)) continue;
      flush();
      out.push(child.open, NL);
      emit(child, tile, out, new Map());
      if (child.close) out.push(child.close, NL);
    } else if ('tiles' in child) {
      if (child.tiles.has(tile)) {
        flush();
        out.push(child.bytes, NL);
      } else for (const s of child.others) state(s);
    } else state(child);
  }
  // What is left pending is set at the end of a block (or the stream), where nothing uses it.
}

/** A text object being read: its start, its matrices, whether the next show's origin is known, and what it sets. */
interface TextObject {
  start: number;
  tm: Matrix;
  tlm: Matrix;
  known: boolean;
  points: Array<[number, number]>;
  others: StateOp[];
  marks: number;
  leading: number;
}

/** Td, TD, T*: a new line, at an offset from the current line's start. */
function nextLine(tx: TextObject, dx: number, dy: number): void {
  tx.tlm = mul([1, 0, 0, 1, dx, dy], tx.tlm);
  tx.tm = tx.tlm;
  tx.known = true;
}

/** Operators whose numbers this reads. */
const NUMERIC = new Set(['Tm', 'Td', 'TD', 'TL', '"', 'cm', 'w', ...PATH_BUILD]);
const NONE: number[] = [];

function numbersIn(lex: ContentLex, from: number, to: number): number[] {
  const out: number[] = [];
  for (let i = from; i < to; i++) if (lex.kind[i] === TOKEN.number) out.push(lex.value[i]!);
  return out;
}

interface Graphics {
  ctm: Matrix;
  clip: Box | null;
  lineWidth: number;
}

function parseBlocks(content: Uint8Array, lex: ContentLex, grid: TileGrid, options: SplitOptions): Block {
  const all = new Set<number>();
  for (let i = 0; i < grid.cols * grid.rows; i++) all.add(i);
  const root: Block = { open: new Uint8Array(0), children: [], tiles: new Set() };
  const stack: Array<{ block: Block; g: Graphics }> = [];
  let block = root;
  let g: Graphics = { ctm: IDENTITY, clip: null, lineWidth: 1 };
  const bytes = (start: number, end: number): Uint8Array => content.subarray(start, end);
  const addUnit = (unit: Unit): void => {
    block.children.push(unit);
    for (const t of unit.tiles) block.tiles.add(t);
  };

  // The path being built: its start in the bytes and its box in device space.
  let pathStart = -1;
  let pathBox: Box | null = null;
  let clipping = false;
  // The text object being read.
  let text: TextObject | null = null;
  let leading = 0;

  let from = 0;
  const count = lex.count;
  const isOp = (t: number, op: string): boolean => lex.kind[t] === TOKEN.op && lex.text[t] === op;
  for (let t = 0; t < count; t++) {
    if (lex.kind[t] !== TOKEN.op) continue;
    const first = from;
    const start = lex.start[first < t ? first : t]!;
    const tokEnd = lex.end[t]!;
    from = t + 1;
    const op = lex.text[t]!;
    const nums = NUMERIC.has(op) ? numbersIn(lex, first, t) : NONE;

    if (op === 'BI') {
      // An inline image runs to its EI (the tokens skip its data): one unit, the unit square.
      let e = t + 1;
      while (e < count && !isOp(e, 'EI')) e++;
      const end = lex.end[e < count ? e : count - 1]!;
      addUnit({
        bytes: bytes(start, end),
        tiles: tilesOf(grid, all, g.clip, boxOf(g.ctm, [0, 0, 1, 1]), false),
        others: [],
      });
      t = e;
      from = e + 1;
      continue;
    }

    if (text) {
      if (op === 'ET') {
        const tiles = textTiles(grid, all, g.clip, text.points);
        // Marks inside the object leave with it when they balance there.
        const others = text.marks === 0 ? text.others.filter((s) => s.key !== 'mark') : text.others;
        addUnit({
          bytes: bytes(text.start, tokEnd),
          tiles,
          others: others.map((s) => (s.key === 'mark' ? { bytes: s.bytes } : s)),
        });
        leading = text.leading;
        text = null;
        continue;
      }
      const tx = text;
      if (op === 'Tm' && nums.length === 6) {
        tx.tlm = tx.tm = nums as Matrix;
        tx.known = true;
      } else if ((op === 'Td' || op === 'TD') && nums.length === 2) {
        if (op === 'TD') tx.leading = -nums[1]!;
        nextLine(tx, nums[0]!, nums[1]!);
      } else if (op === 'T*') nextLine(tx, 0, -tx.leading);
      else if (SHOWS.has(op)) {
        if (op === "'" || op === '"') nextLine(tx, 0, -tx.leading);
        if (op === '"' && nums.length >= 2) tx.others.push({ bytes: enc(`${nums[0]} Tw ${nums[1]} Tc`) });
        if (tx.known) tx.points.push(apply(mul(tx.tm, g.ctm), 0, 0));
        // Where the next show starts depends on glyph widths this does not read.
        tx.known = false;
      } else if (MARKS.has(op)) {
        tx.marks += op === 'EMC' ? -1 : op === 'BDC' || op === 'BMC' ? 1 : 0;
        tx.others.push({ bytes: content.subarray(start, tokEnd), key: 'mark' });
      } else if (op === 'TL' && nums.length === 1) {
        tx.leading = nums[0]!;
        tx.others.push({ bytes: content.subarray(start, tokEnd), key: 'TL' });
      } else if (op === 'cm' && nums.length === 6) {
        g = { ...g, ctm: mul(nums as Matrix, g.ctm) };
        tx.others.push({ bytes: content.subarray(start, tokEnd) });
      } else tx.others.push({ bytes: content.subarray(start, tokEnd), key: KEYED[op] });
      continue;
    }

    if (PATH_BUILD.has(op)) {
      if (pathStart < 0) pathStart = start;
      const pts: number[] = op === 're' && nums.length === 4 ? rectPoints(nums) : nums;
      for (let k = 0; k + 1 < pts.length; k += 2) pathBox = extend(pathBox, apply(g.ctm, pts[k]!, pts[k + 1]!));
      continue;
    }
    if (op === 'W' || op === 'W*') {
      if (pathStart < 0) pathStart = start;
      clipping = true;
      continue;
    }
    if (PATH_PAINT.has(op)) {
      const from0 = pathStart < 0 ? start : pathStart;
      const box = pathBox;
      const clip = clipping;
      pathStart = -1;
      pathBox = null;
      clipping = false;
      if (op !== 'n') {
        const widen = STROKES.has(op) ? g.lineWidth * scaleOf(g.ctm) : 0;
        const painted = box ? ([box[0] - widen, box[1] - widen, box[2] + widen, box[3] + widen] as Box) : null;
        // A path that clips and paints: tiles it does not paint in keep its clip.
        const others = clip ? [{ bytes: Buffer.concat([bytes(from0, lex.start[t]!), enc(' n')]) }] : [];
        addUnit({ bytes: bytes(from0, tokEnd), tiles: tilesOf(grid, all, g.clip, painted, false), others });
      } else block.children.push({ bytes: bytes(from0, tokEnd) });
      if (clip) g = { ...g, clip: intersect(g.clip, box ?? [0, 0, 0, 0]) };
      continue;
    }
    if (op === 'q') {
      const child: Block = { open: content.subarray(start, tokEnd), children: [], tiles: new Set() };
      block.children.push(child);
      stack.push({ block, g });
      block = child;
      continue;
    }
    if (op === 'Q') {
      const outer = stack.pop();
      if (!outer) {
        // More Q than q: kept as it is, in every tile.
        block.children.push({ bytes: content.subarray(start, tokEnd) });
        continue;
      }
      block.close = content.subarray(start, tokEnd);
      for (const tl of block.tiles) outer.block.tiles.add(tl);
      block = outer.block;
      g = outer.g;
      continue;
    }
    if (op === 'cm' && nums.length === 6) {
      g = { ...g, ctm: mul(nums as Matrix, g.ctm) };
      block.children.push({ bytes: content.subarray(start, tokEnd) });
      continue;
    }
    if (op === 'w' && nums.length === 1) g = { ...g, lineWidth: nums[0]! };
    if (op === 'BT') {
      text = {
        start,
        tm: IDENTITY,
        tlm: IDENTITY,
        known: true,
        points: [],
        others: [],
        marks: 0,
        leading,
      };
      continue;
    }
    if (op === 'Do') {
      let name: string | undefined;
      for (let k = first; k < t && name === undefined; k++) if (lex.kind[k] === TOKEN.name) name = lex.text[k];
      const own = name !== undefined && options.xobjectBox ? options.xobjectBox(name) : undefined;
      addUnit({
        bytes: content.subarray(start, tokEnd),
        tiles: tilesOf(grid, all, g.clip, own ? boxOf(g.ctm, own) : null, false),
        others: [],
      });
      continue;
    }
    if (op === 'sh') {
      addUnit({ bytes: content.subarray(start, tokEnd), tiles: tilesOf(grid, all, g.clip, null, false), others: [] });
      continue;
    }
    if (op === 'TL' && nums.length === 1) leading = nums[0]!;
    block.children.push({ bytes: content.subarray(start, tokEnd), key: KEYED[op] });
  }
  // An unclosed text object or q: what was read so far stays, in every tile.
  if (text) addUnit({ bytes: bytes(text.start, content.length), tiles: all, others: [] });
  for (let outer = stack.pop(); outer; outer = stack.pop()) {
    for (const tl of block.tiles) outer.block.tiles.add(tl);
    block = outer.block;
  }
  return root;
}
