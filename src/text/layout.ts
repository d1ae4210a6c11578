import { ValidationError } from '../errors/index.js';
import { FONT_WEIGHTS, type FontRegistry, type ResolvedFace } from '../fonts/index.js';
import { BidiResolver, visualOrder } from './bidi.js';
import { breakOpportunities, clusters, trimEnd } from './breaking.js';
import { FallbackChain } from './fallback.js';
import { Shaper } from './shaping.js';
import type { FontMetrics, LaidLine, LayoutOptions, PlacedRun, Span, TextStyle } from './types.js';
import { cjkLanguages, isClusterContinuation, type CjkLanguage } from './unicode.js';

export interface TextLayoutOptions {
  /** Han characters with no kana or hangul next to them are drawn with this Noto Sans CJK face. Default `sc`. */
  cjkLanguage?: CjkLanguage;
  /** Shaping results do not depend on the document: one Shaper per engine shares its cache. */
  shaper?: Shaper;
}

/** A stretch of one paragraph in one span, one face and one bidi level. */
interface Segment {
  start: number;
  end: number;
  span: number;
  face: ResolvedFace;
  level: number;
}

const EPSILON = 1e-6;
/** Words longer than this (UTF-16 units) are measured a slice at a time (#widthUpTo). */
const LONG_WORD = 4096;

function isLowSurrogate(unit: number): boolean {
  return unit >= 0xdc00 && unit <= 0xdfff;
}
/** C0/C1 controls other than line feed and carriage return; a tab counts as a space. */
const CONTROL = /[\u0000-\u0009\u000b\u000c\u000e-\u001f\u007f-\u009f]/;
const CONTROLS = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]/g;

function cleanControls(text: string): string {
  return text.replace(/\t/g, ' ').replace(CONTROLS, '');
}

/**
 * Combining marks kept in a row after a base: 30, Unicode's stream-safe limit for non-starters
 * (UAX #15), far above any orthography. fontkit looks back over every earlier mark to find a mark's
 * base, so a run of k marks costs k²: 40,000 accents on one letter took 8 s of synchronous shaping.
 */
const LONG_MARK_RUN = /\p{M}{31}/u;
const MARKS_PAST_LIMIT = /(\p{M}{30})\p{M}+/gu;

/** Text as it is measured and drawn: controls cleaned, mark runs cut at the limit (segments never cross spans, so per span suffices). */
function clean(text: string): string {
  if (CONTROL.test(text)) text = cleanControls(text);
  if (LONG_MARK_RUN.test(text)) text = text.replace(MARKS_PAST_LIMIT, '$1');
  return text;
}

/**
 * Measures and lays out text: fonts chosen per character (fallback), shaping, bidi and line
 * breaking. It needs no PDF document (laid lines name their faces by registry id), so one
 * layout serves every document an engine writes; a TextSetter draws its lines into one document.
 */
export class TextLayout {
  readonly #registry: FontRegistry;
  readonly #cjkDefault: CjkLanguage;
  readonly #shaper: Shaper;
  // Shared with this layout's document views (forDocument), hence not readonly.
  #bidi = new BidiResolver();
  #chains = new Map<string, FallbackChain>();

  constructor(registry: FontRegistry, options: TextLayoutOptions = {}) {
    this.#registry = registry;
    this.#cjkDefault = options.cjkLanguage ?? 'sc';
    this.#shaper = options.shaper ?? new Shaper();
  }

