import {
  clip,
  closePath,
  endPath,
  fill,
  lineTo,
  moveTo,
  PDFDict,
  PDFName,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  rgb,
  setFillingRgbColor,
  setLineWidth,
  setStrokingRgbColor,
  stroke,
  appendBezierCurve,
  LineCapStyle,
  LineJoinStyle,
  setLineCap,
  setLineJoin,
  PDFContentStream,
  type Color,
  type PDFDocument,
  type PDFPage,
  type PDFRef,
} from '@cantoo/pdf-lib';
import type { FontWeight } from '../fonts/index.js';
import { turnMatrix, type Rotation, PDF } from '../pdf/index.js';
import type { LaidLine, TextSetter, TextStyle } from '../text/index.js';
import { breakOpportunities } from '../text/index.js';

/**
 * Appearance streams drawn with the text layer's embedded (subset) fonts, so
 * any script the font registry covers shows, and no WinAnsi encoding is ever
 * attempted. pdf-lib's own generator only knows the /DA font.
 */

export type Alignment = 'left' | 'center' | 'right';
export type VerticalAlignment = 'top' | 'middle' | 'bottom';

export interface FieldTextStyle {
  fontFamily: string;
  fontWeight: FontWeight;
  /** 0 = auto: as large as fits, at most 12 pt (the usual viewer behaviour). */
  fontSize: number;
  /** `#RRGGBB`. */
  textColor: string;
  alignment: Alignment;
  /** Single-line fields; default middle. Multi-line text always starts at the top. */
  verticalAlignment?: VerticalAlignment;
}

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

const AUTO_MAX = 12;
/** Appearance streams with more operators than this are deflated. */
const DEFLATE_OPERATORS = 64;
const AUTO_MIN = 4;

export function hexToRgb(hex: string): Color {
  const m = /^#?([0-9a-f]{2})([0-9a-f]{2})([0-9a-f]{2})$/i.exec(hex);
  if (!m) return rgb(0, 0, 0);
  return rgb(parseInt(m[1], 16) / 255, parseInt(m[2], 16) / 255, parseInt(m[3], 16) / 255);
}

/**
 * The part of a PDFPage that TextSetter.drawLine writes to (operators and font
 * resources), pointed at a form XObject instead of a page.
 */
class AppearanceCanvas {
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

  asPage(): PDFPage {
    return this as unknown as PDFPage;
  }

  /**
   * The form XObject. `rotation` (the widget's /MK /R, counterclockwise) turns the
   * drawing, made in a `width` × `height` box as the text reads, onto the widget's
   * Rect: the Matrix maps the BBox back to the origin after rotating it.
   */
  register(doc: PDFDocument, width: number, height: number, rotation: WidgetRotation = 0): PDFRef {
    const resources = this.fonts.keys().length > 0 ? { Font: this.fonts } : {};
    const turned = rotation === 90 || rotation === 270;
    const matrix = rotation === 0 ? undefined : turnMatrix(rotation, { x: 0, y: 0, width: turned ? height : width, height: turned ? width : height });
    const dict = doc.context.obj({ BBox: [0, 0, width, height], Matrix: matrix ?? [1, 0, 0, 1, 0, 0], Resources: resources, Type: 'XObject', Subtype: 'Form' });
    // A field's appearance is a few dozen operators: deflating it costs more (pako sets up its
    // window and tables per stream) than the few bytes it saves. Long ones (lists, many lines) are.
    const stream = PDFContentStream.of(dict, this.ops, this.ops.length > DEFLATE_OPERATORS);
    return doc.context.register(stream);
  }
}

