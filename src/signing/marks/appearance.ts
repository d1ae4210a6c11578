/**
 * Drawing signers' marks onto pages, appended as one incremental update.
 *
 * An `AppearanceWriter` holds what is worth keeping between documents (the font registry
 * with the bundled handwriting font, the shaper); callers create one and reuse it.
 * Typed signatures go through the text layer (src/text), so a name in a script the
 * handwriting font lacks falls back glyph by glyph to Noto fonts instead of empty boxes.
 */
import path from 'node:path';
import {
  appendBezierCurve,
  concatTransformationMatrix,
  LineCapStyle,
  LineJoinStyle,
  lineTo,
  moveTo,
  popGraphicsState,
  pushGraphicsState,
  rgb,
  setLineCap,
  setLineJoin,
  setLineWidth,
  setStrokingRgbColor,
  stroke,
  type PDFDocument,
  type PDFOperator,
  type PDFPage,
  type RGB,
} from '@cantoo/pdf-lib';
import { ValidationError } from '../../errors/index.js';
import { bundledFontsDir, FontRegistry } from '../../fonts/index.js';
import type { DisplayRect, TopLeftRect } from '../../geometry/index.js';
import { embedPrepared, placeImage, prepareImage } from '../../images/index.js';
import { displayMatrix, frameOfPage, type PageFrame } from '../../pdf/index.js';
import { formatPath } from '../../schema/index.js';
import { Shaper, TextSetter } from '../../text/index.js';
import { parseMarks, type ParsedMark, type SignatureMark, type StrokePoint } from './marks.js';
import { appendDrawing, createPdf, savePdf } from '../../pdf/index.js';

/** The family typed signatures and initials are set in (bundled, OFL). */
const SIGNATURE_FONT_FAMILY = 'Dancing Script';
/** The family of plain text marks (full name, email, date). */
const TEXT_FONT_FAMILY = 'Noto Sans';

/** The bundled handwriting font file, for callers who build their own FontRegistry. */
export function signatureFontFile(): { path: string; family: string } {
  return { path: path.join(bundledFontsDir(), 'DancingScript-Regular.otf'), family: SIGNATURE_FONT_FAMILY };
}

const INK = rgb(0.05, 0.1, 0.4);
const TEXT_INK = rgb(0, 0, 0);
/** Room left around a mark inside its rect, as a share of the smaller side. */
const PADDING = 0.08;
/** Image pixels per point kept when an image is scaled down to its rect (~300 dpi). */
const IMAGE_PX_PER_PT = 4;
/** Share of the rect's height a caption takes (the mark keeps the rest, above it). */
const CAPTION_SHARE = 0.42;
const CAPTION_INK = rgb(0.25, 0.25, 0.25);

export interface AppearanceWriterOptions {
  /** A registry that knows `Dancing Script` (see `signatureFontFile()`); default: its own. */
  fonts?: FontRegistry;
}

function colorOf(hex: string | undefined, fallback: RGB): RGB {
  if (!hex) return fallback;
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}

/** The rect (top-left origin, as displayed) in display space (bottom-left origin). */
function displayBox(frame: PageFrame, rect: TopLeftRect): DisplayRect {
  return { x: rect.x, y: frame.height - rect.y - rect.height, width: rect.width, height: rect.height };
}

function strokesOf(mark: ParsedMark & { input: { type: 'drawn' } }): StrokePoint[][] {
  return mark.input.strokes.filter((s) => s.length > 0);
}

