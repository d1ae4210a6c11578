/**
 * Block model → flow boxes: text is measured and wrapped here (through the
 * shared TextSetter), lists and quotes become indentation and decorations.
 */
import type { Span, TextSetter } from '../../text/index.js';
import { structElement, type StructElement } from '../../pdf/index.js';
import type { FlowBox, Line, LineBox, Marker, RunData } from './flow.js';
import type { LoadedImage } from '../images.js';
import type { Block, Inline } from '../model.js';
import { DEFAULTS, HEADING_SCALE, PX, SPACING, type BlockStyle } from '../style.js';
import { layoutTable } from './table.js';
import { textStyle, toSpans, trimEdges, wrap } from './spans.js';

export interface LayoutEnv {
  setter: TextSetter;
  images: Map<string, LoadedImage | null>;
  /** Tallest an image may be: the content height of a page. */
  maxImageHeight: number;
}

/** Where boxes go, how far in they start, and the structure element their blocks belong to. */
interface Frame {
  x: number;
  width: number;
  bars: number[];
  depth: number;
  tag: StructElement;
}

/** Collects boxes; consecutive gaps merge into the largest of them. */
export class Flow {
  readonly boxes: FlowBox[] = [];
  /** Markers of list items that have no line yet: they go on the next line or image. */
  pendingMarkers: Marker[] = [];

  gap(height: number, bars: number[]): void {
    if (height <= 0) return;
    const last = this.boxes[this.boxes.length - 1];
    if (!last) return;
    if (last.kind === 'gap') last.height = Math.max(last.height, height);
    else this.boxes.push({ kind: 'gap', height, bars });
  }

  push(box: FlowBox): void {
    if (this.pendingMarkers.length > 0 && (box.kind === 'line' || box.kind === 'image')) {
      box.markers = this.pendingMarkers;
      this.pendingMarkers = [];
    }
    this.boxes.push(box);
  }
}

function lineBox(line: Line, x: number, bars: number[], extra: Partial<LineBox> = {}): LineBox {
  const height = line.height;
  // Centre the glyph box in the line advance, as CSS line-height does.
  const ascent = (height - (line.ascent + line.descent)) / 2 + line.ascent;
  return { kind: 'line', x, line, height, padTop: 0, ascent, bars, ...extra };
}

/** An empty line of the block's size: for empty list items and blank code lines. */
function blankLine(setter: TextSetter, style: BlockStyle, size: number): Line {
  const m = setter.metrics(textStyle(style, false, false, false, size));
  return { runs: [], width: 0, ascent: m.ascent, descent: m.descent, height: size * DEFAULTS.lineHeight };
}

export function layoutBlocks(
  env: LayoutEnv,
  flow: Flow,
  blocks: Block[],
  style: BlockStyle,
  frame: Frame,
  tight = false,
): void {
  blocks.forEach((block, i) => {
    // Headings and labels bring their own (smaller) space below them.
    const after = blocks[i - 1]?.kind;
    if (i > 0 && !tight && after !== 'heading' && after !== 'label')
      flow.gap(SPACING.paragraph * style.fontSize, frame.bars);
    layoutBlock(env, flow, block, style, frame, tight);
  });
}

/** A heading's element: H1–H6 by level (a request block's `heading`, level 0, is an H1). */
const HEADINGS = ['H1', 'H1', 'H2', 'H3', 'H4', 'H5', 'H6'] as const;

