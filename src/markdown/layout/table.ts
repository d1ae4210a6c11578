/**
 * Tables: column widths, wrapped cells, and rows as flow boxes. A row is the
 * unit of pagination; one taller than the space left is split between its lines.
 */
import type { TextSetter, TextStyle } from '../../text/index.js';
import type { CellContent, Line, RowBox, TableGeometry } from './flow.js';
import { toSpans, wrap } from './spans.js';
import type { TableModel } from '../model.js';
import { DEFAULTS, SPACING, type BlockStyle } from '../style.js';

export function layoutTable(
  setter: TextSetter,
  table: TableModel,
  style: BlockStyle,
  x: number,
  width: number,
): RowBox[] {
  const count = Math.max(0, ...table.rows.map((r) => r.length));
  if (table.rows.length === 0 || count === 0) return [];
  const em = style.fontSize;
  const padding = SPACING.tableCellPadding * em;
  const spansOf = (r: number, c: number) =>
    toSpans(table.rows[r][c]?.inlines ?? [], style, em, table.header && r === 0);

  const widths = columnWidths(setter, table, count, width, padding, spansOf);
  let cx = x;
  const columns = widths.map((w) => {
    const col = { x: cx, width: w };
    cx += w;
    return col;
  });
  const geometry: TableGeometry = {
    x,
    columns,
    width: cx - x,
    padding,
    rowGridlines: table.rowGridlines,
    columnGridlines: table.columnGridlines,
    verticalAlign: table.verticalAlign,
    lineHeight: em * DEFAULTS.lineHeight,
    color: style.color,
  };

  const rows = table.rows.map((_, r): RowBox => {
    const cells: CellContent[] = columns.map((col, c) => ({
      lines: wrap(setter, spansOf(r, c), col.width - 2 * padding),
      align: table.columns[c]?.align ?? 'left',
    }));
    return {
      kind: 'row',
      table: geometry,
      cells,
      height: rowHeight(cells, geometry),
      isHeader: table.header && r === 0,
      row: r,
      bars: [],
    };
  });
  if (table.header) geometry.header = rows[0];
  return rows;
}

function contentHeight(lines: Line[]): number {
  return lines.reduce((h, l) => h + l.height, 0);
}

function rowHeight(cells: CellContent[], g: TableGeometry): number {
  return Math.max(g.lineHeight, ...cells.map((c) => contentHeight(c.lines))) + 2 * g.padding;
}

type SpansOf = (r: number, c: number) => ReturnType<typeof toSpans>;

/**
 * Requested widths first (px or % of the table); the rest is shared by the other
 * columns: each gets its natural width plus an equal part of what is left, or,
 * when the text does not fit, its longest word plus a share of the remainder
 * in proportion to how much longer its text is.
 */
function columnWidths(
  setter: TextSetter,
  table: TableModel,
  count: number,
  width: number,
  padding: number,
  spansOf: SpansOf,
): number[] {
  const natural: number[] = [];
  const minimum: number[] = [];
  // Table cells repeat words a lot (numbers, units, yes/no): measure each once.
  const memo = new Map<string, number>();
  const measure = (text: string, style: TextStyle) => {
    const key = `${style.fontFamily}\u0000${style.fontWeight}\u0000${style.fontSize}\u0000${text}`;
    let w = memo.get(key);
    if (w === undefined) memo.set(key, (w = setter.measure(text, style)));
    return w;
  };
  for (let c = 0; c < count; c++) {
    let nat = 0;
    let min = 0;
    for (let r = 0; r < table.rows.length; r++) {
      const lineWidths = [0];
      for (const span of spansOf(r, c)) {
        const pieces = span.text.split('\n');
        pieces.forEach((piece, k) => {
          if (k > 0) lineWidths.push(0);
          lineWidths[lineWidths.length - 1] += measure(piece, span.style);
          for (const word of piece.split(/\s+/)) if (word) min = Math.max(min, measure(word, span.style));
        });
      }
      nat = Math.max(nat, ...lineWidths);
    }
    natural.push(nat + 2 * padding);
    minimum.push(Math.min(min + 2 * padding, width / count));
  }

  const requested = Array.from({ length: count }, (_, c) => {
    const w = table.columns[c]?.width;
    if (!w) return undefined;
    return 'points' in w ? w.points : w.share * width;
  });
  const autoCols = requested.map((r, c) => (r === undefined ? c : -1)).filter((c) => c >= 0);
  const autoFloor = autoCols.length * (2 * padding + 12);
  let fixedSum = requested.reduce<number>((s, r) => s + (r ?? 0), 0);
  const scale = fixedSum > width - autoFloor && fixedSum > 0 ? Math.max(0, width - autoFloor) / fixedSum : 1;
  const widths = requested.map((r) => (r === undefined ? 0 : r * scale));
  fixedSum *= scale;

  const avail = Math.max(0, width - fixedSum);
  const natSum = autoCols.reduce((s, c) => s + natural[c], 0);
  if (autoCols.length > 0) {
    if (natSum <= avail) {
      const extra = (avail - natSum) / autoCols.length;
      for (const c of autoCols) widths[c] = natural[c] + extra;
    } else {
      // As CSS auto tables do: every column gets its longest word, the rest goes where text is longest.
      const minSum = autoCols.reduce((s, c) => s + minimum[c], 0);
      if (minSum >= avail) for (const c of autoCols) widths[c] = (avail * minimum[c]) / minSum;
      else {
        const stretch = autoCols.reduce((s, c) => s + (natural[c] - minimum[c]), 0);
        for (const c of autoCols)
          widths[c] = minimum[c] + ((avail - minSum) * (natural[c] - minimum[c])) / (stretch || 1);
      }
    }
  }
  // When every column has a width and they leave room, the table is narrower than the page.
  return widths;
}

/**
 * Splits a row so that its first part is at most `available` tall. Returns null
 * when not even one line of any cell fits (the row then moves to the next page).
 */
export function splitRow(row: RowBox, available: number): [RowBox, RowBox] | null {
  const pad = row.table.padding;
  const room = available - 2 * pad;
  let any = false;
  const heads: CellContent[] = [];
  const tails: CellContent[] = [];
  for (const cell of row.cells) {
    let h = 0;
    let n = 0;
    while (n < cell.lines.length && h + cell.lines[n].height <= room) h += cell.lines[n++].height;
    if (n > 0) any = true;
    heads.push({ ...cell, lines: cell.lines.slice(0, n) });
    tails.push({ ...cell, lines: cell.lines.slice(n) });
  }
  if (!any) return null;
  const head: RowBox = { ...row, cells: heads, height: 0 };
  head.height = rowHeight(heads, row.table);
  const tail: RowBox = { ...row, cells: tails, height: 0, continued: true };
  tail.height = rowHeight(tails, row.table);
  return [head, tail];
}
