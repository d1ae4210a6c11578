import type { FontRegistry, FontWeight, ResolvedFace } from '../fonts/index.js';
import { isClusterContinuation, isIgnorable, isPunctuation, isWhitespace, type CjkLanguage } from './unicode.js';

const LANG_INDEX: Record<CjkLanguage, number> = { sc: 1, tc: 2, jp: 3, kr: 4 };

/**
 * Per-glyph fallback for one style: the chosen face (and its siblings), then Noto Sans, then Noto
 * Sans CJK (language picked per character), then the Noto font of the
 * character's script, then the Noto math and symbol fonts.
 * Faces further down the chain are parsed only when a character needs them.
 */
export class FallbackChain {
  readonly primary: ResolvedFace;
  readonly #registry: FontRegistry;
  readonly #weight: FontWeight;
  readonly #picks = new Map<number, ResolvedFace>();
  #general: Array<() => ResolvedFace> | undefined;

  constructor(registry: FontRegistry, primary: ResolvedFace, weight: FontWeight) {
    this.#registry = registry;
    this.primary = primary;
    this.#weight = weight;
  }

  /**
   * The face for `cp`. Spaces and combining marks stay in the current face when
   * it has them so shaping runs (and Arabic joining) are not cut.
   */
  pick(cp: number, current: ResolvedFace | undefined, cjk: CjkLanguage | undefined): ResolvedFace {
    if (
      current &&
      (isWhitespace(cp) || isClusterContinuation(cp) || isPunctuation(cp)) &&
      current.font.hasGlyphForCodePoint(cp)
    )
      return current;
    // A mark the current face lacks (U+0338 after a maths operator) is searched like any character.
    if (current && isIgnorable(cp)) return current;
    const key = cp * 8 + (cjk ? LANG_INDEX[cjk] : 0);
    const cached = this.#picks.get(key);
    if (cached) return cached;
    const face = this.#search(cp, cjk);
    this.#picks.set(key, face);
    return face;
  }

  #search(cp: number, cjk: CjkLanguage | undefined): ResolvedFace {
    if (this.primary.font.hasGlyphForCodePoint(cp)) return this.primary;
    // The same design in another file first (a web-font package's cyrillic, greek, … subsets).
    for (const sibling of this.primary.siblings) if (sibling.font.hasGlyphForCodePoint(cp)) return sibling;
    const noto = this.#registry.notoSans(this.#weight);
    if (noto.font.hasGlyphForCodePoint(cp)) return noto;
    const langs = new Set<CjkLanguage>([cjk ?? 'sc', 'sc', 'jp', 'kr', 'tc']);
    for (const lang of langs) {
      const face = this.#registry.cjk(lang, this.#weight);
      if (face?.font.hasGlyphForCodePoint(cp)) return face;
    }
    const script = this.#registry.scriptFace(cp, this.#weight);
    if (script?.font.hasGlyphForCodePoint(cp)) return script;
    this.#general ??= this.#registry.generalFallbacks(this.#weight);
    for (const get of this.#general) {
      const face = get();
      if (face.font.hasGlyphForCodePoint(cp)) return face;
    }
    // Nothing covers it: the chosen face draws its .notdef glyph.
    return this.primary;
  }
}
