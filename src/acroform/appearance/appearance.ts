import {
  clip,
  endPath,
  fill,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  rectangle,
  setFillingRgbColor,
  type Color,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';
import type { FontWeight } from '../../fonts/index.js';
import { PDF } from '../../pdf/index.js';
import { once } from '../../schema/index.js';
import type { LaidLine, TextSetter, TextStyle } from '../../text/index.js';
import { breakOpportunities } from '../../text/index.js';
import { AppearanceCanvas, drawBox, hexToRgb, type WidgetBox, type WidgetRotation } from './canvas.js';

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

const AUTO_MAX = 12;
const AUTO_MIN = 4;

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
function layoutOf(
  text: TextSetter,
  input: TextAppearanceInput,
  value: string,
  style: TextStyle,
  maxWidth?: number,
): LaidLine[] {
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
function drawList(
  canvas: AppearanceCanvas,
  text: TextSetter,
  input: TextAppearanceInput,
  list: ListBoxOptions,
  color: Color,
  inset: number,
): void {
  const { width, height, style } = input;
  const size = style.fontSize > 0 ? style.fontSize : AUTO_MAX;
  const ts = textStyle(style, size);
  // Rows as tight as viewers draw them (Noto's ascent + descent would be 1.36 em); capitals centred in each.
  const row = size * LIST_ROW;
  const pad = 2 * inset;
  let top = height - inset;
  for (let i = Math.max(0, list.topIndex); i < list.options.length && top > inset; i++) {
    if (list.selected.has(i)) {
      canvas.ops.push(
        pushGraphicsState(),
        setFillingRgbColor(...LIST_HIGHLIGHT),
        rectangle(inset, top - row, width - 2 * inset, row),
        fill(),
        popGraphicsState(),
      );
    }
    const [line] = text.layout([{ text: list.options[i]!.replace(/\r\n|\r|\n/g, ' '), style: ts }]);
    if (line)
      text.drawLine(
        canvas,
        line,
        alignX(style.alignment, pad, width - 2 * pad, line.width),
        top - row + (row - size * CAP_HEIGHT) / 2,
        color,
      );
    top -= row;
  }
}

function drawSingleLine(
  canvas: AppearanceCanvas,
  text: TextSetter,
  input: TextAppearanceInput,
  color: Color,
  pad: number,
): void {
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
  text.drawLine(canvas, line, x, baseline, color);
}

function drawMultiline(
  canvas: AppearanceCanvas,
  text: TextSetter,
  input: TextAppearanceInput,
  color: Color,
  pad: number,
): void {
  const { width, height, style } = input;
  const innerW = Math.max(1, width - 2 * pad);
  const innerH = Math.max(1, height - 2 * pad);
  const layoutAt = (size: number): LaidLine[] => layoutOf(text, input, input.value, textStyle(style, size), innerW);
  let size = style.fontSize > 0 ? style.fontSize : AUTO_MAX;
  let lines = layoutAt(size);
  // Shrink (from the /DA size too, as flat output does) until every line fits the box and no word is cut.
  const widest = widestWord(text, input.value, textStyle(style, size), innerW);
  while (
    size > AUTO_MIN &&
    (lines.reduce((h, l) => h + l.height, 0) > innerH ||
      (widest * size) / (style.fontSize > 0 ? style.fontSize : AUTO_MAX) > innerW)
  ) {
    size = Math.max(AUTO_MIN, size - 0.5);
    lines = layoutAt(size);
  }
  let baseline = height - pad - (lines[0]?.ascent ?? 0);
  for (const line of lines) {
    if (baseline < -line.height) break;
    text.drawLine(canvas, line, alignX(style.alignment, pad, innerW, line.width), baseline, color);
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
function drawComb(
  canvas: AppearanceCanvas,
  text: TextSetter,
  input: TextAppearanceInput,
  color: Color,
  bw: number,
): void {
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
    text.drawLine(canvas, line, x, baseline, color);
  });
}

function alignX(alignment: Alignment, pad: number, innerW: number, lineW: number): number {
  if (alignment === 'center') return pad + (innerW - lineW) / 2;
  if (alignment === 'right') return pad + innerW - lineW;
  return pad;
}

// Built on the first comb field, not at import: building it costs ~25-50 ms of ICU data per
// process, which every `castpress fill` and crash-test child would pay at start.
const segmenter = once(() => new Intl.Segmenter(undefined, { granularity: 'grapheme' }));
export function graphemes(s: string): string[] {
  // Printable ASCII has no extending marks, joiners or CR LF pairs: each character is its own
  // grapheme, so the usual comb value (digits, letters) never builds the segmenter.
  if (/^[\x20-\x7e]*$/.test(s)) return s.split('');
  return Array.from(segmenter().segment(s), (g) => g.segment);
}
