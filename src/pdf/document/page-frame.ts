/**
 * A page as it is shown: its visible box (crop box, else media box) turned
 * clockwise by /Rotate. Template rects are measured from the top-left corner of
 * this view; fill draws through `displayMatrix`, templateFromPdf reads widgets
 * back through `toDisplay`. One place for this arithmetic, used by both.
 */
import type { PDFPage } from '@cantoo/pdf-lib';

export type Rotation = 0 | 90 | 180 | 270;

export type Matrix = [number, number, number, number, number, number];

/** `m` then `n` (PDF's row-vector convention: a point is multiplied by m, then by n). */
export function multiplyMatrices(m: Matrix, n: Matrix): Matrix {
  return [
    m[0] * n[0] + m[1] * n[2],
    m[0] * n[1] + m[1] * n[3],
    m[2] * n[0] + m[3] * n[2],
    m[2] * n[1] + m[3] * n[3],
    m[4] * n[0] + m[5] * n[2] + n[4],
    m[4] * n[1] + m[5] * n[3] + n[5],
  ];
}

/** The point (x, y) through `m`. */
export function applyMatrix(m: Matrix, x: number, y: number): [number, number] {
  return [x * m[0] + y * m[2] + m[4], x * m[1] + y * m[3] + m[5]];
}

/** A page's visible area in user space and how it is turned for display. */
export interface PageFrame {
  llx: number;
  lly: number;
  urx: number;
  ury: number;
  rotate: Rotation;
  /** Size as displayed (width and height swap at 90/270). */
  width: number;
  height: number;
}

export function frameOf(r: { x: number; y: number; width: number; height: number }, rotate: number): PageFrame {
  const normalized = ((((Math.round(rotate / 90) * 90) % 360) + 360) % 360) as Rotation;
  const llx = Math.min(r.x, r.x + r.width);
  const lly = Math.min(r.y, r.y + r.height);
  const w = Math.abs(r.width);
  const h = Math.abs(r.height);
  const turned = normalized === 90 || normalized === 270;
  return { llx, lly, urx: llx + w, ury: lly + h, rotate: normalized, width: turned ? h : w, height: turned ? w : h };
}

/** A loaded page's frame: its crop box (pdf-lib falls back to the media box) turned by its /Rotate. */
export function frameOfPage(page: PDFPage): PageFrame {
  return frameOf(page.getCropBox(), page.getRotation().angle);
}

/**
 * Matrix from display space (bottom-left origin, page as shown) to the page's
 * user space, so fields land where the builder showed them on rotated pages
 * and on pages whose box does not start at 0,0.
 */
export function displayMatrix(frame: PageFrame): Matrix {
  switch (frame.rotate) {
    case 90:
      return [0, 1, -1, 0, frame.urx, frame.lly];
    case 180:
      return [-1, 0, 0, -1, frame.urx, frame.ury];
    case 270:
      return [0, -1, 1, 0, frame.llx, frame.ury];
    default:
      return [1, 0, 0, 1, frame.llx, frame.lly];
  }
}

/** A user-space point in display space (bottom-left origin): the inverse of `displayMatrix`. */
export function toDisplay(frame: PageFrame, x: number, y: number): [number, number] {
  switch (frame.rotate) {
    case 90:
      return [y - frame.lly, frame.urx - x];
    case 180:
      return [frame.urx - x, frame.ury - y];
    case 270:
      return [frame.ury - y, x - frame.llx];
    default:
      return [x - frame.llx, y - frame.lly];
  }
}

/**
 * Matrix that turns content counterclockwise by `turn` onto `box` (bottom-left
 * origin): the content is drawn upright in a box at the origin whose width and
 * height are `box`'s, swapped at 90/270. Used for form XObjects of turned
 * widgets (/MK /R) and for turned template fields.
 */
export function turnMatrix(turn: 90 | 180 | 270, box: { x: number; y: number; width: number; height: number }): Matrix {
  const { x, y, width, height } = box;
  switch (turn) {
    case 90:
      return [0, 1, -1, 0, x + width, y];
    case 180:
      return [-1, 0, 0, -1, x + width, y + height];
    case 270:
      return [0, -1, 1, 0, x, y + height];
  }
}

/**
 * A rect measured from the top-left corner of the page as shown (template and
 * packet fields) as a rect in the page's user space (bottom-left origin, the
 * page's own axes), for widgets whose /Rect lives there.
 */
export function userRect(
  frame: PageFrame,
  r: { x: number; y: number; width: number; height: number },
): { x: number; y: number; width: number; height: number } {
  const [a, b, c, d, e, f] = displayMatrix(frame);
  const y0 = frame.height - r.y - r.height;
  const corners = [
    [r.x, y0],
    [r.x + r.width, y0 + r.height],
  ].map(([x, y]) => [a * x! + c * y! + e, b * x! + d * y! + f] as const);
  const xs = corners.map((p) => p[0]);
  const ys = corners.map((p) => p[1]);
  return {
    x: Math.min(...xs),
    y: Math.min(...ys),
    width: Math.abs(xs[1]! - xs[0]!),
    height: Math.abs(ys[1]! - ys[0]!),
  };
}