function drawBox(canvas: AppearanceCanvas, width: number, height: number, box: WidgetBox | undefined, combCells?: number): number {
  if (!box) return 0;
  const ops = canvas.ops;
  if (box.round) {
    drawEllipseBox(canvas, width, height, box);
    return 0;
  }
  if (box.background) {
    ops.push(pushGraphicsState(), setFillingRgbColor(...box.background), rectangle(0, 0, width, height), fill(), popGraphicsState());
  }
  const bw = box.border ? box.borderWidth : 0;
  if (box.border && bw > 0 && box.underline) {
    ops.push(pushGraphicsState(), setStrokingRgbColor(...box.border), setLineWidth(bw), moveTo(0, bw / 2), lineTo(width, bw / 2), stroke(), popGraphicsState());
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
function ellipsePath(cx: number, cy: number, rx: number, ry: number): PDFOperator[] {
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
  if (box.background) canvas.ops.push(pushGraphicsState(), setFillingRgbColor(...box.background), ...ellipsePath(cx, cy, width / 2, height / 2), fill(), popGraphicsState());
  if (box.border && bw > 0) {
    canvas.ops.push(pushGraphicsState(), setStrokingRgbColor(...box.border), setLineWidth(bw), ...ellipsePath(cx, cy, Math.max(0, width / 2 - bw / 2), Math.max(0, height / 2 - bw / 2)), stroke(), popGraphicsState());
  }
}

function beginTextField(canvas: AppearanceCanvas, width: number, height: number, inset: number): void {
  canvas.ops.push(
    PDFOperator.of(PDFOperatorNames.BeginMarkedContent, [PDF.Tx]),
    pushGraphicsState(),
    rectangle(inset, inset, Math.max(0, width - 2 * inset), Math.max(0, height - 2 * inset)),
    clip(),
    endPath(),
  );
}

function endTextField(canvas: AppearanceCanvas): void {
  canvas.ops.push(popGraphicsState(), PDFOperator.of(PDFOperatorNames.EndMarkedContent));
}

function textStyle(style: FieldTextStyle, size: number): TextStyle {
  return { fontFamily: style.fontFamily, fontWeight: style.fontWeight, fontSize: size };
}

/** Baseline that centres the font's ascent+descent box in a band of the given height. */
function centredBaseline(text: TextSetter, style: TextStyle, bottom: number, bandHeight: number): number {
  const m = text.metrics(style);
  return bottom + (bandHeight - (m.ascent + m.descent)) / 2 + m.descent;
}

function autoSizeForHeight(text: TextSetter, style: FieldTextStyle, innerHeight: number): number {
  const unit = text.metrics(textStyle(style, 1));
  const fit = innerHeight / (unit.ascent + unit.descent);
  return Math.max(AUTO_MIN, Math.min(AUTO_MAX, Math.floor(fit * 10) / 10));
}

/** A widget's /MK /R: how far its content is turned counterclockwise on the page. */
export type WidgetRotation = Rotation;

export interface TextAppearanceInput {
  /** The box as the text reads: for a widget turned 90° or 270°, the Rect's height and width swapped. */
  width: number;
  height: number;
  rotation?: WidgetRotation;
  value: string;
  style: FieldTextStyle;
  multiline?: boolean;
  /** Comb field: the number of cells (MaxLen). */
  comb?: number;
  /** List box: every option's text, which are selected, and the first one shown (/TI). */
  list?: ListBoxOptions;
  box?: WidgetBox;
  /** Laid-out lines kept across documents (the fill engine's cache): appearances then cost what flat text costs. */
  layouts?: LayoutMemo;
}

/** A cache of laid-out lines by text, style and width (lines do not depend on the document). */
export interface LayoutMemo {
  get(text: string, style: TextStyle, maxWidth: number | undefined, compute: () => LaidLine[]): LaidLine[];
}

/** `text.layout` of one span, through the caller's cache when there is one. */
function layoutOf(text: TextSetter, input: TextAppearanceInput, value: string, style: TextStyle, maxWidth?: number): LaidLine[] {
  const compute = () => text.layout([{ text: value, style }], maxWidth === undefined ? {} : { maxWidth });
  return input.layouts ? input.layouts.get(value, style, maxWidth, compute) : compute();
}

export interface ListBoxOptions {
  options: string[];
  selected: ReadonlySet<number>;
  topIndex: number;
}

/** Selected rows of a list box, in the highlight colour viewers use for them. */
const LIST_HIGHLIGHT: [number, number, number] = [153 / 255, 193 / 255, 218 / 255];
const LIST_ROW = 1.15;
/** Cap height as a share of the font size (Latin faces: ~0.7). */
const CAP_HEIGHT = 0.7;

/** The widget's own look without a value: its /MK background and border (and comb dividers). */
export function boxAppearance(doc: PDFDocument, width: number, height: number, box: WidgetBox, comb: number | undefined, rotation: WidgetRotation): PDFRef {
  const canvas = new AppearanceCanvas(doc);
  drawBox(canvas, width, height, box, comb);
  return canvas.register(doc, width, height, rotation);
}

/** A text field's normal appearance (single line, multi-line or comb). */
export function textAppearance(doc: PDFDocument, text: TextSetter, input: TextAppearanceInput): PDFRef {
  const { width, height, style } = input;
  const canvas = new AppearanceCanvas(doc);
  const bw = drawBox(canvas, width, height, input.box, input.comb);
  const value = input.value;
  const color = hexToRgb(style.textColor);
  if (input.list) {
    beginTextField(canvas, width, height, Math.max(bw, 1));
    drawList(canvas, text, input, input.list, color, Math.max(bw, 1));
    endTextField(canvas);
  } else if (value !== '') {
    const pad = 2 * Math.max(bw, 1);
    beginTextField(canvas, width, height, Math.max(bw, 1));
    if (input.comb && input.comb > 0) drawComb(canvas, text, input, color, bw);
    else if (input.multiline) drawMultiline(canvas, text, input, color, pad);
    else drawSingleLine(canvas, text, input, color, pad);
    endTextField(canvas);
  }
  return canvas.register(doc, width, height, input.rotation);
}

/**
 * List box: one row per option from the top index down, selected rows on a
 * highlight band, as viewers draw them; auto size (0) is 12 pt.
 */
function drawList(canvas: AppearanceCanvas, text: TextSetter, input: TextAppearanceInput, list: ListBoxOptions, color: Color, inset: number): void {
  const { width, height, style } = input;
  const size = style.fontSize > 0 ? style.fontSize : AUTO_MAX;
  const ts = textStyle(style, size);
  // Rows as tight as viewers draw them (Noto's ascent + descent would be 1.36 em); capitals centred in each.
  const row = size * LIST_ROW;
  const pad = 2 * inset;
  let top = height - inset;
  for (let i = Math.max(0, list.topIndex); i < list.options.length && top > inset; i++) {
    if (list.selected.has(i)) {
      canvas.ops.push(pushGraphicsState(), setFillingRgbColor(...LIST_HIGHLIGHT), rectangle(inset, top - row, width - 2 * inset, row), fill(), popGraphicsState());
    }
    const [line] = text.layout([{ text: list.options[i]!.replace(/\r\n|\r|\n/g, ' '), style: ts }]);
    if (line) text.drawLine(canvas.asPage(), line, alignX(style.alignment, pad, width - 2 * pad, line.width), top - row + (row - size * CAP_HEIGHT) / 2, color);
    top -= row;
  }
}

function drawSingleLine(canvas: AppearanceCanvas, text: TextSetter, input: TextAppearanceInput, color: Color, pad: number): void {
  const { width, height, style } = input;
  const oneLine = input.value.replace(/\r\n|\r|\n/g, ' ');
  const innerW = Math.max(1, width - 2 * pad);
  let size = style.fontSize > 0 ? style.fontSize : autoSizeForHeight(text, style, height - 2);
  // Text wider than the box shrinks rather than being cut off: the output is also what gets flattened.
  size = text.fitFontSize(oneLine, textStyle(style, size), innerW, Math.min(size, AUTO_MIN));
  const ts = textStyle(style, size);
  const [line] = layoutOf(text, input, oneLine, ts);
  if (!line) return;
  const x = alignX(style.alignment, pad, innerW, line.width);
  const m = text.metrics(ts);
  const v = style.verticalAlignment ?? 'middle';
  const baseline =
    v === 'top' ? height - pad - m.ascent : v === 'bottom' ? pad + m.descent : centredBaseline(text, ts, 0, height);
  text.drawLine(canvas.asPage(), line, x, baseline, color);
}

function drawMultiline(canvas: AppearanceCanvas, text: TextSetter, input: TextAppearanceInput, color: Color, pad: number): void {
  const { width, height, style } = input;
  const innerW = Math.max(1, width - 2 * pad);
  const innerH = Math.max(1, height - 2 * pad);
  const layoutAt = (size: number): LaidLine[] => layoutOf(text, input, input.value, textStyle(style, size), innerW);
  let size = style.fontSize > 0 ? style.fontSize : AUTO_MAX;
  let lines = layoutAt(size);
  // Shrink (from the /DA size too, as flat output does) until every line fits the box and no word is cut.
  const widest = widestWord(text, input.value, textStyle(style, size), innerW);
  while (size > AUTO_MIN && (lines.reduce((h, l) => h + l.height, 0) > innerH || (widest * size) / (style.fontSize > 0 ? style.fontSize : AUTO_MAX) > innerW)) {
    size = Math.max(AUTO_MIN, size - 0.5);
    lines = layoutAt(size);
  }
  let baseline = height - pad - (lines[0]?.ascent ?? 0);
  for (const line of lines) {
    if (baseline < -line.height) break;
    text.drawLine(canvas.asPage(), line, alignX(style.alignment, pad, innerW, line.width), baseline, color);
    baseline -= line.height;
  }
}

/**
 * The width of the widest piece of `value` no line may break inside (between
 * UAX #14 break opportunities, trailing spaces left out), at `style`. Text
 * widths scale with the font size, so callers shrinking a block measure once.
 * Multi-line text shrinks until this fits (flat and interactive alike) and is
 * cut inside a word only at the smallest size. With `fits`, 0 when no word
 * can be wider than that (no glyph is wider than 1.5 em): nothing is measured.
 */
export function widestWord(text: TextSetter, value: string, style: TextStyle, fits?: number): number {
  if (fits !== undefined && longestRun(value) * 1.5 * style.fontSize <= fits) return 0;
  let widest = 0;
  for (const para of value.split(/\r\n|\r|\n/)) {
    const stops = [0, ...breakOpportunities(para), para.length];
    for (let i = 1; i < stops.length; i++) {
      const word = para.slice(stops[i - 1], stops[i]).trimEnd();
      if (word !== '') widest = Math.max(widest, text.measure(word, style));
    }
  }
  return widest;
}

/** Code units in the longest run without a space (an upper bound of any unbreakable piece's length). */
function longestRun(value: string): number {
  let longest = 0;
  let run = 0;
  for (let i = 0; i < value.length; i++) {
    const c = value.charCodeAt(i);
    if (c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09) run = 0;
    else if (++run > longest) longest = run;
  }
  return longest;
}

/**
 * The cell a comb value of `count` characters starts in: `center` after
 * floor(free / 2) free cells, `right` after all of them (Acrobat's rule, the
 * PDFBOX-5784 "-acrobat" twins). Flat output (fill/render) uses it too, so a
 * value sits in the same cells flat and interactive.
 */
export function combFirstCell(cells: number, count: number, alignment: string): number {
  const free = Math.max(0, cells - count);
  return alignment === 'right' ? free : alignment === 'center' ? Math.floor(free / 2) : 0;
}

/**
 * One character per cell, each centred in its cell; the alignment shifts the
 * whole value by whole cells (centre: floor of half the free cells), as
 * Acrobat does (checked against the PDFBOX-5784 "-acrobat" appearances).
 */
function drawComb(canvas: AppearanceCanvas, text: TextSetter, input: TextAppearanceInput, color: Color, bw: number): void {
  const { width, height, style } = input;
  const cells = input.comb ?? 1;
  const cw = width / cells;
  const chars = graphemes(input.value.replace(/\r\n|\r|\n/g, ' ')).slice(0, cells);
  let size = style.fontSize > 0 ? style.fontSize : autoSizeForHeight(text, style, height - 2 * Math.max(bw, 1));
  if (style.fontSize <= 0) {
    const widest = Math.max(0, ...chars.map((c) => text.measure(c, textStyle(style, size))));
    if (widest > cw * 0.9 && widest > 0) size = Math.max(AUTO_MIN, (size * cw * 0.9) / widest);
  }
  const ts = textStyle(style, size);
  const first = combFirstCell(cells, chars.length, style.alignment);
  const baseline = centredBaseline(text, ts, 0, height);
  chars.forEach((ch, i) => {
    const [line] = layoutOf(text, input, ch, ts);
    if (!line) return;
    const x = (first + i) * cw + (cw - line.width) / 2;
    text.drawLine(canvas.asPage(), line, x, baseline, color);
  });
}

function alignX(alignment: Alignment, pad: number, innerW: number, lineW: number): number {
  if (alignment === 'center') return pad + (innerW - lineW) / 2;
  if (alignment === 'right') return pad + innerW - lineW;
  return pad;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });
export function graphemes(s: string): string[] {
  return Array.from(segmenter.segment(s), (g) => g.segment);
}

export interface ToggleAppearances {
  on: PDFRef;
  off: PDFRef;
}

/**
 * Draws the checked state's mark into an appearance: `target` stands for a page
 * whose user space is the widget's box, (0, 0) at its bottom-left.
 */
export type CheckMarkPainter = (target: PDFPage, width: number, height: number) => void;

/**
 * Check box: the box border and background when the widget has them, and in
 * the on state the caller's mark, else a drawn check mark (no font needed).
 */
/** How a check box or radio button is drawn besides its size and colour. */
export interface ToggleOptions {
  box?: WidgetBox;
  /** Check box: the on state's mark (default a drawn check mark). */
  mark?: CheckMarkPainter;
  /** The widget's /MK /R; `width`/`height` are then the box as its content reads. */
  rotation?: WidgetRotation;
}

export function checkboxAppearances(doc: PDFDocument, width: number, height: number, color: string, { box, mark, rotation }: ToggleOptions = {}): ToggleAppearances {
  const off = new AppearanceCanvas(doc);
  drawBox(off, width, height, box);
  const on = new AppearanceCanvas(doc);
  drawBox(on, width, height, box);
  if (mark) {
    mark(on.asPage(), width, height);
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
export function radioAppearances(doc: PDFDocument, width: number, height: number, color: string, { box, rotation }: ToggleOptions = {}): ToggleAppearances {
  const off = new AppearanceCanvas(doc);
  drawBox(off, width, height, box);
  const on = new AppearanceCanvas(doc);
  drawBox(on, width, height, box);
  const r = Math.min(width, height) * 0.25;
  const c = hexToRgb(color) as { red: number; green: number; blue: number };
  on.ops.push(pushGraphicsState(), setFillingRgbColor(c.red, c.green, c.blue), ...ellipsePath(width / 2, height / 2, r, r), fill(), popGraphicsState());
  return { on: on.register(doc, width, height, rotation), off: off.register(doc, width, height, rotation) };
}

