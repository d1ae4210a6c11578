/**
 * The output of layout before pagination: a vertical sequence of boxes, each
 * with its height known. x offsets are points from the content area's left
 * edge. Pagination only decides where each box goes, never re-measures text.
 */
import type { EmbeddedImage } from '../images.js';
import type { LaidLine } from '../../text/index.js';
import type { StructElement } from '../../pdf/index.js';

/** What a run of text carries through the text layer. */
export interface RunData {
  color: string;
  link?: string;
  strike?: boolean;
  code?: boolean;
  /** Drawn from a literal span: marked content the text-tag finder skips. */
  value?: boolean;
}

export type Line = LaidLine<RunData>;

/** Decorations shared by boxes inside block quotes, and the request block a box was laid out for. */
export interface Bars {
  /** x offsets of the quote bars that run alongside this box. */
  bars: number[];
  /** The `id` of the request block the box belongs to, when it has one (positions.ts reports it). */
  anchor?: string;
  /** The structure element the box's content belongs to; none: an artifact (rules, decorative images). */
  tag?: StructElement;
}

/** A list item's marker; `tag` is its Lbl element. */
export type Marker = { tag?: StructElement } & (
  | { kind: 'text'; line: Line; x: number }
  | { kind: 'bullet'; shape: 'disc' | 'circle' | 'square'; x: number; size: number; color: string }
);

export interface LineBox extends Bars {
  kind: 'line';
  x: number;
  line: Line;
  /** Box height; the baseline sits at `top + padTop + ascent`. */
  height: number;
  padTop: number;
  ascent: number;
  /** List markers drawn on this line (several when list items nest on one line). */
  markers?: Marker[];
  /** Shaded band behind the line (code blocks), across `width` from x. */
  background?: { x: number; width: number; color: string };
  /** Kept on the same page as the box after it (headings, labels). */
  keepWithNext?: boolean;
}

export interface GapBox extends Bars {
  kind: 'gap';
  height: number;
}

export interface RuleBox extends Bars {
  kind: 'rule';
  x: number;
  width: number;
  height: number;
}

export interface ImageBox extends Bars {
  kind: 'image';
  x: number;
  width: number;
  height: number;
  image: EmbeddedImage;
  link?: string;
  /** The Link element of a linked image (its Figure is `tag`). */
  linkTag?: StructElement;
  markers?: Marker[];
}

/** A table cell's content: lines stacked from the top, already wrapped to the column. */
export interface CellContent {
  lines: Line[];
  align: 'left' | 'center' | 'right';
}

export interface TableGeometry {
  x: number;
  columns: Array<{ x: number; width: number }>;
  width: number;
  padding: number;
  rowGridlines: boolean;
  columnGridlines: boolean;
  verticalAlign: 'top' | 'center' | 'bottom';
  /** Repeated at the top of every page the table continues on. */
  header?: RowBox;
  lineHeight: number;
  color: string;
}

export interface RowBox extends Bars {
  kind: 'row';
  table: TableGeometry;
  cells: CellContent[];
  height: number;
  isHeader: boolean;
  /** The row's index in its table (0 for the first row, header included): cell positions name it. */
  row: number;
  /** Continuation of a row split across pages. */
  continued?: boolean;
  /** The TH or TD element of each cell (`tag` is the row's TR). */
  cellTags?: StructElement[];
}

export type FlowBox = LineBox | GapBox | RuleBox | ImageBox | RowBox;

/** A box placed on a page: `top` is points from the page's top edge. */
export interface Placed {
  box: FlowBox;
  top: number;
  left: number;
}

export interface PageBoxes {
  placed: Placed[];
}
