import { clip as clipOp, endPath, popGraphicsState, pushGraphicsState, rectangle, type PDFPage } from '@cantoo/pdf-lib';
import { combFirstCell, widestWord } from '../../acroform/index.js';
import type { LaidLine, TextSetter, TextStyle } from '../../text/index.js';
import type { LayoutCache } from '../output/layout-cache.js';
import type { ResolvedStyle } from '../../fields/index.js';
import type { DisplayRect } from '../../geometry/index.js';
import { colorOf } from './geometry.js';

/** Text that does not fit is drawn smaller, down to this size, rather than past its box. */
const MIN_FONT_SIZE = 4;
const SHRINK_STEP = 0.5;

/** The text setter of the output document plus the engine's layout cache. */
export interface Typesetter {
  setter: TextSetter;
  layouts: LayoutCache;
}

function layout(t: Typesetter, text: string, style: TextStyle, maxWidth?: number): LaidLine[] {
  return t.layouts.get(text, style, maxWidth, () =>
    t.setter.layout([{ text, style }], maxWidth === undefined ? {} : { maxWidth }),
  );
}

function padX(box: DisplayRect): number {
  return Math.min(2, box.width / 10);
}

function padY(box: DisplayRect): number {
  return Math.min(1, box.height / 10);
}

function textStyle(style: ResolvedStyle, fontSize = style.fontSize): TextStyle {
  return { fontFamily: style.fontFamily, fontWeight: style.fontWeight, fontSize };
}

function alignedX(box: DisplayRect, width: number, alignment: ResolvedStyle['alignment']): number {
  const p = padX(box);
  if (alignment === 'center') return box.x + (box.width - width) / 2;
  if (alignment === 'right') return box.x + box.width - p - width;
  return box.x + p;
}

function baselineFor(box: DisplayRect, ascent: number, descent: number, v: ResolvedStyle['verticalAlignment']): number {
  const p = padY(box);
  if (v === 'top') return box.y + box.height - p - ascent;
  if (v === 'bottom') return box.y + p + descent;
  return box.y + (box.height - (ascent + descent)) / 2 + descent;
}

/**
 * How many characters of a value could show in a box at the smallest size, with a wide margin
 * (glyphs a tenth of an em wide, four times over): the rest is cut off anyway, and laying out a
 * megabyte of text to find that out took seconds.
 */
function visibleChars(width: number, height: number): number {
  const perLine = Math.ceil(width / (MIN_FONT_SIZE * 0.1));
  const lines = Math.ceil(height / MIN_FONT_SIZE) + 1;
  return 4 * perLine * lines;
}

function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  // Not in the middle of a surrogate pair.
  const end = /[\ud800-\udbff]/.test(text[max - 1] ?? '') ? max - 1 : max;
  return text.slice(0, end);
}

/**
 * One line in its box: shrunk to the box's width when too long (down to
 * MIN_FONT_SIZE), placed by alignment and vertical alignment; what still
 * overflows is clipped at the box's sides, not drawn over its neighbours.
 */
export function drawSingleLine(
  page: PDFPage,
  t: Typesetter,
  box: DisplayRect,
  text: string,
  style: ResolvedStyle,
): void {
  const flat = cut(text.replace(/\r?\n/g, ' '), visibleChars(box.width, MIN_FONT_SIZE));
  if (flat.trim() === '') return;
  const maxWidth = Math.max(1, box.width - 2 * padX(box));
  let [line] = layout(t, flat, textStyle(style));
  if (!line) return;
  if (line.width > maxWidth && style.fontSize > MIN_FONT_SIZE) {
    // Widths scale with the size: one more layout at the size that fits.
    const size = Math.max(MIN_FONT_SIZE, Math.floor(((style.fontSize * maxWidth) / line.width) * 100) / 100);
    [line] = layout(t, flat, textStyle(style, size));
    if (!line) return;
  }
  const clip = line.width > maxWidth + 0.01;
  // Sides only: ascenders and descenders may pass a tight box's top and bottom, as they always did.
  if (clip)
    page.pushOperators(
      pushGraphicsState(),
      rectangle(box.x, box.y - box.height, box.width, box.height * 3),
      clipOp(),
      endPath(),
    );
  t.setter.drawLine(
    page,
    line,
    alignedX(box, line.width, style.alignment),
    baselineFor(box, line.ascent, line.descent, style.verticalAlignment),
    colorOf(style.textColor),
  );
  if (clip) page.pushOperators(popGraphicsState());
}

/**
 * Wrapped at the box's width; shrunk until the block fits its height (down to
 * MIN_FONT_SIZE). Lines that still do not fit are left out rather than drawn
 * below the box (the first line always shows).
 */
