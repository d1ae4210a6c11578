/**
 * Draws placed boxes onto pdf-lib pages: each box's content as marked content of its structure
 * element, decoration as artifacts (drawer.ts holds the primitives).
 */
import type { PDFPage } from '@cantoo/pdf-lib';
import type { ImageBox, LineBox, Marker, PageBoxes, Placed, RowBox } from './layout/flow.js';
import { placeImage } from '../images/index.js';
import { DEFAULTS } from './style.js';
import { color, PageDrawer, type RenderTarget } from './drawer.js';

export type { RenderTarget } from './drawer.js';

function drawMarker(d: PageDrawer, marker: Marker, left: number, baseline: number): void {
  if (marker.kind === 'text') {
    if (marker.tag) d.line(marker.line, left + marker.x, baseline, marker.tag);
    else d.artifact('Layout', () => d.line(marker.line, left + marker.x, baseline));
    return;
  }
  const s = marker.size;
  const cx = left + marker.x + s / 2;
  const cy = d.y(baseline - s * 0.9);
  d.tagged(marker.tag, () => {
    if (marker.shape === 'square')
      d.page.drawRectangle({ x: cx - s / 2, y: cy - s / 2, width: s, height: s, color: color(marker.color) });
    else if (marker.shape === 'disc') d.page.drawCircle({ x: cx, y: cy, size: s / 2, color: color(marker.color) });
    else d.page.drawCircle({ x: cx, y: cy, size: s / 2 - 0.35, borderColor: color(marker.color), borderWidth: 0.7 });
  });
}

function drawBars(d: PageDrawer, p: Placed): void {
  if (p.box.bars.length === 0) return;
  d.artifact('Layout', () => {
    for (const bx of p.box.bars) d.rect(p.left + bx, p.top, 2.5, p.box.height, DEFAULTS.quoteBar);
  });
}

function drawLineBox(d: PageDrawer, p: Placed, box: LineBox): void {
  const band = box.background;
  if (band) d.artifact('Layout', () => d.rect(p.left + band.x, p.top, band.width, box.height, band.color));
  const baseline = p.top + box.padTop + box.ascent;
  for (const marker of box.markers ?? []) drawMarker(d, marker, p.left, baseline);
  if (box.tag) d.line(box.line, p.left + box.x, baseline, box.tag);
  else d.artifact('Layout', () => d.line(box.line, p.left + box.x, baseline));
}

function drawImageBox(d: PageDrawer, p: Placed, box: ImageBox): void {
  const x = p.left + box.x;
  d.tagged(box.tag, () =>
    placeImage(d.page, box.image, { x, y: d.y(p.top + box.height), width: box.width, height: box.height }),
  );
  d.link(box.link, x, p.top, box.width, box.height, box.linkTag);
  for (const marker of box.markers ?? [])
    drawMarker(d, marker, p.left, p.top + (marker.kind === 'text' ? marker.line.ascent : marker.size * 2));
}

/**
 * A table row: each cell's lines as content of its TH or TD, the grid as an artifact. A header row
 * repeated at the top of a later page is drawn whole as a pagination artifact.
 */
function drawRow(d: PageDrawer, p: Placed, row: RowBox, repeat: boolean): void {
  const g = row.table;
  const left = p.left;
  const top = p.top;
  const bottom = top + row.height;
  const grid = DEFAULTS.gridColor;
  const cells = () =>
    row.cells.forEach((cell, c) => {
      const col = g.columns[c];
      const content = cell.lines.reduce((h, l) => h + l.height, 0);
      const free = row.height - 2 * g.padding - content;
      const offset = row.continued
        ? 0
        : g.verticalAlign === 'center'
          ? free / 2
          : g.verticalAlign === 'bottom'
            ? free
            : 0;
      let y = top + g.padding + offset;
      const tag = repeat ? undefined : row.cellTags?.[c];
      for (const line of cell.lines) {
        const inner = col.width - 2 * g.padding;
        const dx = cell.align === 'center' ? (inner - line.width) / 2 : cell.align === 'right' ? inner - line.width : 0;
        const ascent = (line.height - (line.ascent + line.descent)) / 2 + line.ascent;
        d.line(line, left + col.x + g.padding + dx, y + ascent, tag);
        y += line.height;
      }
    });
  const lines = () => {
    const x1 = left + g.x;
    const x2 = x1 + g.width;
    if (g.rowGridlines) {
      d.hline(x1, x2, top, 0.6, grid);
      d.hline(x1, x2, bottom, 0.6, grid);
    }
    if (row.isHeader) d.hline(x1, x2, bottom, 1.1, grid);
    if (g.columnGridlines) {
      for (const col of g.columns) d.vline(left + col.x, top, bottom, 0.6, grid);
      d.vline(x2, top, bottom, 0.6, grid);
    }
  };
  if (repeat)
    d.artifact('Pagination', () => {
      cells();
      lines();
    });
  else {
    cells();
    d.artifact('Layout', lines);
  }
}

export function drawPage(t: RenderTarget, page: PDFPage, boxes: PageBoxes): void {
  const d = new PageDrawer(t, page);
  for (const p of boxes.placed) {
    drawBars(d, p);
    const box = p.box;
    switch (box.kind) {
      case 'line':
        drawLineBox(d, p, box);
        break;
      case 'image':
        drawImageBox(d, p, box);
        break;
      case 'rule':
        d.artifact('Layout', () =>
          d.hline(p.left + box.x, p.left + box.x + box.width, p.top + box.height / 2, 0.8, DEFAULTS.ruleColor),
        );
        break;
      case 'row': {
        const repeat = box.isHeader && t.headersDrawn.has(box.table);
        if (box.isHeader) t.headersDrawn.add(box.table);
        drawRow(d, p, box, repeat);
        break;
      }
      case 'gap':
        break;
    }
  }
}