function layoutBlock(env: LayoutEnv, flow: Flow, block: Block, style: BlockStyle, frame: Frame, tight: boolean): void {
  const em = style.fontSize;
  switch (block.kind) {
    case 'paragraph':
      layoutInlines(env, flow, block.inlines, style, { ...frame, tag: structElement('P', frame.tag) }, em);
      return;
    case 'heading': {
      const size = em * (HEADING_SCALE[block.level] ?? 1);
      const tag = structElement(HEADINGS[block.level] ?? 'H6', frame.tag);
      flow.gap(SPACING.headingBefore * em, frame.bars);
      const lines = wrap(env.setter, toSpans(block.inlines, style, size, true), frame.width);
      for (const line of lines) flow.push(lineBox(line, startX(line, frame), frame.bars, { keepWithNext: true, tag }));
      if (lines.length === 0)
        flow.push(lineBox(blankLine(env.setter, style, size), frame.x, frame.bars, { keepWithNext: true, tag }));
      flow.gap(SPACING.headingAfter * em, frame.bars);
      return;
    }
    case 'label': {
      const tag = structElement('P', frame.tag);
      const lines = wrap(env.setter, toSpans(block.inlines, style, em, true), frame.width);
      for (const line of lines) flow.push(lineBox(line, frame.x, frame.bars, { keepWithNext: true, tag }));
      flow.gap(SPACING.labelAfter * em, frame.bars);
      return;
    }
    case 'code':
      layoutCode(env, flow, block, style, { ...frame, tag: structElement('Code', frame.tag) });
      return;
    case 'rule':
      flow.push({ kind: 'rule', x: frame.x, width: frame.width, height: SPACING.rule * 2 * em, bars: frame.bars });
      return;
    case 'quote': {
      const indent = indentFor(frame, 0.9 * em, em);
      const bars = indent > 0 ? [...frame.bars, frame.x + 0.2 * em] : frame.bars;
      const tag = structElement('BlockQuote', frame.tag);
      const inner: Frame = { x: frame.x + indent, width: frame.width - indent, bars, depth: frame.depth, tag };
      if (block.children.length === 0) {
        flow.push(lineBox(blankLine(env.setter, style, em), inner.x, inner.bars));
        return;
      }
      layoutBlocks(env, flow, block.children, style, inner, tight);
      return;
    }
    case 'list':
      layoutList(env, flow, block, style, frame);
      return;
    case 'table': {
      const table = structElement('Table', frame.tag);
      for (const row of layoutTable(env.setter, block.table, style, frame.x, frame.width)) {
        const tag = structElement('TR', table);
        const cellTags = row.cells.map(() =>
          row.isHeader ? structElement('TH', tag, { scope: 'Column' }) : structElement('TD', tag),
        );
        flow.push({ ...row, bars: frame.bars, tag, cellTags });
      }
      return;
    }
  }
}

/** Deep nesting stops indenting once the text column would get narrower than 10 em. */
function indentFor(frame: Frame, wanted: number, em: number): number {
  return Math.max(0, Math.min(wanted, frame.width - 10 * em));
}

/** Right-to-left paragraphs are set flush right. */
function startX(line: Line, frame: Frame): number {
  return line.rtl ? frame.x + Math.max(0, frame.width - line.width) : frame.x;
}

function layoutList(
  env: LayoutEnv,
  flow: Flow,
  block: Extract<Block, { kind: 'list' }>,
  style: BlockStyle,
  frame: Frame,
): void {
  const em = style.fontSize;
  const textFor = (i: number) => `${block.start + i}.`;
  const markerStyle = textStyle(style, false, false, false);
  let indent = 1.4 * em;
  if (block.ordered) {
    const widest = Math.max(...block.items.map((_, i) => env.setter.measure(textFor(i), markerStyle)));
    indent = Math.max(1.6 * em, widest + 0.45 * em);
  }
  indent = indentFor(frame, indent, em);
  const list = structElement('L', frame.tag);
  block.items.forEach((item, i) => {
    const li = structElement('LI', list);
    const lbl = structElement('Lbl', li);
    const inner: Frame = {
      x: frame.x + indent,
      width: frame.width - indent,
      bars: frame.bars,
      depth: frame.depth + 1,
      tag: structElement('LBody', li),
    };
    if (i > 0) flow.gap((block.tight ? 0.15 : SPACING.looseItem) * em, frame.bars);
    if (block.ordered) {
      const [line] = wrap(
        env.setter,
        [{ text: textFor(i), style: markerStyle, data: { color: style.color } }],
        Infinity,
      );
      flow.pendingMarkers.push({ kind: 'text', line, x: inner.x - 0.35 * em - line.width, tag: lbl });
    } else {
      const shapes = ['disc', 'circle', 'square'] as const;
      const size = 0.34 * em;
      flow.pendingMarkers.push({
        kind: 'bullet',
        shape: shapes[frame.depth % 3],
        x: inner.x - 0.8 * em,
        size,
        color: style.color,
        tag: lbl,
      });
    }
    layoutBlocks(env, flow, item, style, inner, block.tight);
    if (flow.pendingMarkers.length > 0)
      flow.push(lineBox(blankLine(env.setter, style, em), inner.x, inner.bars, { tag: inner.tag }));
  });
}