export function drawBlock(page: PDFPage, t: Typesetter, box: DisplayRect, value: string, style: ResolvedStyle): void {
  const text = cut(value, visibleChars(box.width, box.height));
  if (text.trim() === '') return;
  const maxWidth = Math.max(1, box.width - 2 * padX(box));
  const room = box.height - 2 * padY(box);
  let size = style.fontSize;
  let lines = layout(t, text, textStyle(style, size), maxWidth);
  // Shrink until the lines fit the height and no word is cut (src/acroform's rule for interactive fields too).
  const widest = widestWord(t.setter, text, textStyle(style, size), maxWidth);
  while (
    size > MIN_FONT_SIZE &&
    (totalHeight(lines) > room || (widest * size) / Math.max(style.fontSize, 0.01) > maxWidth)
  ) {
    size = Math.max(MIN_FONT_SIZE, size - SHRINK_STEP);
    lines = layout(t, text, textStyle(style, size), maxWidth);
  }
  const total = totalHeight(lines);
  const p = padY(box);
  // Still too tall at the smallest size: it starts at the top and is cut at the bottom.
  const overflows = total > room + 0.01;
  let top =
    style.verticalAlignment === 'bottom' && !overflows
      ? box.y + p + total
      : style.verticalAlignment === 'middle' && !overflows
        ? box.y + (box.height + total) / 2
        : box.y + box.height - p;
  const color = colorOf(style.textColor);
  for (const [i, line] of lines.entries()) {
    if (overflows && i > 0 && top - line.height < box.y + p - 0.01) break;
    t.setter.drawLine(page, line, alignedX(box, line.width, style.alignment), top - line.ascent, color);
    top -= line.height;
  }
}

function totalHeight(lines: Array<{ height: number }>): number {
  return lines.reduce((sum, l) => sum + l.height, 0);
}

/**
 * charList: the box split into equal cells, one character centred in each.
 * A value shorter than the cells starts in the cell Acrobat starts a comb
 * field's value in (combFirstCell, the rule interactive output uses).
 */
export function drawCells(
  page: PDFPage,
  t: Typesetter,
  box: DisplayRect,
  chars: string[],
  cells: number,
  style: ResolvedStyle,
): void {
  const cw = box.width / Math.max(1, cells);
  const first = combFirstCell(cells, chars.length, style.alignment);
  chars.forEach((ch, i) => {
    if (ch.trim() === '') return;
    drawSingleLine(page, t, { x: box.x + (first + i) * cw, y: box.y, width: cw, height: box.height }, ch, {
      ...style,
      alignment: 'center',
    });
  });
}

/**
 * textWrap: each paragraph starts in the next line box; a paragraph wider than
 * its box continues in the following boxes. Text left when the boxes run out
 * joins the last box, which then shrinks to fit.
 */
export function drawLineBoxes(
  page: PDFPage,
  t: Typesetter,
  boxes: DisplayRect[],
  paragraphs: string[],
  style: ResolvedStyle,
): void {
  const texts: string[] = [];
  // Once the boxes run out: the last box's text, in pieces joined by one space. Each piece is added as
  // `${text} ${piece}`.trim() would add it, without copying the text so far at every piece (that was
  // quadratic: one long paragraph of a megabyte, cut into thousands of lines, took 19 s).
  let rest: string[] | undefined;
  const overflow = (piece: string) => {
    rest ??= texts[boxes.length - 1] ? [texts[boxes.length - 1]!] : [];
    if (piece.trim() !== '') rest.push(rest.length === 0 ? piece.trim() : piece.trimEnd());
  };
  let next = 0;
  for (const para of paragraphs) {
    if (next >= boxes.length) {
      overflow(para);
      continue;
    }
    const width = Math.max(1, boxes[next]!.width - 2 * padX(boxes[next]!));
    const lines = layout(t, para, textStyle(style), width);
    const pieces = lines.length ? lines.map(lineText) : [''];
    for (const piece of pieces) {
      if (next < boxes.length) texts[next++] = piece;
      else overflow(piece);
    }
  }
  if (rest) texts[boxes.length - 1] = rest.join(' ');
  texts.forEach((s, i) => {
    if (s) drawSingleLine(page, t, boxes[i]!, s, style);
  });
}

function lineText(line: { runs: Array<{ text: string; order?: number }> }): string {
  return [...line.runs]
    .sort((a, b) => (a.order ?? 0) - (b.order ?? 0))
    .map((r) => r.text)
    .join('')
    .trim();
}
