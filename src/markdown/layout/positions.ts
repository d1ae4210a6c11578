/**
 * Where the request blocks that carry an `id` landed, read from the placed boxes after pagination
 * (the layout knows every box's place; nothing is read back from the PDF). Callers use it to put
 * something on the page at a block: a signature in a table cell left blank for it, a field, a stamp.
 *
 * Rects are in points from the top-left corner of the page (the frame `signatureFields` and signature
 * marks use), `page` is 0 for the first page. A block split across pages has one entry per page.
 */
import type { FlowBox, PageBoxes, Placed } from './flow.js';

/** A rectangle in points, from the top-left corner of the page. */
interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** One cell of a table block on one page: the box between its gridlines, padding included. */
export interface CellPosition extends Box {
  /** 0 for the table's first row (the header row, when it has one). */
  row: number;
  column: number;
}

/** Where one request block with an `id` landed on one page. */
export interface BlockPosition extends Box {
  id: string;
  /** 0 for the first page. */
  page: number;
  /**
   * A table block's cells on this page, row by row: a row split across pages has a cell on each,
   * and a header row repeated at the top of a page is listed again there.
   */
  cells?: CellPosition[];
}

/** The horizontal extent of a placed box, from the page's left edge. */
function span(p: Placed): { left: number; right: number } | undefined {
  const box: FlowBox = p.box;
  switch (box.kind) {
    case 'gap':
      return undefined;
    case 'line': {
      const markers = (box.markers ?? []).map((m) => m.x);
      const left = Math.min(box.x, ...markers);
      return { left: p.left + left, right: p.left + box.x + box.line.width };
    }
    case 'row':
      return { left: p.left + box.table.x, right: p.left + box.table.x + box.table.width };
    case 'image':
    case 'rule':
      return { left: p.left + box.x, right: p.left + box.x + box.width };
  }
}

/** The positions of every block with an `id`, in page order and, on a page, in block order. */
export function blockPositions(pages: readonly PageBoxes[]): BlockPosition[] {
  const out: BlockPosition[] = [];
  pages.forEach((page, index) => {
    const onPage = new Map<string, BlockPosition>();
    for (const p of page.placed) {
      const id = p.box.anchor;
      const extent = id === undefined ? undefined : span(p);
      if (id === undefined || !extent) continue;
      const bottom = p.top + p.box.height;
      let at = onPage.get(id);
      if (!at) {
        at = { id, page: index, x: extent.left, y: p.top, width: extent.right - extent.left, height: p.box.height };
        onPage.set(id, at);
        out.push(at);
      } else {
        const left = Math.min(at.x, extent.left);
        const right = Math.max(at.x + at.width, extent.right);
        const top = Math.min(at.y, p.top);
        Object.assign(at, { x: left, y: top, width: right - left, height: Math.max(at.y + at.height, bottom) - top });
      }
      if (p.box.kind === 'row') {
        const row = p.box;
        const cells = (at.cells ??= []);
        row.table.columns.forEach((col, column) =>
          cells.push({ row: row.row, column, x: p.left + col.x, y: p.top, width: col.width, height: row.height }),
        );
      }
    }
  });
  return out;
}