  /**
   * This layout for one document: the same fonts, fallback chains and bidi, with the document's
   * own shaper (`Shaper.forDocument`), so the runs only that document uses go with it.
   */
  forDocument(): TextLayout {
    const view = new TextLayout(this.#registry, { cjkLanguage: this.#cjkDefault, shaper: this.#shaper.forDocument() });
    view.#bidi = this.#bidi;
    view.#chains = this.#chains;
    return view;
  }

  /** The shaper the layout measured with: drawing shapes runs with the same one (and hits its cache). */
  get shaper(): Shaper {
    return this.#shaper;
  }

  /** The registry whose faces laid runs name. */
  get registry(): FontRegistry {
    return this.#registry;
  }

  /** A character drawn mirrored in right-to-left text (brackets). */
  isMirrored(codePoint: number): boolean {
    return this.#bidi.isMirrored(codePoint);
  }

  /**
   * Width in points, fallback included, trailing spaces included (so pieces
   * measured one by one add up); the widest line when the text holds '\n'.
   */
  measure(text: string, style: TextStyle): number {
    this.#chain(style);
    text = clean(text);
    const spans = [{ text, style }];
    let width = 0;
    for (const para of text.split('\n')) {
      const p = para.endsWith('\r') ? para.slice(0, -1) : para;
      if (p === '') continue;
      const { levels } = this.#bidi.levels(p);
      const spanOf = new Uint32Array(p.length);
      const segments = this.#segments(p, 0, spans, spanOf, levels);
      width = Math.max(width, this.#rangeWidth(p, 0, p.length, segments, spans));
    }
    return width;
  }

  metrics(style: TextStyle): FontMetrics {
    const font = this.#chain(style).primary.font;
    const k = style.fontSize / font.unitsPerEm;
    const ascent = font.ascent * k;
    const descent = Math.abs(font.descent) * k;
    return { ascent, descent, lineHeight: ascent + descent + Math.max(0, font.lineGap) * k };
  }

  /**
   * Largest size ≤ style.fontSize (and ≥ minSize) at which the widest line of
   * `text` fits in maxWidth. Widths scale linearly with size, so one measure does.
   */
  fitFontSize(text: string, style: TextStyle, maxWidth: number, minSize = 1): number {
    const width = this.measure(text, style);
    if (width <= maxWidth || width === 0) return style.fontSize;
    const size = Math.floor(((style.fontSize * maxWidth) / width) * 100) / 100;
    return Math.max(minSize, Math.min(style.fontSize, size));
  }

  /** Lines of text; '\n' is a hard break. Runs come out in visual order, right-to-left text already reordered. */
  layout<D>(spans: Span<D>[], options: LayoutOptions = {}): LaidLine<D>[] {
    const live = spans
      .filter((s) => s.text.length > 0)
      .map((s) => {
        const text = clean(s.text);
        return text === s.text ? s : { ...s, text };
      });
    const source = live.length > 0 ? live : spans.slice(0, 1);
    if (source.length === 0) return [];
    for (const s of source) this.#chain(s.style);
    const text = source.map((s) => s.text).join('');
    const spanOf = new Uint32Array(text.length);
    {
      let offset = 0;
      source.forEach((s, i) => {
        spanOf.fill(i, offset, offset + s.text.length);
        offset += s.text.length;
      });
    }
    const lines: LaidLine<D>[] = [];
    let start = 0;
    for (;;) {
      const nl = text.indexOf('\n', start);
      const end = nl === -1 ? text.length : nl;
      this.#layoutParagraph(text, start, end, source, spanOf, options, lines);
      if (nl === -1) break;
      start = nl + 1;
    }
    return lines;
  }

  #chain(style: TextStyle): FallbackChain {
    if (!(Number.isFinite(style.fontSize) && style.fontSize > 0))
      throw ValidationError.of('fontSize', `Font size must be a positive number, got ${String(style.fontSize)}`);
    const key = `${style.fontFamily}\u0000${style.fontWeight}`;
    let chain = this.#chains.get(key);
    if (!chain) {
      if (!FONT_WEIGHTS.includes(style.fontWeight))
        throw ValidationError.of('fontWeight', `Unknown font weight "${String(style.fontWeight)}"`);
      if (!this.#registry.hasFamily(style.fontFamily))
        throw ValidationError.of('fontFamily', `Unknown font "${style.fontFamily}"`);
      chain = new FallbackChain(
        this.#registry,
        this.#registry.resolve(style.fontFamily, style.fontWeight),
        style.fontWeight,
      );
      this.#chains.set(key, chain);
    }
    return chain;
  }

  #layoutParagraph<D>(
    text: string,
    start: number,
    end: number,
    spans: Span<D>[],
    spanOf: Uint32Array,
    options: LayoutOptions,
    out: LaidLine<D>[],
  ): void {
    // '\r' before a '\n' is part of the line break, not text.
    if (end > start && text.charCodeAt(end - 1) === 0x0d) end--;
    const para = text.slice(start, end);
    const firstSpan = spans[spanOf[Math.min(start, text.length - 1)] ?? 0] ?? spans[0];
    if (para.length === 0) {
      out.push(this.#emptyLine(firstSpan.style, options));
      return;
    }
    const { levels, rtl } = this.#bidi.levels(para);
    const segments = this.#segments(para, start, spans, spanOf, levels);
    const ranges = this.#wrap(para, segments, spans, options.maxWidth);
    for (const [a, b] of ranges) {
      const e = trimEnd(para, a, b);
      out.push(this.#buildLine(para, a, e, segments, spans, options, rtl, firstSpan.style));
    }
  }

  #segments<D>(para: string, offset: number, spans: Span<D>[], spanOf: Uint32Array, levels: Uint8Array): Segment[] {
    const langs = cjkLanguages(para, this.#cjkDefault);
    const chains = spans.map((sp) => this.#chain(sp.style));
    const segments: Segment[] = [];
    let current: Segment | undefined;
    for (let i = 0; i < para.length;) {
      const cp = para.codePointAt(i) as number;
      const width = cp > 0xffff ? 2 : 1;
      const spanIdx = spanOf[offset + i];
      const chain = chains[spanIdx];
      const level = levels[i] ?? 0;
      // Only text in the same span and direction may keep the previous face for spaces and punctuation.
      const keep = current !== undefined && current.span === spanIdx && current.level === level;
      const face = chain.pick(cp, keep ? current?.face : undefined, langs[i]);
      if (current && current.span === spanIdx && current.face === face && current.level === level)
        current.end = i + width;
      else {
        current = { start: i, end: i + width, span: spanIdx, face, level };
        segments.push(current);
      }
      i += width;
    }
    return segments;
  }

  #rangeWidth<D>(para: string, a: number, b: number, segments: Segment[], spans: Span<D>[]): number {
    let w = 0;
    for (let i = firstSegmentEndingAfter(segments, a); i < segments.length; i++) {
      const seg = segments[i];
      if (seg.start >= b) break;
      const s = Math.max(a, seg.start);
      const e = Math.min(b, seg.end);
      w += this.#shaper.width(seg.face, para.slice(s, e), seg.level % 2 === 1, spans[seg.span].style.fontSize);
    }
    return w;
  }

  /**
   * The width of [a, b), exact up to `cap`; past it, some width over `cap`. A long
   * word is measured a slice at a time (cut between clusters) and only until it is
   * known not to fit: a 1 MB word is not shaped whole (fontkit's memory for one run
   * that long made layout superlinear), its lines are cut cluster by cluster anyway.
   */
  #widthUpTo<D>(para: string, a: number, b: number, segments: Segment[], spans: Span<D>[], cap: number): number {
    if (b - a <= LONG_WORD) return this.#rangeWidth(para, a, b, segments, spans);
    let w = 0;
    let from = a;
    while (from < b && w <= cap) {
      let to = Math.min(b, from + LONG_WORD);
      // Do not cut a cluster (a base and its marks, a surrogate pair) in two.
      while (to < b && (isLowSurrogate(para.charCodeAt(to)) || isClusterContinuation(para.codePointAt(to) as number)))
        to++;
      w += this.#rangeWidth(para, from, to, segments, spans);
      from = to;
    }
    return w;
  }

  /** Greedy line filling over break opportunities; a word wider than maxWidth on its own is cut between clusters. */
  #wrap<D>(para: string, segments: Segment[], spans: Span<D>[], maxWidth: number | undefined): Array<[number, number]> {
    if (maxWidth === undefined || !(maxWidth > 0)) return [[0, para.length]];
    const stops = [...breakOpportunities(para), para.length];
    const lines: Array<[number, number]> = [];
    let lineStart = 0;
    let lineWidth = 0;
    let hasContent = false;
    let a = 0;
    for (const b of stops) {
      if (b <= a) continue;
      const t = trimEnd(para, a, b);
      const inked = this.#widthUpTo(para, a, t, segments, spans, maxWidth + EPSILON);
      const trailing = t < b ? this.#rangeWidth(para, t, b, segments, spans) : 0;
      if (hasContent && lineWidth + inked > maxWidth + EPSILON) {
        lines.push([lineStart, a]);
        lineStart = a;
        lineWidth = 0;
        hasContent = false;
      }
      if (!hasContent && inked > maxWidth + EPSILON) {
        let w = 0;
        for (const [c0, c1] of clusters(para, a, t)) {
          const cw = this.#rangeWidth(para, c0, c1, segments, spans);
          if (w > 0 && w + cw > maxWidth + EPSILON) {
            lines.push([lineStart, c0]);
            lineStart = c0;
            w = 0;
          }
          w += cw;
        }
        lineWidth = w + trailing;
        hasContent = true;
      } else {
        lineWidth += inked + trailing;
        hasContent = hasContent || t > a;
      }
      a = b;
    }
    lines.push([lineStart, para.length]);
    return lines;
  }

  #buildLine<D>(
    para: string,
    a: number,
    b: number,
    segments: Segment[],
    spans: Span<D>[],
    options: LayoutOptions,
    rtl: boolean,
    fallbackStyle: TextStyle,
  ): LaidLine<D> {
    const logical: Array<{ seg: Segment; s: number; e: number }> = [];
    for (let i = firstSegmentEndingAfter(segments, a); i < segments.length; i++) {
      const seg = segments[i];
      if (seg.start >= b) break;
      logical.push({ seg, s: Math.max(a, seg.start), e: Math.min(b, seg.end) });
    }
    if (logical.length === 0)
      return this.#emptyLine(spans[segments.find((g) => g.end > a)?.span ?? 0]?.style ?? fallbackStyle, options, rtl);
    const order = visualOrder(logical.map((r) => r.seg.level));
    const runs: PlacedRun<D>[] = [];
    let x = 0;
    let ascent = 0;
    let descent = 0;
    let height = 0;
    let maxSize = 0;
    for (const index of order) {
      const { seg, s, e } = logical[index];
      const span = spans[seg.span];
      const runText = para.slice(s, e);
      const isRtl = seg.level % 2 === 1;
      const width = this.#shaper.width(seg.face, runText, isRtl, span.style.fontSize);
      const run: PlacedRun<D> = {
        text: runText,
        x,
        width,
        style: span.style,
        faceId: seg.face.id,
        rtl: isRtl,
        order: index,
      };
      if (span.data !== undefined) run.data = span.data;
      runs.push(run);
      x += width;
      const m = this.metrics(span.style);
      ascent = Math.max(ascent, m.ascent);
      descent = Math.max(descent, m.descent);
      height = Math.max(height, m.lineHeight);
      maxSize = Math.max(maxSize, span.style.fontSize);
    }
    if (options.lineHeight !== undefined) height = options.lineHeight * maxSize;
    return { runs, width: x, ascent, descent, height, rtl };
  }

  #emptyLine<D>(style: TextStyle, options: LayoutOptions, rtl = false): LaidLine<D> {
    const m = this.metrics(style);
    const height = options.lineHeight !== undefined ? options.lineHeight * style.fontSize : m.lineHeight;
    return { runs: [], width: 0, ascent: m.ascent, descent: m.descent, height, rtl };
  }
}

/** Index of the first segment with end > offset (segments are sorted and contiguous). */
function firstSegmentEndingAfter(segments: Segment[], offset: number): number {
  let lo = 0;
  let hi = segments.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (segments[mid].end <= offset) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
