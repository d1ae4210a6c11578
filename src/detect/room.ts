/**
 * The room above one piece of a horizontal segment (cells.ts): the field a person writes in, or
 * nothing. A cell (a segment above and a wall) gives the room below its own label; a bare line
 * gives a line's height, when something says it is a line to write on.
 */
import type { Phrase } from './phrases.js';
import { firstAtLeast, SNAP, type Box, type HSeg, type Shapes } from './shapes.js';

export interface FlatField {
  kind: 'box' | 'underline' | 'comb' | 'checkbox' | 'radio';
  rect: Box;
  /** comb: number of cells. */
  cells?: number;
  /** radio: each button's box. */
  options?: Box[];
}

/** A piece of a horizontal segment between two walls (or its ends). */
export interface Piece {
  x0: number;
  x1: number;
  y: number;
  /** How far the walls at either end rise above the segment (0: no wall). */
  left: number;
  right: number;
  /** Whether walls go down from the segment at both ends: the top of a box below. */
  hangs?: boolean;
  /** The segment is drawn as text (underscores, packed dots). */
  leader?: boolean;
}

/** What a piece is read against: the page's shapes and phrases, the size of its body text, its width. */
export interface PageContext {
  shapes: Shapes;
  phrases: Phrase[];
  bodySize: number;
  width: number;
}

/** Narrowest writing field. */
const FIELD_MIN_WIDTH = 14;
/** Room above a segment a field needs: an enclosed cell, a bare line. */
const ROOM_BOX = 8;
const ROOM_LINE = 9;
/** Height given to a line's field when nothing above bounds it. */
export const LINE_HEIGHT = 16;
/** How far above a segment a cell's top may be. */
const REACH = 90;

