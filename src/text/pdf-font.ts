import {
  Cache,
  CustomFontEmbedder,
  PDFFont,
  PDFObject,
  PDFRawStream,
  type PDFContext,
  type PDFDocument,
  type PDFRef,
} from '@cantoo/pdf-lib';
import type { Glyph } from '@cantoo/fontkit';
import type { ResolvedFace } from '../fonts/index.js';
import { addDocumentFont } from '../pdf/index.js';
import { encodeSubset, TO_UNICODE_PER_SUBSET, type SubsetCache, type SubsetVersion } from './subset-cache.js';

/** What pdf-lib reads from a glyph when writing widths and the ToUnicode map; `id` is the subset glyph id. */
interface GlyphForCmap {
  id: number;
  codePoints: number[];
  advanceWidth: number;
}

interface Used {
  gid: number;
  codePoints: number[];
  advanceWidth: number;
}

const NO_BYTES = new Uint8Array(0);
const HEX = Array.from('0123456789abcdef', (c) => c.charCodeAt(0));
const LESS = '<'.charCodeAt(0);
const GREATER = '>'.charCodeAt(0);

/**
 * One face embedded in one document. Glyphs get document-local ids as they are
 * drawn; which subset the document embeds (and so the codes its text shows)
 * is decided only when the font is written, when every glyph it uses is known:
 * then a subset kept by the engine's SubsetCache can be reused as bytes, and
 * without a cache the subset holds exactly the document's glyphs in first-use
 * order. Text shows carry GlyphString objects that print the final codes.
 *
 * pdf-lib's embedFont is async and parses the font bytes again for every
 * document; the text layer draws synchronously and parses the 19 MB CJK
 * collection once per registry, so the embedder is built on the registry's
 * parsed fontkit font. It overrides protected members of pdf-lib 2.x's
 * CustomFontEmbedder; test/text-*.test.ts reads the PDFs back and fails if they move.
 */
export class EmbeddedFace {
  readonly face: ResolvedFace;
  readonly pdfFont: PDFFont;
  readonly #cache: SubsetCache | undefined;
  readonly #local = new Map<number, number>();
  readonly #used: Used[] = [];
  #subset: SubsetVersion | undefined;

  constructor(doc: PDFDocument, face: ResolvedFace, cache?: SubsetCache) {
    this.face = face;
    this.#cache = cache;
    const ref = doc.context.nextRef();
    this.pdfFont = PDFFont.of(ref, doc, new DeferredSubsetEmbedder(this));
    addDocumentFont(doc, this.pdfFont);
  }

  /**
   * Document-local ids of the glyphs (0 = .notdef). In a right-to-left run a
   * ligature's text is stored reversed in ToUnicode: text extractors read the
   * run's glyphs in visual order and then reverse the whole string, which puts
   * the ligature's letters back in logical order. The first use of a glyph in
   * the document decides its text, as pdf-lib's own subsets do.
   */
  encode(glyphs: Glyph[], rtl: boolean): number[] {
    const ids: number[] = [];
    for (const glyph of glyphs) {
      if (glyph.id === 0) {
        ids.push(0);
        continue;
      }
      let id = this.#local.get(glyph.id);
      if (id === undefined) {
        const own = glyph.codePoints.length > 0 ? glyph.codePoints : this.#fromCmap(glyph.id);
        const codePoints = rtl && own.length > 1 ? [...own].reverse() : [...own];
        this.#used.push({ gid: glyph.id, codePoints, advanceWidth: glyph.advanceWidth });
        id = this.#used.length;
        this.#local.set(glyph.id, id);
      }
      ids.push(id);
    }
    return ids;
  }

  /** A string operand showing these glyphs (ids from `encode`). */
  show(ids: number[]): PDFObject {
    return new GlyphString(this, ids);
  }

  /**
   * The subset this document embeds, chosen on first call (when the font is
   * written). Glyphs first drawn after that are not in the font, like glyphs
   * drawn after a pdf-lib document's first save.
   */
  subset(): SubsetVersion {
    if (!this.#subset) {
      const gids = this.#used.map((u) => u.gid);
      this.#subset = this.#cache ? this.#cache.subsetFor(this.face.font, gids) : encodeSubset(this.face.font, gids);
    }
    return this.#subset;
  }

