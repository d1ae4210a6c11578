import {
  appendBezierCurve,
  closePath,
  fill,
  lineTo,
  moveTo,
  PDFContentStream,
  PDFName,
  PDFOperator,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  setLineWidth,
  setStrokingRgbColor,
  stroke,
  type Color,
  type PDFDict,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';
import { turnMatrix, type Rotation } from '../../pdf/index.js';

/**
 * The surface appearance streams are drawn on (a form XObject that TextSetter can draw into as if it
 * were a page) and the widget's own box under the value: /MK background and border, comb dividers,
 * the ellipse of a round radio button. Text appearances (appearance.ts) and check box / radio
 * appearances (appearance-toggle.ts) draw on it.
 */

/** Border and background of the widget itself (/MK), drawn under the text like viewers do. */
export interface WidgetBox {
  background?: [number, number, number];
  border?: [number, number, number];
  borderWidth: number;
  /** Drawn as the ellipse inside the box (a round radio button) instead of the rectangle. */
  round?: boolean;
  /** The border is only a line along the bottom (/BS /S /U). */
  underline?: boolean;
}

/** A widget's /MK /R: how far its content is turned counterclockwise on the page. */
export type WidgetRotation = Rotation;

/** Appearance streams with more operators than this are deflated. */
const DEFLATE_OPERATORS = 64;

/** `#RRGGBB` (the `#` optional) as a pdf-lib colour; black when it is not one. */
export function hexToRgb(hex: string): Color {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return rgb(0, 0, 0);
  return rgb(parseInt(m[1], 16) / 255, parseInt(m[2], 16) / 255, parseInt(m[3], 16) / 255);
}

/**
 * The part of a PDFPage that TextSetter.drawLine writes to (operators and font
 * resources, a DrawTarget), pointed at a form XObject instead of a page.
 */
export class AppearanceCanvas {
  readonly ops: PDFOperator[] = [];
  readonly fonts: PDFDict;
  readonly node: { newFontDictionary(tag: string, ref: PDFRef): PDFName };

  constructor(doc: PDFDocument) {
    const fonts = doc.context.obj({});
    this.fonts = fonts;
    const keys = new Map<string, PDFName>();
    this.node = {
      newFontDictionary(tag: string, ref: PDFRef): PDFName {
        const id = ref.toString();
        let key = keys.get(id);
        if (!key) {
          key = PDFName.of(`F${keys.size + 1}`);
          keys.set(id, key);
          fonts.set(key, ref);
        }
        void tag;
        return key;
      },
    };
  }

  pushOperators(...ops: PDFOperator[]): void {
    this.ops.push(...ops);
  }

  /**
   * The form XObject. `rotation` (the widget's /MK /R, counterclockwise) turns the
   * drawing, made in a `width` × `height` box as the text reads, onto the widget's
   * Rect: the Matrix maps the BBox back to the origin after rotating it.
   */
  register(doc: PDFDocument, width: number, height: number, rotation: WidgetRotation = 0): PDFRef {
    const resources = this.fonts.keys().length > 0 ? { Font: this.fonts } : {};
    const turned = rotation === 90 || rotation === 270;
    const matrix =
      rotation === 0
        ? undefined
        : turnMatrix(rotation, { x: 0, y: 0, width: turned ? height : width, height: turned ? width : height });
    const dict = doc.context.obj({
      BBox: [0, 0, width, height],
      Matrix: matrix ?? [1, 0, 0, 1, 0, 0],
      Resources: resources,
      Type: 'XObject',
      Subtype: 'Form',
    });
    // A field's appearance is a few dozen operators: deflating it costs more (pako sets up its
    // window and tables per stream) than the few bytes it saves. Long ones (lists, many lines) are.
    const stream = PDFContentStream.of(dict, this.ops, this.ops.length > DEFLATE_OPERATORS);
    return doc.context.register(stream);
  }
}

export function drawBox(
  canvas: AppearanceCanvas,
  width: number,
  height: number,
  box: WidgetBox | undefined,
  combCells?: number,
): number {
  if (!box) return 0;
  const ops = canvas.ops;
  if (box.round) {
    drawEllipseBox(canvas, width, height, box);
    return 0;
  }
  if (box.background) {
    ops.push(
      pushGraphicsState(),
      setFillingRgbColor(...box.background),
      rectangle(0, 0, width, height),
      fill(),
      popGraphicsState(),
    );
  }
  const bw = box.border ? box.borderWidth : 0;
  if (box.border && bw > 0 && box.underline) {
    ops.push(
      pushGraphicsState(),
      setStrokingRgbColor(...box.border),
      setLineWidth(bw),
      moveTo(0, bw / 2),
      lineTo(width, bw / 2),
      stroke(),
      popGraphicsState(),
    );
  } else if (box.border && bw > 0) {
    ops.push(pushGraphicsState(), setStrokingRgbColor(...box.border), setLineWidth(bw));
    ops.push(rectangle(bw / 2, bw / 2, width - bw, height - bw));
    if (combCells && combCells > 1) {
      const cw = width / combCells;
      for (let i = 1; i < combCells; i++) ops.push(moveTo(i * cw, height - bw / 2), lineTo(i * cw, bw / 2));
    }
    ops.push(stroke(), popGraphicsState());
  }
  return bw;
}

/** Four Béziers approximating the ellipse centred in the box with radii rx, ry. */
export function ellipsePath(cx: number, cy: number, rx: number, ry: number): PDFOperator[] {
  const kx = 0.5523 * rx;
  const ky = 0.5523 * ry;
  return [
    moveTo(cx + rx, cy),
    appendBezierCurve(cx + rx, cy + ky, cx + kx, cy + ry, cx, cy + ry),
    appendBezierCurve(cx - kx, cy + ry, cx - rx, cy + ky, cx - rx, cy),
    appendBezierCurve(cx - rx, cy - ky, cx - kx, cy - ry, cx, cy - ry),
    appendBezierCurve(cx + kx, cy - ry, cx + rx, cy - ky, cx + rx, cy),
    closePath(),
  ];
}

/** A round box (radio button): background and border as the ellipse inside the widget. Nothing inside it is inset. */
function drawEllipseBox(canvas: AppearanceCanvas, width: number, height: number, box: WidgetBox): void {
  const bw = box.border ? box.borderWidth : 0;
  const cx = width / 2;
  const cy = height / 2;
  if (box.background)
    canvas.ops.push(
      pushGraphicsState(),
      setFillingRgbColor(...box.background),
      ...ellipsePath(cx, cy, width / 2, height / 2),
      fill(),
      popGraphicsState(),
    );
  if (box.border && bw > 0) {
    canvas.ops.push(
      pushGraphicsState(),
      setStrokingRgbColor(...box.border),
      setLineWidth(bw),
      ...ellipsePath(cx, cy, Math.max(0, width / 2 - bw / 2), Math.max(0, height / 2 - bw / 2)),
      stroke(),
      popGraphicsState(),
    );
  }
}

/** The widget's own look without a value: its /MK background and border (and comb dividers). */
export function boxAppearance(
  doc: PDFDocument,
  width: number,
  height: number,
  box: WidgetBox,
  comb: number | undefined,
  rotation: WidgetRotation,
): PDFRef {
  const canvas = new AppearanceCanvas(doc);
  drawBox(canvas, width, height, box, comb);
  return canvas.register(doc, width, height, rotation);
}
