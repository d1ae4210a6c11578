/**
 * Flow boxes → pages. Boxes are never re-measured: a page ends when the next
 * box does not fit. Headings keep with what follows them, table headers repeat,
 * and a table row taller than a page is split between its lines.
 */
import type { FlowBox, PageBoxes, RowBox } from './flow.js';
import { splitRow } from './table.js';

export interface PageFrame {
  /** Points from the page's top: where content starts and must end. */
  top: number;
  bottom: number;
  left: number;
  /** Where content starts on page 1 (below the logo). */
  firstTop: number;
}

/** Height of the smallest piece of a box that may start a page. */
function firstUnit(box: FlowBox): number {
  if (box.kind === 'row') return Math.min(box.height, box.table.lineHeight + 2 * box.table.padding);
  return box.height;
}

function keeps(box: FlowBox): boolean {
  return (box.kind === 'line' && box.keepWithNext === true) || (box.kind === 'row' && box.isHeader);
}

/** Height that must fit for box i to stay here: itself, what it keeps with, and one unit of what follows. */
function chainHeight(boxes: FlowBox[], i: number): number {
  let h = 0;
  for (let j = i; j < boxes.length; j++) {
    const b = boxes[j];
    if (b.kind === 'gap' || keeps(b)) {
      h += b.height;
      continue;
    }
    return h + firstUnit(b);
  }
  return h;
}

export function paginate(boxes: FlowBox[], frame: PageFrame): PageBoxes[] {
  const pages: PageBoxes[] = [{ placed: [] }];
  const fullHeight = frame.bottom - frame.top;
  let y = frame.firstTop;
  /** Nothing but a repeated header on this page yet: breaking again would not help. */
  let atTop = true;
  let page = pages[0];
  /** The table whose rows were last placed, to repeat its header on the next page. */
  let openTable: RowBox['table'] | undefined;

  const place = (box: FlowBox) => {
    page.placed.push({ box, top: y, left: frame.left });
    y += box.height;
  };
  const newPage = (next: FlowBox) => {
    page = { placed: [] };
    pages.push(page);
    y = frame.top;
    atTop = true;
    if (next.kind === 'row' && !next.isHeader && next.table === openTable && next.table.header)
      place(next.table.header);
  };

  const queue = [...boxes];
  for (let i = 0; i < queue.length; i++) {
    const box = queue[i];
    if (box.kind === 'gap') {
      if (!atTop && y + box.height <= frame.bottom) place(box);
      else if (!atTop) y = frame.bottom;
      continue;
    }
    const remaining = frame.bottom - y;
    if (keeps(box)) {
      const need = chainHeight(queue, i);
      if (need > remaining && !atTop && need <= fullHeight) newPage(box);
    }
    if (box.kind === 'row') {
      openTable = box.table;
      if (box.height > frame.bottom - y) {
        const headerHeight = box.table.header && !box.isHeader ? box.table.header.height : 0;
        const fitsOnFreshPage = box.height <= fullHeight - headerHeight;
        if (!atTop && (fitsOnFreshPage || frame.bottom - y < firstUnit(box))) {
          newPage(box);
          i--;
          continue;
        }
        const parts = splitRow(box, frame.bottom - y);
        if (parts) {
          place(parts[0]);
          queue.splice(i + 1, 0, parts[1]);
          atTop = false;
          continue;
        }
        // Not one line fits even on a fresh page: place it and let it overflow rather than loop.
      }
      place(box);
      atTop = false;
      continue;
    }
    openTable = undefined;
    if (box.height > frame.bottom - y && !atTop) newPage(box);
    place(box);
    atTop = false;
  }
  return pages;
}
