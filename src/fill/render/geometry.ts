import { rgb, type RGB } from '@cantoo/pdf-lib';
import type { PageFrame } from '../output/prepared-template.js';
import type { Box } from '../normalize/types.js';

/** A box in display space with a bottom-left origin: what the drawing code works in. */
export interface DrawBox {
  x: number;
  /** Bottom edge. */
  y: number;
  width: number;
  height: number;
}

/** Template boxes are measured from the top-left of the page as displayed. */
export function toDrawBox(box: Box, frame: PageFrame): DrawBox {
  return { x: box.x, y: frame.height - box.y - box.height, width: box.width, height: box.height };
}

/**
 * Matrix from display space (bottom-left origin, page as shown) to the page's
 * user space, so fields land where the builder showed them on rotated pages
 * and on pages whose box does not start at 0,0.
 */
export function displayMatrix(frame: PageFrame): [number, number, number, number, number, number] {
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

/**
 * A box whose content is turned counterclockwise by `rotation`: the upright box
 * to draw in (at the origin, width and height swapped at 90/270) and the matrix
 * that turns it onto `box`.
 */
export function turnBox(box: DrawBox, rotation: 90 | 180 | 270): { box: DrawBox; matrix: [number, number, number, number, number, number] } {
  const { x, y, width, height } = box;
  switch (rotation) {
    case 90:
      return { box: { x: 0, y: 0, width: height, height: width }, matrix: [0, 1, -1, 0, x + width, y] };
    case 180:
      return { box: { x: 0, y: 0, width, height }, matrix: [-1, 0, 0, -1, x + width, y + height] };
    case 270:
      return { box: { x: 0, y: 0, width: height, height: width }, matrix: [0, -1, 1, 0, x, y + height] };
  }
}

export function colorOf(hex: string): RGB {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}