/** Vector strokes fitted into the box, keeping their proportions, smoothed through the midpoints. */
function strokeOperators(strokes: StrokePoint[][], box: DisplayRect, color: RGB): PDFOperator[] {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  for (const s of strokes) {
    for (const p of s) {
      minX = Math.min(minX, p.x);
      maxX = Math.max(maxX, p.x);
      minY = Math.min(minY, p.y);
      maxY = Math.max(maxY, p.y);
    }
  }
  const pad = Math.min(box.width, box.height) * PADDING;
  const w = Math.max(box.width - 2 * pad, 1);
  const h = Math.max(box.height - 2 * pad, 1);
  const spanX = maxX - minX;
  const spanY = maxY - minY;
  const scale = Math.min(spanX > 0 ? w / spanX : Infinity, spanY > 0 ? h / spanY : Infinity);
  const k = Number.isFinite(scale) ? scale : 1;
  // Centre the drawing; canvas y grows downwards, PDF y upwards.
  const ox = box.x + pad + (w - spanX * k) / 2;
  const oy = box.y + pad + (h - spanY * k) / 2;
  const X = (p: StrokePoint) => ox + (p.x - minX) * k;
  const Y = (p: StrokePoint) => oy + (maxY - p.y) * k;
  const lineWidth = Math.min(Math.max(h / 25, 0.6), 3);
  const ops: PDFOperator[] = [
    setStrokingRgbColor(color.red, color.green, color.blue),
    setLineWidth(lineWidth),
    setLineCap(LineCapStyle.Round),
    setLineJoin(LineJoinStyle.Round),
  ];
  for (const s of strokes) {
    const first = s[0]!;
    ops.push(moveTo(X(first), Y(first)));
    if (s.length === 1) {
      ops.push(lineTo(X(first), Y(first))); // a dot: zero-length line with round caps
    } else if (s.length === 2) {
      ops.push(lineTo(X(s[1]!), Y(s[1]!)));
    } else {
      // Quadratic pieces through the midpoints between samples, written as cubics.
      let cx = X(first);
      let cy = Y(first);
      for (let i = 1; i < s.length - 1; i++) {
        const px = X(s[i]!);
        const py = Y(s[i]!);
        const mx = (px + X(s[i + 1]!)) / 2;
        const my = (py + Y(s[i + 1]!)) / 2;
        ops.push(
          appendBezierCurve(
            cx + (2 / 3) * (px - cx),
            cy + (2 / 3) * (py - cy),
            mx + (2 / 3) * (px - mx),
            my + (2 / 3) * (py - my),
            mx,
            my,
          ),
        );
        cx = mx;
        cy = my;
      }
      const last = s[s.length - 1]!;
      ops.push(lineTo(X(last), Y(last)));
    }
    ops.push(stroke());
  }
  return ops;
}

export class AppearanceWriter {
  readonly #fonts: FontRegistry;
  readonly #shaper = new Shaper();

  constructor(options: AppearanceWriterOptions = {}) {
    this.#fonts = options.fonts ?? new FontRegistry({ files: [signatureFontFile()] });
    if (!this.#fonts.hasFamily(SIGNATURE_FONT_FAMILY)) {
      throw ValidationError.of(
        'fonts',
        `The font registry must know "${SIGNATURE_FONT_FAMILY}": add signatureFontFile() to its files`,
      );
    }
  }

