import type { Glyph } from '@cantoo/fontkit';
import type { ResolvedFace } from '../fonts/index.js';

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

/** Shapes through the face's own OpenType tables (GSUB/GPOS), so Arabic joins and marks attach. */
export class Shaper {
  readonly #cache = new Map<string, ShapedRun>();

  shape(face: ResolvedFace, text: string, rtl: boolean): ShapedRun {
    const key = `${face.id}\u0000${rtl ? 'r' : 'l'}\u0000${text}`;
    const hit = this.#cache.get(key);
    if (hit) return hit;
    const font = face.font;
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
    const shaped: ShapedRun = { glyphs: run.glyphs, advances, xOffsets, yOffsets, advance, unitsPerEm: font.unitsPerEm };
    if (this.#cache.size >= MAX_CACHE) this.#cache.clear();
    this.#cache.set(key, shaped);
    return shaped;
  }

  width(face: ResolvedFace, text: string, rtl: boolean, size: number): number {
    if (text === '') return 0;
    const s = this.shape(face, text, rtl);
    return (s.advance * size) / s.unitsPerEm;
  }
}
