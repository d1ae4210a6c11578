import { CustomFontSubsetEmbedder, PDFFont, type PDFDocument } from '@cantoo/pdf-lib';
import type { Glyph } from '@cantoo/fontkit';
import type { ResolvedFace } from '../fonts/index.js';

/**
 * pdf-lib's embedFont is async and parses the font bytes again for every
 * document; the text layer must draw synchronously and parse the 19 MB CJK
 * collection once per registry. So the subset embedder is built directly on the
 * registry's already-parsed fontkit font and registered with the document the
 * same way embedFont does. The fields touched here are pdf-lib 2.x internals;
 * test/text-*.test.ts reads the resulting PDFs back and fails if they move.
 */
interface SubsetInternals {
  subset: { includeGlyph(glyph: Glyph): number };
  glyphs: GlyphForCmap[];
  glyphIdMap: Map<number, number>;
  glyphCache: { invalidate(): void };
}

/** What pdf-lib reads from a glyph when writing widths and the ToUnicode map. */
interface GlyphForCmap {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

type SubsetEmbedderCtor = new (font: unknown, fontData: Uint8Array, customName?: string, features?: unknown) => CustomFontSubsetEmbedder;

const NO_BYTES = new Uint8Array(0);

export class EmbeddedFace {
  readonly face: ResolvedFace;
  readonly pdfFont: PDFFont;
  readonly #internals: SubsetInternals;
  readonly #subsetIds = new Map<number, number>();

  constructor(doc: PDFDocument, face: ResolvedFace) {
    this.face = face;
    const Ctor = CustomFontSubsetEmbedder as unknown as SubsetEmbedderCtor;
    const embedder = new Ctor(face.font, NO_BYTES);
    this.#internals = embedder as unknown as SubsetInternals;
    const ref = doc.context.nextRef();
    this.pdfFont = PDFFont.of(ref, doc, embedder);
    (doc as unknown as { fonts: PDFFont[] }).fonts.push(this.pdfFont);
  }

  #fromCmap(id: number): number[] {
    const text = this.face.font.stringsForGlyph(id)[0] ?? '';
    return Array.from(text, (c) => c.codePointAt(0) as number);
  }

  /**
   * Adds glyphs to the subset and returns their 4-digit hex codes. In a
   * right-to-left run a ligature's text is stored reversed in ToUnicode: text
   * extractors read the run's glyphs in visual order and then reverse the whole
   * string, which puts the ligature's letters back in logical order.
   */
  encode(glyphs: Glyph[], rtl: boolean): string[] {
    const codes: string[] = [];
    let added = false;
    for (const glyph of glyphs) {
      let sid = this.#subsetIds.get(glyph.id);
      if (sid === undefined) {
        sid = this.#internals.subset.includeGlyph(glyph);
        if (sid === 0) {
          this.#subsetIds.set(glyph.id, sid);
          codes.push('0000');
          continue;
        }
        const own = glyph.codePoints.length > 0 ? glyph.codePoints : this.#fromCmap(glyph.id);
        const cps = rtl && own.length > 1 ? [...own].reverse() : [...own];
        this.#internals.glyphs[sid - 1] = { id: glyph.id, codePoints: cps, advanceWidth: glyph.advanceWidth };
        this.#internals.glyphIdMap.set(glyph.id, sid);
        this.#subsetIds.set(glyph.id, sid);
        added = true;
      }
      codes.push(sid.toString(16).padStart(4, '0'));
    }
    if (added) this.#internals.glyphCache.invalidate();
    return codes;
  }
}