  /**
   * Draws every mark and returns the document with one more incremental update;
   * `bytes` is an exact prefix of the result. Bad marks are typed errors and nothing is written.
   */
  async apply(bytes: Uint8Array, marks: readonly SignatureMark[]): Promise<Uint8Array> {
    const parsed = parseMarks(marks);
    const images = await this.#images(parsed);
    return appendDrawing(bytes, (doc, isolate) => {
      const pages = doc.getPages();
      const setter = new TextSetter(doc, this.#fonts, { shaper: this.#shaper });
      parsed.forEach((mark, i) => {
        const page = pages[mark.page];
        if (!page)
          throw ValidationError.of(
            formatPath(['marks', i, 'page']),
            `The document has ${pages.length} page${pages.length === 1 ? '' : 's'}`,
          );
        const frame = frameOfPage(page);
        const r = mark.rect;
        if (r.x < -1 || r.y < -1 || r.x + r.width > frame.width + 1 || r.y + r.height > frame.height + 1) {
          throw ValidationError.of(
            formatPath(['marks', i, 'rect']),
            `Outside the page (${frame.width} x ${frame.height} pt)`,
          );
        }
        const box = displayBox(frame, r);
        isolate(page);
        page.pushOperators(pushGraphicsState(), concatTransformationMatrix(...displayMatrix(frame)));
        this.#draw(doc, page, setter, mark, box, images[i] ?? null);
        page.pushOperators(popGraphicsState());
      });
    });
  }

  /**
   * Every mark drawn alone on a page of its rect's size (origin at its bottom-left corner), in a
   * new document: the appearance streams of form fields (per-signer signatures: a mark
   * set as a field's appearance is form filling, which DocMDP P=2 allows after a signature).
   */
  async appearancePages(marks: readonly SignatureMark[]): Promise<Uint8Array> {
    const parsed = parseMarks(marks);
    const images = await this.#images(parsed);
    const doc = await createPdf();
    const setter = new TextSetter(doc, this.#fonts, { shaper: this.#shaper });
    parsed.forEach((mark, i) => {
      const page = doc.addPage([Math.max(mark.rect.width, 1), Math.max(mark.rect.height, 1)]);
      const box = { x: 0, y: 0, width: mark.rect.width, height: mark.rect.height };
      this.#draw(doc, page, setter, mark, box, images[i] ?? null);
    });
    return savePdf(doc);
  }

  /** Images are decoded before the document is touched: a file that is not an image is a 400. */
  async #images(parsed: ParsedMark[]): Promise<Array<Awaited<ReturnType<typeof prepareImage>> | null>> {
    return Promise.all(
      parsed.map(async (m, i) => {
        if (m.input.type !== 'image') return null;
        const fit = { width: m.rect.width * IMAGE_PX_PER_PT, height: m.rect.height * IMAGE_PX_PER_PT };
        const prepared = await prepareImage(m.input.image, { rasterOnly: true, fit });
        if (!prepared)
          throw ValidationError.of(
            formatPath(['marks', i, 'input', 'image']),
            'Not a PNG or JPEG image (or a damaged one)',
          );
        return prepared;
      }),
    );
  }

  #draw(
    doc: PDFDocument,
    page: PDFPage,
    setter: TextSetter,
    mark: ParsedMark,
    box: DisplayRect,
    image: Awaited<ReturnType<typeof prepareImage>>,
  ): void {
    if (mark.caption) {
      // The caption's lines at the bottom, each fitted to the width; the mark above them.
      const height = box.height * CAPTION_SHARE;
      const pad = Math.min(box.width, box.height) * PADDING;
      const lineHeight = height / mark.caption.length;
      mark.caption.forEach((line, i) => {
        const style = { fontFamily: TEXT_FONT_FAMILY, fontWeight: 'normal' as const, fontSize: lineHeight * 0.8 };
        const sized = { ...style, fontSize: setter.fitFontSize(line, style, box.width - 2 * pad, 1) };
        const m = setter.metrics(sized);
        const bottom = box.y + height - (i + 1) * lineHeight;
        const baseline = bottom + (lineHeight - (m.ascent + m.descent)) / 2 + m.descent;
        setter.drawText(page, line, box.x + pad, baseline, sized, CAPTION_INK);
      });
      const rest = { ...mark, caption: undefined };
      this.#draw(doc, page, setter, rest, { ...box, y: box.y + height, height: box.height - height }, image);
      return;
    }
    const input = mark.input;
    switch (input.type) {
      case 'drawn':
        page.pushOperators(...strokeOperators(strokesOf({ ...mark, input }), box, colorOf(input.color, INK)));
        return;
      case 'image': {
        if (!image) return;
        const embedded = embedPrepared(doc, image);
        const pad = Math.min(box.width, box.height) * PADDING;
        const k = Math.min((box.width - 2 * pad) / embedded.widthPx, (box.height - 2 * pad) / embedded.heightPx);
        const w = embedded.widthPx * k;
        const h = embedded.heightPx * k;
        placeImage(page, embedded.image, {
          x: box.x + (box.width - w) / 2,
          y: box.y + (box.height - h) / 2,
          width: w,
          height: h,
        });
        return;
      }
      case 'typed':
      case 'text': {
        const family = input.type === 'typed' ? SIGNATURE_FONT_FAMILY : TEXT_FONT_FAMILY;
        const text = input.text.replace(/\s+/g, ' ').trim();
        const pad = Math.min(box.width, box.height) * PADDING;
        const style = {
          fontFamily: family,
          fontWeight: 'normal' as const,
          fontSize: (box.height - 2 * pad) * (input.type === 'typed' ? 0.8 : 0.7),
        };
        const fontSize = setter.fitFontSize(text, style, box.width - 2 * pad, 1);
        const sized = { ...style, fontSize };
        const m = setter.metrics(sized);
        const width = setter.measure(text, sized);
        const x = input.type === 'typed' ? box.x + (box.width - width) / 2 : box.x + pad;
        const baseline = box.y + (box.height - (m.ascent + m.descent)) / 2 + m.descent;
        setter.drawText(page, text, x, baseline, sized, colorOf(input.color, input.type === 'typed' ? INK : TEXT_INK));
        return;
      }
    }
  }
}
