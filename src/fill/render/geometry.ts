import { rgb, type RGB } from '@cantoo/pdf-lib';
import { turnMatrix, type Matrix, type PageFrame } from '../../pdf/index.js';
import type { DisplayRect, TopLeftRect } from '../../geometry/index.js';

export { displayMatrix } from '../../pdf/index.js';

/** Template boxes are measured from the top-left of the page as displayed; drawing works in display space from the bottom-left. */
export function toDrawBox(box: TopLeftRect, frame: PageFrame): DisplayRect {
  return { x: box.x, y: frame.height - box.y - box.height, width: box.width, height: box.height };
}

/**
 * A box whose content is turned counterclockwise by `rotation`: the upright box
 * to draw in (at the origin, width and height swapped at 90/270) and the matrix
 * that turns it onto `box`.
 */
export function turnBox(box: DisplayRect, rotation: 90 | 180 | 270): { box: DisplayRect; matrix: Matrix } {
  const turned = rotation === 90 || rotation === 270;
  return {
    box: { x: 0, y: 0, width: turned ? box.height : box.width, height: turned ? box.width : box.height },
    matrix: turnMatrix(rotation, box),
  };
}

export function colorOf(hex: string): RGB {
  const n = Number.parseInt(hex.replace('#', ''), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}
