import { concatTransformationMatrix, popGraphicsState, pushGraphicsState, type PDFPage } from '@cantoo/pdf-lib';
import type { DrawTarget } from '../../text/index.js';
import type { Typesetter } from './text.js';
import type { ResolvedStyle } from '../../fields/index.js';
import type { DisplayRect } from '../../geometry/index.js';
import { colorOf } from './geometry.js';

/** Font size of the mark as a share of its box's height: a capital then fills about two thirds of it. */
const MARK_SIZE = 0.9;
/** Cap height of a Latin capital as a share of the font size (used to centre the mark). */
const CAP_HEIGHT = 0.7;

/**
 * A checked checkbox: the character centred in its box. Square: drawn in the
 * largest square centred in the box. Otherwise the mark is stretched to the
 * box's proportions, as if the square mark were scaled to fill it.
 */
export function drawMark(
  page: DrawTarget,
  t: Typesetter,
  box: DisplayRect,
  char: string,
  square: boolean,
  style: ResolvedStyle,
): void {
  const side = Math.min(box.width, box.height);
  const target = square
    ? { x: box.x + (box.width - side) / 2, y: box.y + (box.height - side) / 2, width: side, height: side }
    : box;
  const height = square ? side : box.height;
  let size = height * MARK_SIZE;
  const ts = { fontFamily: style.fontFamily, fontWeight: style.fontWeight, fontSize: size };
  let [line] = t.layouts.get(char, ts, undefined, () => t.setter.layout([{ text: char, style: ts }]));
  if (!line) return;
  // Wide characters shrink to fit their (square) box.
  if (line.width > height * MARK_SIZE) {
    size *= (height * MARK_SIZE) / line.width;
    const smaller = { ...ts, fontSize: size };
    [line] = t.layouts.get(char, smaller, undefined, () => t.setter.layout([{ text: char, style: smaller }]));
    if (!line) return;
  }
  const kx = square ? 1 : box.width / box.height;
  const cx = target.x + target.width / 2;
  const baseline = target.y + target.height / 2 - (CAP_HEIGHT * size) / 2;
  page.pushOperators(pushGraphicsState(), concatTransformationMatrix(kx, 0, 0, 1, cx * (1 - kx), 0));
  t.setter.drawLine(page, line, cx - line.width / 2, baseline, colorOf(style.textColor));
  page.pushOperators(popGraphicsState());
}

/** The chosen option of a radio group: a filled dot centred in the option's box. */
export function drawDot(page: PDFPage, box: DisplayRect, style: ResolvedStyle): void {
  const r = Math.min(box.width, box.height) * 0.3;
  page.drawCircle({ x: box.x + box.width / 2, y: box.y + box.height / 2, size: r, color: colorOf(style.textColor) });
}