  /** Code of a document-local glyph id in the embedded subset. */
  code(localId: number): number {
    if (localId === 0) return 0;
    const used = this.#used[localId - 1];
    return used ? (this.subset().sidOf.get(used.gid) ?? 0) : 0;
  }

  /** Widths and ToUnicode entries: the document's own glyphs, by subset id. */
  glyphsForCmap(): GlyphForCmap[] {
    const sidOf = this.subset().sidOf;
    return this.#used
      .map((u) => ({ id: sidOf.get(u.gid) ?? 0, codePoints: u.codePoints, advanceWidth: u.advanceWidth }))
      .filter((g) => g.id > 0)
      .sort((a, b) => a.id - b.id);
  }

  #fromCmap(id: number): number[] {
    const text = this.face.font.stringsForGlyph(id)[0] ?? '';
    return Array.from(text, (c) => c.codePointAt(0) as number);
  }
}

/** pdf-lib's Type0 font writer, fed with a subset chosen at write time and its cached program. */
class DeferredSubsetEmbedder extends CustomFontEmbedder {
  readonly #owner: EmbeddedFace;
  #toUnicodeKey = '';

  constructor(owner: EmbeddedFace) {
    super(owner.face.font as never, NO_BYTES);
    this.#owner = owner;
  }

  override embedIntoContext(context: PDFContext, ref?: PDFRef): Promise<PDFRef> {
    const glyphs = this.#owner.glyphsForCmap();
    this.#toUnicodeKey = glyphs.map((g) => `${g.id}:${g.codePoints.join(',')}`).join(';');
    this.glyphCache = Cache.populatedBy(() => glyphs);
    return super.embedIntoContext(context, ref);
  }

  protected override isCFF(): boolean {
    return this.#owner.subset().cff;
  }

  protected override embedFontStream(context: PDFContext): Promise<PDFRef> {
    const { program, cff } = this.#owner.subset();
    // The bytes are shared with other documents and never written to: pdf-lib only copies stream contents out.
    const stream = context.stream(program, { Filter: 'FlateDecode', Subtype: cff ? 'CIDFontType0C' : undefined });
    return Promise.resolve(context.register(stream));
  }

  /** Documents filled with the same text map the same glyphs: their ToUnicode bytes are reused too. */
  protected override embedUnicodeCmap(context: PDFContext): PDFRef {
    const memo = this.#owner.subset().toUnicode;
    const known = memo.get(this.#toUnicodeKey);
    if (known) return context.register(context.stream(known, { Filter: 'FlateDecode' }));
    const ref = super.embedUnicodeCmap(context);
    const stream = context.lookup(ref);
    if (stream instanceof PDFRawStream) {
      if (memo.size >= TO_UNICODE_PER_SUBSET) memo.delete(memo.keys().next().value as string);
      memo.set(this.#toUnicodeKey, stream.getContents());
    }
    return ref;
  }
}

/** A hex string of glyph codes, printed from the subset the document's font ends up with. */
class GlyphString extends PDFObject {
  readonly #owner: EmbeddedFace;
  readonly #ids: number[];

  constructor(owner: EmbeddedFace, ids: number[]) {
    super();
    this.#owner = owner;
    this.#ids = ids;
  }

  override clone(): GlyphString {
    return new GlyphString(this.#owner, [...this.#ids]);
  }

  override toString(): string {
    return `<${this.#ids.map((id) => this.#owner.code(id).toString(16).padStart(4, '0')).join('')}>`;
  }

  override sizeInBytes(): number {
    return 2 + 4 * this.#ids.length;
  }

  override copyBytesInto(buffer: Uint8Array, offset: number): number {
    let at = offset;
    buffer[at++] = LESS;
    for (const id of this.#ids) {
      const code = this.#owner.code(id);
      buffer[at++] = HEX[(code >> 12) & 15];
      buffer[at++] = HEX[(code >> 8) & 15];
      buffer[at++] = HEX[(code >> 4) & 15];
      buffer[at++] = HEX[code & 15];
    }
    buffer[at++] = GREATER;
    return at - offset;
  }
}
