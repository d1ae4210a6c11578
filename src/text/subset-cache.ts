import { deflateSync } from 'node:zlib';
import type { Font } from '@cantoo/fontkit';

/**
 * One encoded font subset: the glyphs it holds (subset glyph id = index + 1,
 * 0 is .notdef) and its compressed font program. Immutable once made, so a
 * document that picked it keeps exactly these bytes whatever later documents do.
 */
export interface SubsetVersion {
  /** Original glyph ids in subset order. */
  readonly gids: readonly number[];
  /** Original glyph id → subset glyph id. */
  readonly sidOf: ReadonlyMap<number, number>;
  /** The subset font program (TrueType or CFF), deflated. */
  readonly program: Uint8Array;
  /** CFF outlines (embedded as FontFile3 / CIDFontType0C). */
  readonly cff: boolean;
  /**
   * Compressed ToUnicode CMaps written with this subset, by the glyphs and
   * text they map (documents decide their own glyphs' text; most map the same).
   */
  readonly toUnicode: Map<string, Uint8Array>;
}

/** ToUnicode CMaps remembered per subset. */
export const TO_UNICODE_PER_SUBSET = 16;

export interface SubsetCacheOptions {
  /** No subset larger than this is kept; a document needing more glyphs of one face gets its own. Default 2000. */
  maxGlyphs?: number;
  /** Subsets kept per face, most recently used first. Default 4. */
  versionsPerFace?: number;
  /** Glyphs a document may carry beyond the ones it uses (see `spareGlyphs`). */
  spare?: (used: number) => number;
}

export interface SubsetCacheStats {
  /** Subsets encoded and kept (new or grown). */
  encodes: number;
  /** Documents that took an already encoded subset. */
  reuses: number;
  /** Subsets encoded for one document only (over `maxGlyphs`). */
  uncached: number;
}

/**
 * Unused glyphs a document may embed so that it can share a subset: 24 plus a
 * quarter of what it uses (measured: filling the W-9 with varied values
 * settles on one subset after ~10 encodes whether the spare is this or twice
 * as large, while Markdown documents, which embed several faces, grow by half
 * as many bytes as with a floor of 64 glyphs).
 */
function spareGlyphs(used: number): number {
  return 24 + Math.ceil(used / 4);
}

/** Encodes a subset of `font` holding `gids` in this order. */
export function encodeSubset(font: Font, gids: readonly number[]): SubsetVersion {
  const subset = font.createSubset();
  const sidOf = new Map<number, number>();
  for (const gid of gids) sidOf.set(gid, subset.includeGlyph(gid));
  const program = deflateSync(subset.encode());
  const cff = 'cff' in subset && Boolean(subset.cff);
  return { gids: [...gids], sidOf, program, cff, toUnicode: new Map() };
}

/**
 * Encoded font subsets shared by the documents one engine writes. Subsetting
 * and compressing a font program is most of what embedding a font costs, and
 * documents written by one engine mostly use the same glyphs: a document whose
 * glyphs are all in a kept subset (with few extras) embeds its bytes as they
 * are. Otherwise the closest kept subset grows by the missing glyphs (encoded
 * once, then reused), or the document's own glyphs become a new kept subset.
 *
 * Per engine, never per module: glyph ids belong to the engine's parsed fonts.
 * Kept subsets are immutable; growing makes a new one, so documents written
 * concurrently on one engine never see a subset change under them.
 */
export class SubsetCache {
  readonly #faces = new WeakMap<Font, SubsetVersion[]>();
  readonly #maxGlyphs: number;
  readonly #versionsPerFace: number;
  readonly #spare: (used: number) => number;
  readonly #stats: SubsetCacheStats = { encodes: 0, reuses: 0, uncached: 0 };

  constructor(options: SubsetCacheOptions = {}) {
    this.#maxGlyphs = options.maxGlyphs ?? 2000;
    this.#versionsPerFace = Math.max(1, options.versionsPerFace ?? 4);
    this.#spare = options.spare ?? spareGlyphs;
  }

  get stats(): SubsetCacheStats {
    return { ...this.#stats };
  }

  /**
   * The subset a document using `used` (original glyph ids, no .notdef, no
   * repeats) embeds: a kept one that holds them all, else a new one.
   */
  subsetFor(font: Font, used: readonly number[]): SubsetVersion {
    if (used.length > this.#maxGlyphs) {
      this.#stats.uncached++;
      return encodeSubset(font, used);
    }
    const limit = Math.min(this.#maxGlyphs, used.length + this.#spare(used.length));
    let versions = this.#faces.get(font);
    if (!versions) this.#faces.set(font, (versions = []));

    let best: SubsetVersion | undefined;
    let base: SubsetVersion | undefined;
    let baseMissing: number[] = [];
    for (const v of versions) {
      if (v.gids.length > limit) continue;
      const missing = used.filter((g) => !v.sidOf.has(g));
      if (missing.length === 0) {
        if (!best || v.gids.length < best.gids.length) best = v;
      } else if (v.gids.length + missing.length <= limit && (!base || missing.length < baseMissing.length)) {
        base = v;
        baseMissing = missing;
      }
    }
    if (best) {
      this.#stats.reuses++;
      this.#touch(versions, best);
      return best;
    }
    // The grown subset replaces its base: one workload keeps one growing subset rather than near-copies.
    const made = encodeSubset(font, base ? [...base.gids, ...baseMissing] : used);
    this.#stats.encodes++;
    if (base) versions.splice(versions.indexOf(base), 1);
    versions.unshift(made);
    versions.length = Math.min(versions.length, this.#versionsPerFace);
    return made;
  }

  #touch(versions: SubsetVersion[], v: SubsetVersion): void {
    const i = versions.indexOf(v);
    if (i > 0) {
      versions.splice(i, 1);
      versions.unshift(v);
    }
  }
}