/** The nearest segment above `p` covering most of it, within REACH. */
export function topOf(p: Piece, h: HSeg[]): HSeg | undefined {
  const width = p.x1 - p.x0;
  let best: HSeg | undefined;
  for (let i = firstAtLeast(h, (s) => s.y, p.y - REACH); i < h.length && h[i]!.y < p.y - 2; i++) {
    const s = h[i]!;
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

/** The share of `b`'s area that `k` covers. */
function covered(b: Box, k: Box): number {
  const w = Math.min(b.x + b.width, k.x + k.width) - Math.max(b.x, k.x);
  const h = Math.min(b.y + b.height, k.y + k.height) - Math.max(b.y, k.y);
  return w > 0 && h > 0 ? (w * h) / (b.width * b.height) : 0;
}

const inside = (b: Box, x: number, y: number) => x > b.x && x < b.x + b.width && y > b.y && y < b.y + b.height;

/** Whether `t` stands on the row of a line at `y` starting at `x0`, to its left. */
const leftOnRow = (t: Phrase, x0: number, y: number) =>
  t.x1 <= x0 + 3 && t.x1 >= x0 - 200 && t.y1 >= y - 14 && t.y1 <= y + 3;

/**
 * Whether a bare line from `x0` to `x1` at `y` is one to write on: a label stands on its row to
 * the left, or a caption of a few words no larger than the body text just below it, or a short caption over a
 * line of form width (a rule across the page under a heading or a paragraph is not), or it
 * continues the same line just above (a second address line).
 */
function labelledLine(x0: number, x1: number, y: number, top: HSeg | undefined, page: PageContext): boolean {
  if (top && y - top.y <= 30 && Math.abs(top.x0 - x0) <= 3 && Math.abs(top.x1 - x1) <= 3) return true;
  const short = x1 - x0 <= page.width * 0.6;
  return page.phrases.some((t) => {
    const over = t.x0 >= x0 - 6 && t.x0 < x1 - 2;
    if (leftOnRow(t, x0, y)) return true;
    const few = t.text.split(' ').length <= 5;
    if (over && few && t.y0 >= y - 1 && t.y0 - y <= 8 && t.size <= page.bodySize * 1.05) return true;
    return short && over && t.y1 <= y && y - t.y1 <= 28 && t.text.split(' ').length <= 6;
  });
}

/**
 * How a phrase at a cell's bottom left leads into a value beside it: `sign` (no letters, or an
 * arrow or colon after it), `words` (a few words taking little of the cell: a label, or a table's
 * row heading, which cells.ts tells apart by its column), or not at all.
 */
function leadIn(t: Phrase, cellWidth: number): 'sign' | 'words' | undefined {
  if (!/\p{L}/u.test(t.text) || /[▶►:]$/u.test(t.text)) return 'sign';
  return t.text.split(' ').length <= 3 && t.x1 - t.x0 <= cellWidth * 0.25 ? 'words' : undefined;
}

/** What a piece holds: a field (with what stands in its cell), or a cell of text, or nothing. */
export interface Room {
  field?: FlatField;
  /** The field's cell holds its label above it. */
  labelled?: boolean;
  /** The field follows a few words at its cell's left (`Phone no.`), which may be a row heading. */
  afterWords?: boolean;
  /** A cell without room: the lines of text it holds. */
  textLines?: number;
}

/** The field a piece leaves room for (see Room). */
export function roomOf(p: Piece, page: PageContext): Room {
  const { shapes, phrases } = page;
  const top = topOf(p, shapes.h);
  const height = top ? p.y - top.y : 0;
  const width = p.x1 - p.x0;
  const enclosed = top !== undefined && p.left >= height - SNAP && p.right >= height - SNAP;
  const hatched = (b: Box) =>
    shapes.hatches.filter(([x, y]) => inside(b, x, y)).length >= 2 || shapes.blocked.some((k) => covered(b, k) >= 0.5);
  if (top && enclosed && width >= 5 && width <= 18 && Math.abs(height - width) <= width * 0.25) {
    const box = { x: p.x0, y: top.y, width, height };
    // A letter in a small box is a badge naming a line (`A`), not a box to tick.
    const lettered = phrases.some((t) => inside(box, (t.x0 + t.x1) / 2, (t.y0 + t.y1) / 2));
    return lettered || hatched(box) ? {} : { field: { kind: 'checkbox', rect: box } };
  }
  if (width < FIELD_MIN_WIDTH) return {};
  // A cell: a segment above and a wall at one end at least (three sides drawn, or four).
  const cell = top !== undefined && Math.max(p.left, p.right) >= height * 0.5;
  // A bare line that is the top edge of a box below it is no line to write on.
  if (!cell && p.hangs) return {};
  const ceiling = top ? top.y : p.y - REACH;
  let x0 = p.x0;
  let over = textOver(x0, p.x1, ceiling, p.y, phrases);
  // A cell holding a paragraph (an instructions table) is read, not filled.
  if (cell && lineCount(over) >= 3) return { textLines: lineCount(over) };
  let floor = Math.max(ceiling, ...over.map((t) => t.y1));
  const need = cell ? ROOM_BOX : ROOM_LINE;
  let afterWords = false;
  if (p.y - floor < need) {
    // Text at the line's left end starts the field after it: a label on a bare line (`Date ▶ ____`
    // over one rule); in a cell, a sign (`+`, `=`, `$`) or a short label that says a value follows
    // (`Firm's name ▶`, `Phone no.`), not a row's heading (`Total production`).
    const low = over.filter((t) => t.y1 > p.y - need);
    const end = Math.max(...low.map((t) => t.x1));
    const leads = low.map((t) => leadIn(t, width));
    const textCell = { textLines: lineCount(over) };
    if (cell && leads.some((l) => l === undefined)) return textCell;
    // A heading set larger than the body and ruled beneath is no label.
    if (!cell && low.some((t) => t.size > page.bodySize * 1.05)) return {};
    if (end > p.x0 + width * 0.7) return textCell;
    afterWords = cell && leads.includes('words');
    x0 = end + 2;
    over = textOver(x0, p.x1, ceiling, p.y, phrases);
    floor = Math.max(ceiling, ...over.map((t) => t.y1));
    if (p.y - floor < need || p.x1 - x0 < FIELD_MIN_WIDTH) return textCell;
  }
  // A bare line is a field when something says so: it is typed as text, or a label stands on its
  // row to the left, or a caption just below it (a section's rule under a heading is not).
  if (!cell && !p.leader && !labelledLine(x0, p.x1, p.y, top, page)) return {};
  // A line with its label on its row to the left, inside a tall cell (`nom: ____` in a panel) is
  // an underline: a line's height, not the panel's.
  const lined = cell && p.y - floor > LINE_HEIGHT * 1.5 && page.phrases.some((t) => leftOnRow(t, x0, p.y));
  const box = cell && !lined;
  const y0 = box ? floor + 0.5 : Math.max(floor + 0.5, p.y - LINE_HEIGHT);
  const rect = { x: x0, y: y0, width: p.x1 - x0, height: p.y - y0 };
  if (hatched(rect)) return {};
  return {
    field: { kind: box ? 'box' : 'underline', rect },
    ...(cell && over.length > 0 ? { labelled: true } : {}),
    ...(afterWords ? { afterWords } : {}),
  };
}
