/**
 * Inline text → spans, and spans → wrapped lines: shared by block layout (layout.ts) and
 * table cells (table.ts), in a file of their own so neither of those imports the other.
 */
import type { Span, TextSetter, TextStyle } from '../../text/index.js';
import type { Line, RunData } from './flow.js';
import type { Inline } from '../model.js';
import { DEFAULTS, weightOf, type BlockStyle } from '../style.js';

export function textStyle(
  style: BlockStyle,
  bold: boolean,
  italic: boolean,
  code: boolean,
  size = style.fontSize,
): TextStyle {
  return {
    fontFamily: code ? style.codeFamily : style.fontFamily,
    fontWeight: weightOf(bold, italic),
    fontSize: code ? size * 0.9 : size,
  };
}

/** Text inlines → spans; `bold` forces bold (headings, labels, table headers). */
export function toSpans(inlines: Inline[], style: BlockStyle, size: number, bold = false): Span<RunData>[] {
  const spans: Span<RunData>[] = [];
  for (const inline of inlines) {
    const text = inline.kind === 'text' ? inline.text : inline.alt;
    if (text === '') continue;
    const marks =
      inline.kind === 'text'
        ? inline.marks
        : { bold: false, italic: false, strike: false, code: false, link: inline.link };
    const data: RunData = { color: marks.link !== undefined ? DEFAULTS.linkColor : style.color };
    if (marks.link !== undefined) data.link = marks.link;
    if (marks.strike) data.strike = true;
    if (marks.code) data.code = true;
    if (inline.kind === 'text' ? inline.marks.value : inline.altValue) data.value = true;
    spans.push({ text, style: textStyle(style, bold || marks.bold, marks.italic, marks.code, size), data });
  }
  return spans;
}

export function wrap(setter: TextSetter, spans: Span<RunData>[], maxWidth: number): Line[] {
  if (spans.length === 0) return [];
  return setter.layout(spans, { maxWidth: Math.max(1, maxWidth), lineHeight: DEFAULTS.lineHeight });
}

/** `inlines` without the blanks at their start and end. */
export function trimEdges(inlines: Inline[]): Inline[] {
  const out = inlines.map((i) => ({ ...i }));
  const first = out[0];
  if (first?.kind === 'text') first.text = first.text.replace(/^[ \t]+/, '');
  const last = out[out.length - 1];
  if (last?.kind === 'text') last.text = last.text.slice(0, blankTailStart(last.text));
  return out;
}

/**
 * Where the trailing spaces and tabs of `text` start. A scan from the end: `/[ \t]+$/` retried
 * from every blank of a run that ends before a letter, quadratic in a caller's long run of spaces.
 */
function blankTailStart(text: string): number {
  let end = text.length;
  while (end > 0 && (text[end - 1] === ' ' || text[end - 1] === '\t')) end--;
  return end;
}
