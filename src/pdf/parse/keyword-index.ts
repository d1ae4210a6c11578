/**
 * Where the parser's recovery keywords occur in a file, found in one pass per
 * keyword (Buffer.indexOf) the first time recovery needs them. pdf-lib's own
 * recovery scans forward byte by byte from every broken object, to the end of
 * the file when the keyword is missing: quadratic in the number of broken
 * objects (a 1.8 MB file without `endstream`/`endobj` took 34 s). Here every
 * question is a binary search.
 */
export class KeywordIndex {
  readonly #bytes: Buffer;
  readonly #positions = new Map<string, number[]>();
  #headers?: { starts: number[]; ends: number[] };

  constructor(bytes: Uint8Array) {
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** First occurrence of `keyword` at or after `from`, or -1. */
  next(keyword: string, from: number): number {
    const list = this.#all(keyword);
    const i = firstAtLeast(list, from);
    return i < list.length ? list[i]! : -1;
  }

  /**
   * First offset at or after `from` where pdf-lib's `skipJibberish` would stop:
   * the keywords `xref`, `trailer`, `startxref`, or an object header
   * `<digits> <digits> obj` (a header is found from any offset inside its first
   * number, as pdf-lib's greedy integer parser does). -1 when none.
   */
  nextSectionStart(from: number): number {
    let best = -1;
    for (const k of ['xref', 'trailer', 'startxref']) {
      const at = this.next(k, from);
      if (at >= 0 && (best < 0 || at < best)) best = at;
    }
    const { starts, ends } = this.#objectHeaders();
    const i = firstAtLeast(ends, from);
    if (i < ends.length) {
      const at = Math.max(starts[i]!, from);
      if (best < 0 || at < best) best = at;
    }
    return best;
  }

  /** Every object header as nextSectionStart finds them: where each starts and its number's last digit, ascending. */
  objectHeaders(): { readonly starts: readonly number[]; readonly ends: readonly number[] } {
    return this.#objectHeaders();
  }

  #all(keyword: string): number[] {
    let list = this.#positions.get(keyword);
    if (!list) {
      list = [];
      // The keyword as bytes once: a string needle is converted again on every call (a print has ~18,000 `obj`).
      const needle = Buffer.from(keyword, 'latin1');
      for (let at = this.#bytes.indexOf(needle, 0); at >= 0; at = this.#bytes.indexOf(needle, at + 1)) list.push(at);
      this.#positions.set(keyword, list);
    }
    return list;
  }

  /** Object headers from every `obj`: [start of the object number, last digit of it] (each byte is looked at a bounded number of times). */
  #objectHeaders(): { starts: number[]; ends: number[] } {
    if (this.#headers) return this.#headers;
    const b = this.#bytes;
    const starts: number[] = [];
    const ends: number[] = [];
    let floor = 0;
    for (const at of this.#all('obj')) {
      const lowest = floor;
      // Bytes before the previous `obj` belong to it: no byte is walked twice.
      floor = at + 3;
      let i = at - 1;
      while (i >= lowest && isWhite(b[i]!)) i--;
      const genEnd = i;
      while (i >= lowest && isDigit(b[i]!)) i--;
      if (i === genEnd) continue;
      const whiteEnd = i;
      while (i >= lowest && isWhite(b[i]!)) i--;
      if (i === whiteEnd) continue;
      const numEnd = i;
      while (i >= lowest && isDigit(b[i]!)) i--;
      if (i === numEnd) continue;
      starts.push(i + 1);
      ends.push(numEnd);
    }
    this.#headers = { starts, ends };
    return this.#headers;
  }
}

/** An ASCII digit (undefined: past either end of the bytes). */
export function isDigit(c: number | undefined): boolean {
  return c !== undefined && c >= 0x30 && c <= 0x39;
}

/** PDF white space (PDF 32000 §7.2.2), as pdf-lib's parser skips it (undefined: past either end of the bytes). */
export function isWhite(c: number | undefined): boolean {
  return c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09 || c === 0x0c || c === 0x00;
}

/** Index of the first element >= value in an ascending list (list.length when none). */
export function firstAtLeast(list: readonly number[], value: number): number {
  let lo = 0;
  let hi = list.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (list[mid]! < value) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}