function layoutCode(
  env: LayoutEnv,
  flow: Flow,
  block: { text: string; values?: Array<[number, number]> },
  style: BlockStyle,
  frame: Frame,
): void {
  const em = style.fontSize;
  const pad = SPACING.codePadding * em;
  const codeStyle = textStyle(style, false, false, true);
  // Cut at the literal spans' edges, so their characters are drawn as values.
  const cuts = [0, ...(block.values ?? []).flat(), block.text.length];
  const spans: Span<RunData>[] = [];
  for (let k = 0; k + 1 < cuts.length; k++) {
    const text = block.text.slice(cuts[k], cuts[k + 1]);
    if (text !== '')
      spans.push({ text, style: codeStyle, data: { color: style.color, ...(k % 2 === 1 ? { value: true } : {}) } });
  }
  let lines = wrap(env.setter, spans, frame.width - 2 * pad);
  if (lines.length === 0) lines = [blankLine(env.setter, style, em * 0.9)];
  const background = { x: frame.x, width: frame.width, color: DEFAULTS.codeBackground };
  lines.forEach((line, i) => {
    const box = lineBox(line, frame.x + pad, frame.bars, { background, tag: frame.tag });
    if (i === 0) {
      box.padTop = pad;
      box.height += pad;
    }
    if (i === lines.length - 1) box.height += pad;
    flow.push(box);
  });
}

/** A paragraph: text wrapped around block images, which sit on their own line. */
function layoutInlines(
  env: LayoutEnv,
  flow: Flow,
  inlines: Inline[],
  style: BlockStyle,
  frame: Frame,
  size: number,
): void {
  let run: Inline[] = [];
  const flush = () => {
    // Whitespace next to a block image would otherwise make a blank line.
    const trimmed = trimEdges(run);
    const lines = wrap(env.setter, toSpans(trimmed, style, size), frame.width);
    lines.forEach((line, i) => {
      // No single first line at the foot of a page (orphan), no single last line at the head of one (widow).
      const keepWithNext = lines.length > 1 && (i === 0 || i === lines.length - 2);
      flow.push(
        lineBox(line, startX(line, frame), frame.bars, { tag: frame.tag, ...(keepWithNext ? { keepWithNext } : {}) }),
      );
    });
    run = [];
  };
  for (const inline of inlines) {
    const loaded = inline.kind === 'image' ? env.images.get(inline.src) : undefined;
    if (inline.kind !== 'image' || !loaded) {
      run.push(inline);
      continue;
    }
    flush();
    let width = Math.min(loaded.widthPx * PX, frame.width);
    let height = (width * loaded.heightPx) / loaded.widthPx;
    if (height > env.maxImageHeight) {
      width *= env.maxImageHeight / height;
      height = env.maxImageHeight;
    }
    // An image without a description is decoration (an artifact), as `alt=""` is in HTML.
    const linkTag = inline.link !== undefined && inline.alt !== '' ? structElement('Link', frame.tag) : undefined;
    const tag = inline.alt !== '' ? structElement('Figure', linkTag ?? frame.tag, { alt: inline.alt }) : undefined;
    flow.push({
      kind: 'image',
      x: frame.x,
      width,
      height,
      image: loaded.image,
      link: inline.link,
      bars: frame.bars,
      ...(tag ? { tag } : {}),
      ...(linkTag ? { linkTag } : {}),
    });
  }
  flush();
}
