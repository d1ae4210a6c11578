import bidiImport, { type Bidi } from 'bidi-js';

type BidiFactory = () => Bidi;
const isFactory = (v: unknown): v is BidiFactory => typeof v === 'function';

/** bidi-js is CommonJS whose typings declare an ES default export; under Node the default import is the factory itself. */
function factoryOf(imported: unknown): BidiFactory {
  if (isFactory(imported)) return imported;
  if (typeof imported === 'object' && imported !== null && 'default' in imported && isFactory(imported.default))
    return imported.default;
  throw new Error('bidi-js exports no factory');
}
const bidiFactory = factoryOf(bidiImport);

const RTL_CHARS =
  /[\u0590-\u08ff\ufb1d-\ufdff\ufe70-\ufeff\u200f\u202b\u202e\u2067\u{10800}-\u{10fff}\u{1e800}-\u{1efff}]/u;

/** Unicode bidi levels for one paragraph; LTR text skips the algorithm entirely. */
export class BidiResolver {
  #bidi: Bidi | undefined;

  levels(paragraph: string): { levels: Uint8Array; rtl: boolean } {
    if (!RTL_CHARS.test(paragraph)) return { levels: new Uint8Array(paragraph.length), rtl: false };
    this.#bidi ??= bidiFactory();
    const result = this.#bidi.getEmbeddingLevels(paragraph);
    const base = result.paragraphs[0]?.level ?? 0;
    return { levels: result.levels, rtl: base % 2 === 1 };
  }

  /** Brackets and the like that right-to-left text shows mirrored ("(" looks like ")"). */
  isMirrored(cp: number): boolean {
    this.#bidi ??= bidiFactory();
    return this.#bidi.getMirroredCharacter(String.fromCodePoint(cp)) !== null;
  }
}

/** Rule L2 of UAX #9 on whole runs: reverse every maximal sequence at or above each odd level. */
export function visualOrder(levels: number[]): number[] {
  const order = levels.map((_, i) => i);
  if (levels.length === 0) return order;
  const max = Math.max(...levels);
  const minOdd = Math.min(...levels.filter((l) => l % 2 === 1));
  if (!Number.isFinite(minOdd)) return order;
  for (let level = max; level >= minOdd; level--) {
    let i = 0;
    while (i < order.length) {
      if (levels[order[i]] >= level) {
        let j = i;
        while (j < order.length && levels[order[j]] >= level) j++;
        const slice = order.slice(i, j).reverse();
        order.splice(i, j - i, ...slice);
        i = j;
      } else i++;
    }
  }
  return order;
}
