/**
 * A content stream's tokens with their byte ranges, for edits that replace an operator in place.
 * Strings carry their decoded bytes (escapes and line ends resolved), so a text-showing operator's
 * character codes can be counted and split.
 *
 * `lexContent` keeps the tokens in columns (typed arrays of kinds, offsets and numbers, one text slot for
 * operators and names): a sheet of tiles has hundreds of thousands of tokens, and an object per token
 * would be most of the split's time. `contentTokens` gives the same tokens as objects, for the edits that
 * hold on to a few.
 */

export type ContentToken =
  | { kind: 'number'; start: number; end: number; value: number }
  | { kind: 'name'; start: number; end: number; name: string }
  | { kind: 'string'; start: number; end: number; bytes: Uint8Array }
  | { kind: 'op'; start: number; end: number; op: string }
  | { kind: 'open' | 'close' | 'other'; start: number; end: number };

/** A token's kind in `ContentLex.kind`. */
export const TOKEN = { number: 0, name: 1, string: 2, op: 3, open: 4, close: 5, other: 6 } as const;
const KIND_NAMES = ['number', 'name', 'string', 'op', 'open', 'close', 'other'] as const;

/** The tokens of a stream in columns: token `i` is `kind[i]` over bytes `start[i]`…`end[i]`. */
export interface ContentLex {
  count: number;
  kind: Uint8Array;
  start: Uint32Array;
  end: Uint32Array;
  /** A number's value (0 for other kinds). */
  value: Float64Array;
  /** An operator's text or a name's (without its slash), by token index; nothing for other kinds. */
  text: Array<string | undefined>;
  /** A string's decoded bytes, by token index. */
  strings: Map<number, Uint8Array>;
}

/** Byte classes: 1 white space, 2 delimiter, 0 regular. */
const CLASS = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) CLASS[c] = 1;
for (const c of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) CLASS[c] = 2;
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;
/** Powers of ten that are exact doubles: an integer below 2^53 divided by one is the decimal correctly rounded. */
const TENS = Array.from({ length: 23 }, (_, k) => 10 ** k);

const NO_BYTES = new Uint8Array(0);
const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

/** The tokens of `b`, or undefined when it does not lex (an unclosed string or array of hex digits). */
export function contentTokens(b: Uint8Array): ContentToken[] | undefined {
  const lex = lexContent(b);
  if (!lex) return undefined;
  const out: ContentToken[] = [];
  for (let t = 0; t < lex.count; t++) {
    const kind = KIND_NAMES[lex.kind[t]!]!;
    const start = lex.start[t]!;
    const end = lex.end[t]!;
    if (kind === 'number') out.push({ kind, start, end, value: lex.value[t]! });
    else if (kind === 'name') out.push({ kind, start, end, name: lex.text[t]! });
    else if (kind === 'op') out.push({ kind, start, end, op: lex.text[t]! });
    else if (kind === 'string') out.push({ kind, start, end, bytes: lex.strings.get(t)! });
    else out.push({ kind, start, end });
  }
  return out;
}

/**
 * The tokens of `b` in columns, or undefined when it does not lex. Without `decodeStrings` a string is
 * only delimited (its bytes are not made): the tile split moves strings whole and never reads them.
 */
