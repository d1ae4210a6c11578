import {
  fill,
  LineCapStyle,
  LineJoinStyle,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  setFillingRgbColor,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  stroke,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';
import type { DrawTarget } from '../../text/index.js';
import { AppearanceCanvas, drawBox, ellipsePath, hexToRgb, type WidgetBox, type WidgetRotation } from './canvas.js';

/** Check box and radio button appearances: the on and off states, drawn without a font. */

export interface ToggleAppearances {
  on: PDFRef;
  off: PDFRef;
}

/**
 * Draws the checked state's mark into an appearance: `target` stands for a page
 * whose user space is the widget's box, (0, 0) at its bottom-left.
 */
export type CheckMarkPainter = (target: DrawTarget, width: number, height: number) => void;

/** How a check box or radio button is drawn besides its size and colour. */
export interface ToggleOptions {
  box?: WidgetBox;
  /** Check box: the on state's mark (default a drawn check mark). */
  mark?: CheckMarkPainter;
  /** The widget's /MK /R; `width`/`height` are then the box as its content reads. */
  rotation?: WidgetRotation;
}

/**
 * Check box: the box border and background when the widget has them, and in
 * the on state the caller's mark, else a drawn check mark (no font needed).
 */
export function checkboxAppearances(
  doc: PDFDocument,
  width: number,
  height: number,
  color: string,
  { box, mark, rotation }: ToggleOptions = {},
): ToggleAppearances {
  const off = new AppearanceCanvas(doc);
  drawBox(off, width, height, box);
  const on = new AppearanceCanvas(doc);
  drawBox(on, width, height, box);
  if (mark) {
    mark(on, width, height);
    return { on: on.register(doc, width, height, rotation), off: off.register(doc, width, height, rotation) };
  }
  const s = Math.min(width, height);
  const ox = (width - s) / 2;
  const oy = (height - s) / 2;
  const c = hexToRgb(color) as { red: number; green: number; blue: number };
  on.ops.push(
    pushGraphicsState(),
    setStrokingRgbColor(c.red, c.green, c.blue),
    setLineWidth(Math.max(0.8, s * 0.12)),
    setLineCap(LineCapStyle.Round),
    setLineJoin(LineJoinStyle.Round),
    moveTo(ox + s * 0.22, oy + s * 0.52),
    lineTo(ox + s * 0.42, oy + s * 0.28),
    lineTo(ox + s * 0.78, oy + s * 0.74),
    stroke(),
    popGraphicsState(),
  );
  return { on: on.register(doc, width, height, rotation), off: off.register(doc, width, height, rotation) };
}

/** Radio button: a filled dot centred in the widget. */
export function radioAppearances(
  doc: PDFDocument,
  width: number,
  height: number,
  color: string,
  { box, rotation }: ToggleOptions = {},
): ToggleAppearances {
  const off = new AppearanceCanvas(doc);
  drawBox(off, width, height, box);
  const on = new AppearanceCanvas(doc);
  drawBox(on, width, height, box);
  const r = Math.min(width, height) * 0.25;
  const c = hexToRgb(color) as { red: number; green: number; blue: number };
  on.ops.push(
    pushGraphicsState(),
    setFillingRgbColor(c.red, c.green, c.blue),
    ...ellipsePath(width / 2, height / 2, r, r),
    fill(),
    popGraphicsState(),
  );
  return { on: on.register(doc, width, height, rotation), off: off.register(doc, width, height, rotation) };
}
