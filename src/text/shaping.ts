import type { Glyph } from '@cantoo/fontkit';
import type { ResolvedFace } from '../fonts/index.js';
import { SecondSight } from './second-sight.js';
import { IGNORABLE, IGNORABLES, isHan, isKana } from './unicode.js';

/** A run shaped by fontkit: glyphs in visual order with their positions, in font units. */
export interface ShapedRun {
  glyphs: Glyph[];
  /** Per glyph: pen advance after shaping (kerning, cursive attachment...). */
  advances: number[];
  xOffsets: number[];
  yOffsets: number[];
  /** Sum of advances, font units. */
  advance: number;
  unitsPerEm: number;
}

const MAX_CACHE = 4096;

/**
 * Shapes through the face's own OpenType tables (GSUB/GPOS), so Arabic joins and marks attach.
 *
 * Shaped runs are kept, at most 4,096 per shaper. An engine's shaper is shared by its documents;
 * each document shapes through its own (`forDocument`), which keeps the runs only that document
 * uses (measured, broken, then drawn) and dies with it. A run goes to the shared shaper when a
 * document shapes it that an earlier document shaped too: labels, digits and words that recur.
 * Runs seen once (names, amounts, dates: most of what a server fills) would otherwise stay until
 * thousands of fills later, long enough for V8 to move them to the old generation, where dead
 * runs pile up until a full GC and the heap's committed size grows by tens of MB (bench/memory.ts).
 */
export class Shaper {
  readonly #cache = new Map<string, ShapedRun>();
  /** The engine's shaper this document shaper shares recurring runs with. */
  readonly #shared: Shaper | undefined;
  /** Runs documents shaped once (the shared shaper's only). */
  #seen: SecondSight | undefined;

  /** `shared`: the shaper whose documents this one shapes for (`forDocument` passes it); none for an engine's own. */
  constructor(shared?: Shaper) {
    this.#shared = shared;
  }

  /** A shaper for one document: its runs are its own, and the recurring ones are shared with this shaper's. */
  forDocument(): Shaper {
    return new Shaper(this.#shared ?? this);
  }

  /** Runs kept by this shaper (a document's own, or the shared ones). */
  get size(): number {
    return this.#cache.size;
  }

  shape(face: ResolvedFace, text: string, rtl: boolean): ShapedRun {
    const key = `${face.id}\u0000${rtl ? 'r' : 'l'}\u0000${text}`;
    const hit = this.#cache.get(key) ?? (this.#shared ? this.#shared.#cache.get(key) : undefined);
    if (hit) return hit;
    const font = face.font;
    // Format characters (bidi marks, zero-width space, BOM, soft hyphen) have done their work in
    // bidi and breaking; drawn they would be .notdef boxes.
    if (IGNORABLE.test(text)) {
      const shaped = this.shape(face, text.replace(IGNORABLES, ''), rtl);
      this.#remember(key, shaped);
      return shaped;
    }
    if (!rtl && isPlainIdeographic(text)) {
      const simple = this.#direct(face, text);
      if (simple) {
        this.#remember(key, simple);
        return simple;
      }
    }
    const run = font.layout(text, undefined, undefined, undefined, rtl ? 'rtl' : 'ltr');
    const positions = run.positions ?? [];
    const advances: number[] = [];
    const xOffsets: number[] = [];
    const yOffsets: number[] = [];
    let advance = 0;
    for (let i = 0; i < run.glyphs.length; i++) {
      const p = positions[i];
      const a = p ? p.xAdvance : run.glyphs[i].advanceWidth;
      advances.push(a);
      xOffsets.push(p ? p.xOffset : 0);
      yOffsets.push(p ? p.yOffset : 0);
      advance += a;
    }
    const shaped: ShapedRun = {
      glyphs: run.glyphs,
      advances,
      xOffsets,
      yOffsets,
      advance,
      unitsPerEm: font.unitsPerEm,
    };
    this.#remember(key, shaped);
    return shaped;
  }

  #remember(key: string, shaped: ShapedRun): void {
    const shared = this.#shared;
    if (shared && (shared.#seen ??= new SecondSight()).seen(key)) shared.#keep(key, shaped);
    else this.#keep(key, shaped);
  }

  #keep(key: string, shaped: ShapedRun): void {
    if (this.#cache.size >= MAX_CACHE) this.#cache.clear();
    this.#cache.set(key, shaped);
  }

  /**
   * Han, kana and CJK punctuation need no contextual shaping for horizontal
   * text, and fontkit's GSUB pass over a CJK font's chaining lookups is the
   * most expensive part of laying such text out: map characters straight to
   * glyphs instead.
   */
  #direct(face: ResolvedFace, text: string): ShapedRun | undefined {
    const font = face.font;
    const glyphs: Glyph[] = [];
    const advances: number[] = [];
    let advance = 0;
    for (const ch of text) {
      const glyph = font.glyphForCodePoint(ch.codePointAt(0) as number);
      if (!glyph || glyph.id === 0) return undefined;
      glyphs.push(glyph);
      advances.push(glyph.advanceWidth);
      advance += glyph.advanceWidth;
    }
    const zeros = new Array<number>(glyphs.length).fill(0);
    return { glyphs, advances, xOffsets: zeros, yOffsets: zeros, advance, unitsPerEm: font.unitsPerEm };
  }

  width(face: ResolvedFace, text: string, rtl: boolean, size: number): number {
    if (text === '') return 0;
    const s = this.shape(face, text, rtl);
    return (s.advance * size) / s.unitsPerEm;
  }
}

function isPlainIdeographic(text: string): boolean {
  for (const ch of text) {
    const cp = ch.codePointAt(0) as number;
    if (!(isHan(cp) || isKana(cp) || (cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff01 && cp <= 0xff5e))) return false;
  }
  return text.length > 0;
}
