/**
 * The document model between parsing and layout: what the Markdown means,
 * with no sizes or positions yet. Layout turns it into positioned boxes.
 */

import { literalPieces } from '../format/index.js';

export type Align = 'left' | 'center' | 'right';

export interface InlineMarks {
  bold: boolean;
  italic: boolean;
  strike: boolean;
  code: boolean;
  /** Target of an enclosing link (drawn underlined and clickable). */
  link?: string;
  /** Text of a literal span (src/format literal-text.ts): drawn as marked content the text-tag finder skips. */
  value?: boolean;
}

export type Inline =
  /** `text` may contain '\n': a hard line break. */
  | { kind: 'text'; text: string; marks: InlineMarks }
  /** `altValue`: the description holds a literal span (shown as text when the image cannot be). */
  | { kind: 'image'; src: string; alt: string; altValue?: boolean; link?: string };

export interface TableCell {
  inlines: Inline[];
}

export interface ColumnSpec {
  align: Align;
  /** Requested width: points, or a share (0..1) of the table width. */
  width?: { points: number } | { share: number };
}

export interface TableModel {
  rows: TableCell[][];
  header: boolean;
  columns: ColumnSpec[];
  rowGridlines: boolean;
  columnGridlines: boolean;
  verticalAlign: 'top' | 'center' | 'bottom';
}

export type Block =
  | { kind: 'paragraph'; inlines: Inline[] }
  /** level 1–6 from Markdown; 0 is a request block's `heading` key. */
  | { kind: 'heading'; level: number; inlines: Inline[] }
  /** A request block's `label` key: bold, kept with what follows. */
  | { kind: 'label'; inlines: Inline[] }
  /** `values`: [from, to) character ranges of `text` that came from literal spans. */
  | { kind: 'code'; text: string; values?: Array<[number, number]> }
  | { kind: 'list'; ordered: boolean; start: number; tight: boolean; items: Block[][] }
  | { kind: 'quote'; children: Block[] }
  | { kind: 'rule' }
  | { kind: 'table'; table: TableModel };

const PLAIN: InlineMarks = Object.freeze({ bold: false, italic: false, strike: false, code: false });

/** Plain text (a heading, label or table cell of a request) whose literal spans are marked as values. */
export function plainPieces(text: string, marks: InlineMarks = PLAIN): Inline[] {
  return literalPieces(text).map((p) => ({
    kind: 'text',
    text: p.text,
    marks: p.value ? { ...marks, value: true } : marks,
  }));
}
