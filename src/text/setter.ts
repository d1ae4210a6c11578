import {
  beginText,
  endText,
  PDFArray,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFOperator,
  PDFOperatorNames,
  popGraphicsState,
  pushGraphicsState,
  setFillingColor,
  setFontAndSize,
  setLineWidth,
  setStrokingColor,
  setTextMatrix,
  setTextRenderingMode,
  setTextRise,
  TextRenderingMode,
  type Color,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';
import type { FontRegistry, ResolvedFace } from '../fonts/index.js';
import { TextLayout, type TextLayoutOptions } from './layout.js';
import { EmbeddedFace } from './pdf-font.js';
import type { ShapedRun } from './shaping.js';
import type { SubsetCache } from './subset-cache.js';
import type { FontMetrics, LaidLine, LayoutOptions, PlacedRun, Span, TextStyle } from './types.js';
import { IGNORABLES } from './unicode.js';

export interface TextSetterOptions extends TextLayoutOptions {
  /**
   * Font subsets encoded for earlier documents, reused as bytes when a
   * document's glyphs are among them (see SubsetCache). One per engine.
   */
  subsets?: SubsetCache;
  /** The engine's text layout, shared by every document it writes (else one of its own, from the other options). */
  layout?: TextLayout;
}

/**
 * What text is drawn into: a page, or anything that takes operators and names its fonts as a page does
 * (an appearance stream).
 */
export interface DrawTarget {
  pushOperators(...operators: PDFOperator[]): void;
  readonly node: { newFontDictionary(tag: string, fontDictRef: PDFRef): PDFName };
}

/** Stroke width of fake bold, as a fraction of the font size. */
const FAKE_BOLD_STROKE = 0.03;
/** Shear of fake italic: tan(12°). */
const FAKE_ITALIC_SKEW = Math.tan((12 * Math.PI) / 180);

/**
 * One per PDFDocument being written: draws laid lines into its pages, embedding each font face
 * once (subset). Measuring and layout are the TextLayout's; the setter passes them through.
 */
export class TextSetter {
  readonly #doc: PDFDocument;
  /** The layout the setter was given; it measures and draws through that layout's view for its document. */
  readonly #given: TextLayout;
  readonly #layout: TextLayout;
  readonly #subsets: SubsetCache | undefined;
  readonly #embedded = new Map<string, EmbeddedFace>();
  readonly #pageFontKeys = new WeakMap<DrawTarget, Map<string, PDFName>>();

  constructor(doc: PDFDocument, registry: FontRegistry, options: TextSetterOptions = {}) {
    this.#doc = doc;
    this.#given = options.layout ?? new TextLayout(registry, options);
    this.#layout = this.#given.forDocument();
    this.#subsets = options.subsets;
  }

  /** The layout this setter measures with (it shapes through its own view of it, `forDocument`). */
  get textLayout(): TextLayout {
    return this.#given;
  }

  measure(text: string, style: TextStyle): number {
    return this.#layout.measure(text, style);
  }

  metrics(style: TextStyle): FontMetrics {
    return this.#layout.metrics(style);
  }

  fitFontSize(text: string, style: TextStyle, maxWidth: number, minSize = 1): number {
    return this.#layout.fitFontSize(text, style, maxWidth, minSize);
  }

  layout<D>(spans: Span<D>[], options: LayoutOptions = {}): LaidLine<D>[] {
    return this.#layout.layout(spans, options);
  }

  /** Draws a laid line with its left edge at x and its baseline at y (PDF user space, origin bottom-left). */
  drawLine(page: DrawTarget, line: LaidLine, x: number, baselineY: number, color: Color): void {
    const runs = [...line.runs].sort((a, b) => (a.order ?? 0) - (b.order ?? 0));
    const ops: PDFOperator[] = [pushGraphicsState()];
    for (const run of runs) {
      if (run.text === '') continue;
      const face = run.faceId ? this.#layout.registry.faceById(run.faceId) : undefined;
      if (!face) {
        // A run built outside layout(): lay its text out and draw the pieces in place.
        for (const sub of this.layout([{ text: run.text.replace(/\n/g, ' '), style: run.style }]))
          this.drawLine(page, sub, x + run.x, baselineY, color);
        continue;
      }
      this.#runOperators(page, run, face, x + run.x, baselineY, color, ops);
    }
    ops.push(popGraphicsState());
    page.pushOperators(...ops);
  }

  /** Shortcut: layout + draw of one single-line string. Returns its width. */
  drawText(page: DrawTarget, text: string, x: number, baselineY: number, style: TextStyle, color: Color): number {
    const lines = this.layout([{ text: text.replace(/\r?\n/g, ' '), style }]);
    const line = lines[0];
    if (!line) return 0;
    this.drawLine(page, line, x, baselineY, color);
    return line.width;
  }

  #embed(face: ResolvedFace): EmbeddedFace {
    let e = this.#embedded.get(fontKey(face));
    if (!e) {
      e = new EmbeddedFace(this.#doc, face, this.#subsets);
      this.#embedded.set(fontKey(face), e);
    }
    return e;
  }

  #fontKey(page: DrawTarget, embedded: EmbeddedFace): PDFName {
    let keys = this.#pageFontKeys.get(page);
    if (!keys) this.#pageFontKeys.set(page, (keys = new Map()));
    const id = fontKey(embedded.face);
    let key = keys.get(id);
    if (!key) {
      key = page.node.newFontDictionary(embedded.pdfFont.name, embedded.pdfFont.ref);
      keys.set(id, key);
    }
    return key;
  }

  #runOperators(
    page: DrawTarget,
    run: PlacedRun,
    face: ResolvedFace,
    x: number,
    y: number,
    color: Color,
    ops: PDFOperator[],
  ): void {
    const rtl = run.rtl === true;
    const shaped = this.#layout.shaper.shape(face, run.text, rtl);
    const embedded = this.#embed(face);
    const ids = embedded.encode(shaped.glyphs, rtl);
    const size = run.style.fontSize;
    ops.push(beginText(), setFontAndSize(this.#fontKey(page, embedded), size), setFillingColor(color));
    if (face.syntheticBold) {
      ops.push(
        setStrokingColor(color),
        setLineWidth(size * FAKE_BOLD_STROKE),
        setTextRenderingMode(TextRenderingMode.FillAndOutline),
      );
    } else {
      ops.push(setTextRenderingMode(TextRenderingMode.Fill));
    }
    const skew = face.syntheticItalic ? FAKE_ITALIC_SKEW : 0;
    const k = size / shaped.unitsPerEm;
    if (!rtl || !shaped.glyphs.some((g) => this.#mirrors(g.codePoints))) {
      ops.push(setTextMatrix(1, 0, skew, 1, x, y));
      const actual = !rtl && drawnOutOfOrder(shaped, run.text);
      // Shaping moved vowel signs before their consonant (Devanagari ि, Bengali, Sinhala, Khmer...):
      // /ActualText gives extractors that honour it (Acrobat, poppler) the text as typed.
      // (Writing the glyphs in logical order instead would make pdfjs, which ignores /ActualText, read
      // spaces at every jump back and forth: measured, "दु नि या". Drawing order is what other PDF writers give it.)
      if (actual) ops.push(this.#actualText(run.text));
      ops.push(...this.#showText(shaped, embedded, ids, 0, ids.length, size));
      if (actual) ops.push(PDFOperator.of(PDFOperatorNames.EndMarkedContent));
    } else {
      // Mirrored characters (brackets) are drawn with their own glyph flipped, so
      // they look mirrored yet still extract as the character typed. Pieces go out
      // right to left, i.e. in reading order, so extractors keep the logical order.
      const pieces: Array<{ from: number; to: number; x: number; mirrored: boolean }> = [];
      let pen = x;
      for (let i = 0; i < shaped.glyphs.length;) {
        const mirrored = this.#mirrors(shaped.glyphs[i].codePoints);
        let j = i + 1;
        if (!mirrored) while (j < shaped.glyphs.length && !this.#mirrors(shaped.glyphs[j].codePoints)) j++;
        let w = 0;
        for (let g = i; g < j; g++) w += shaped.advances[g] * k;
        pieces.push({ from: i, to: j, x: pen, mirrored });
        pen += w;
        i = j;
      }
      for (const piece of pieces.reverse()) {
        if (piece.mirrored) ops.push(setTextMatrix(-1, 0, skew, 1, piece.x + shaped.advances[piece.from] * k, y));
        else ops.push(setTextMatrix(1, 0, skew, 1, piece.x, y));
        ops.push(...this.#showText(shaped, embedded, ids, piece.from, piece.to, size));
      }
    }
    ops.push(endText());
  }

  /** `/Span <</ActualText (text)>> BDC`. */
  #actualText(text: string): PDFOperator {
    const properties = this.#doc.context.obj({ ActualText: PDFHexString.fromText(text.replace(IGNORABLES, '')) });
    // pdf-lib's operand type leaves out dictionaries, which marked-content operators take: the dictionary
    // goes in as its text, the bytes it writes inline.
    return PDFOperator.of(PDFOperatorNames.BeginMarkedContentSequence, [PDFName.of('Span'), properties.toString()]);
  }

  #mirrors(codePoints: number[]): boolean {
    return codePoints.length === 1 && this.#layout.isMirrored(codePoints[0]);
  }

  /**
   * TJ operators for glyphs `from`..`to`: codes with the shaper's kerning and mark
   * x offsets as adjustments (thousandths of an em), mark y offsets (Arabic
   * harakat on tall letters, stacked marks) as text rise, reset afterwards.
   */
  #showText(
    shaped: ShapedRun,
    embedded: EmbeddedFace,
    ids: number[],
    from: number,
    to: number,
    size: number,
  ): PDFOperator[] {
    const ops: PDFOperator[] = [];
    const k = 1000 / shaped.unitsPerEm;
    const xs: number[] = [];
    for (let i = from, x = 0; i < to; x += shaped.advances[i], i++) xs[i] = x + shaped.xOffsets[i];
    let array = PDFArray.withContext(this.#doc.context);
    let show: number[] = [];
    let rise = 0;
    let pen = 0;
    const flushShow = (): void => {
      if (show.length > 0) array.push(embedded.show(show));
      show = [];
    };
    const flushArray = (): void => {
      flushShow();
      if (array.size() > 0) ops.push(PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [array]));
      array = PDFArray.withContext(this.#doc.context);
    };
    for (let i = from; i < to; i++) {
      const r = (shaped.yOffsets[i] * size) / shaped.unitsPerEm;
      if (Math.abs(r - rise) > 0.001) {
        flushArray();
        ops.push(setTextRise(Math.round(r * 1000) / 1000));
        rise = r;
      }
      const move = (xs[i] - pen) * k;
      if (Math.abs(move) > 0.01) {
        flushShow();
        array.push(PDFNumber.of(Math.round(-move * 100) / 100));
      }
      show.push(ids[i]);
      pen = xs[i] + shaped.glyphs[i].advanceWidth;
    }
    flushArray();
    if (rise !== 0) ops.push(setTextRise(0));
    return ops;
  }
}

/** Scripts whose shaping reorders or splits characters: Indic, Sinhala, Myanmar, Khmer. */
const REORDERING_SCRIPTS = /[\u0900-\u0dff\u1000-\u109f\u1780-\u17ff]/;

/** The glyphs' characters, read in drawing order, differ from the text (a pre-base vowel, a split vowel). */
function drawnOutOfOrder(shaped: ShapedRun, text: string): boolean {
  if (!REORDERING_SCRIPTS.test(text)) return false;
  let drawn = '';
  for (const g of shaped.glyphs) drawn += String.fromCodePoint(...g.codePoints);
  return drawn.normalize('NFD') !== text.replace(IGNORABLES, '').normalize('NFD');
}

/** Synthesis is drawn, not embedded: faces that differ only by it share one PDF font. */
function fontKey(face: ResolvedFace): string {
  return face.id.replace(/(\+b)?(\+i)?$/, '');
}