export function lexContent(b: Uint8Array, decodeStrings = true): ContentLex | undefined {
  let capacity = Math.max(16, b.length >> 2);
  let kind = new Uint8Array(capacity);
  let starts = new Uint32Array(capacity);
  let ends = new Uint32Array(capacity);
  let value = new Float64Array(capacity);
  const text: Array<string | undefined> = [];
  const strings = new Map<number, Uint8Array>();
  let count = 0;
  const push = (k: number, start: number, end: number): number => {
    if (count === capacity) {
      capacity *= 2;
      const grow = <T extends Uint8Array | Uint32Array | Float64Array>(a: T, n: T): T => (n.set(a), n);
      kind = grow(kind, new Uint8Array(capacity));
      starts = grow(starts, new Uint32Array(capacity));
      ends = grow(ends, new Uint32Array(capacity));
      value = grow(value, new Float64Array(capacity));
    }
    kind[count] = k;
    starts[count] = start;
    ends[count] = end;
    return count++;
  };
  const n = b.length;
  let i = 0;
  // One view of the bytes decodes each token in place (a copy per token would be most of the scan's time).
  const view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  while (i < n) {
    const c = b[i]!;
    const start = i;
    const cls = CLASS[c]!;
    if (cls === 1) i++;
    else if (c === 0x25) while (i < n && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else if (c === 0x2f) {
      i++;
      while (i < n && CLASS[b[i]!] === 0) i++;
      text[push(TOKEN.name, start, i)] = view.toString('latin1', start + 1, i);
    } else if (c === 0x28) {
      const bytes = literalString(b, i, decodeStrings);
      if (!bytes) return undefined;
      i = bytes.end;
      const t = push(TOKEN.string, start, i);
      if (decodeStrings) strings.set(t, bytes.bytes);
    } else if ((c === 0x3c || c === 0x3e) && b[i + 1] === c) {
      i += 2;
      push(TOKEN.other, start, i);
    } else if (c === 0x3c) {
      const end = b.indexOf(0x3e, i);
      if (end < 0) return undefined;
      i = end + 1;
      const t = push(TOKEN.string, start, i);
      if (decodeStrings) strings.set(t, hexString(b, start + 1, end));
    } else if (c === 0x5b || c === 0x5d) {
      i++;
      push(c === 0x5b ? TOKEN.open : TOKEN.close, start, i);
    } else if (cls === 2) {
      i++;
      push(TOKEN.other, start, i);
    } else {
      while (i < n && CLASS[b[i]!] === 0) i++;
      const number = numberAt(b, start, i);
      // push may grow the columns: the index first, then the (new) column.
      if (number !== undefined) {
        const t = push(TOKEN.number, start, i);
        value[t] = number;
      } else {
        const word = view.toString('latin1', start, i);
        if (NUMBER.test(word)) {
          const t = push(TOKEN.number, start, i);
          value[t] = Number(word);
        } else if (word === 'true' || word === 'false' || word === 'null') push(TOKEN.other, start, i);
        else {
          text[push(TOKEN.op, start, i)] = word;
          // Inline image data runs to the next whitespace-delimited EI.
          if (word === 'ID') {
            i++;
            while (
              i < n &&
              !(b[i] === 0x45 && b[i + 1] === 0x49 && CLASS[b[i - 1]!] === 1 && (i + 2 >= n || CLASS[b[i + 2]!] === 1))
            )
              i++;
          }
        }
      }
    }
  }
  return { count, kind, start: starts, end: ends, value, text, strings };
}

/**
 * The number `b[from..to]` spells when it has at most 15 digits and 22 after the point (the value is then
 * exactly what Number() gives for its text); undefined for anything else, which the caller reads as text.
 */
function numberAt(b: Uint8Array, from: number, to: number): number | undefined {
  let i = from;
  let sign = 1;
  if (b[i] === 0x2d) {
    sign = -1;
    i++;
  } else if (b[i] === 0x2b) i++;
  let mantissa = 0;
  let digits = 0;
  let decimals = 0;
  let point = false;
  for (; i < to; i++) {
    const c = b[i]!;
    if (c >= 0x30 && c <= 0x39) {
      mantissa = mantissa * 10 + (c - 0x30);
      digits++;
      if (point) decimals++;
    } else if (c === 0x2e && !point) point = true;
    else return undefined;
  }
  if (digits === 0 || digits > 15 || decimals > 22) return undefined;
  return (sign * mantissa) / TENS[decimals]!;
}

/** The bytes the hex digits of `b[from..to]` spell (other bytes skipped; an odd last digit is its high half). */
function hexString(b: Uint8Array, from: number, to: number): Uint8Array {
  const out = new Uint8Array((to - from + 1) >> 1);
  let n = 0;
  for (let i = from; i < to; i++) {
    const c = b[i]!;
    const v = c >= 0x30 && c <= 0x39 ? c - 0x30 : (c | 0x20) >= 0x61 && (c | 0x20) <= 0x66 ? (c | 0x20) - 0x57 : -1;
    if (v < 0) continue;
    if (n & 1) out[n >> 1]! |= v;
    else out[n >> 1] = v << 4;
    n++;
  }
  return out.subarray(0, (n + 1) >> 1);
}

/** A literal string from its `(` at `at`: its bytes (when `decode`) and the offset after its `)`. */
function literalString(b: Uint8Array, at: number, decode: boolean): { bytes: Uint8Array; end: number } | undefined {
  const out: number[] = [];
  let depth = 1;
  let i = at + 1;
  while (i < b.length) {
    const c = b[i]!;
    if (c === 0x5c) {
      const n = b[i + 1];
      if (n === undefined) return undefined;
      if (n >= 0x30 && n <= 0x37) {
        let v = 0;
        let k = 0;
        while (k < 3 && b[i + 1 + k]! >= 0x30 && b[i + 1 + k]! <= 0x37) v = v * 8 + b[i + 1 + k++]! - 0x30;
        if (decode) out.push(v & 0xff);
        i += 1 + k;
      } else if (n === 0x0d) i += b[i + 2] === 0x0a ? 3 : 2;
      else if (n === 0x0a) i += 2;
      else {
        if (decode) out.push(ESCAPES[n] ?? n);
        i += 2;
      }
      continue;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return { bytes: decode ? Uint8Array.from(out) : NO_BYTES, end: i + 1 };
    if (c === 0x0d) {
      // An unescaped end of line is one line feed, whatever it was written as.
      if (decode) out.push(0x0a);
      i += b[i + 1] === 0x0a ? 2 : 1;
      continue;
    }
    if (decode) out.push(c);
    i++;
  }
  return undefined;
}
