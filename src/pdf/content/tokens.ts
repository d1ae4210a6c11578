/**
 * A content stream's tokens with their byte ranges, for edits that replace an operator in place.
 * Strings carry their decoded bytes (escapes and line ends resolved), so a text-showing operator's
 * character codes can be counted and split.
 */

export type ContentToken =
  | { kind: 'number'; start: number; end: number; value: number }
  | { kind: 'name'; start: number; end: number; name: string }
  | { kind: 'string'; start: number; end: number; bytes: Uint8Array }
  | { kind: 'op'; start: number; end: number; op: string }
  | { kind: 'open' | 'close' | 'other'; start: number; end: number };

const WHITE = new Set([0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]);
const DELIM = new Set([0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]);
const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

const ESCAPES: Record<number, number> = { 0x6e: 0x0a, 0x72: 0x0d, 0x74: 0x09, 0x62: 0x08, 0x66: 0x0c };

/** The tokens of `b`, or undefined when it does not lex (an unclosed string or array of hex digits). */
export function contentTokens(b: Uint8Array): ContentToken[] | undefined {
  const out: ContentToken[] = [];
  let i = 0;
  // One view of the bytes decodes each token in place (a copy per token was most of the scan's time).
  const view = Buffer.from(b.buffer, b.byteOffset, b.byteLength);
  const regular = (): string => {
    const start = i;
    while (i < b.length && !WHITE.has(b[i]!) && !DELIM.has(b[i]!)) i++;
    return view.toString('latin1', start, i);
  };
  while (i < b.length) {
    const c = b[i]!;
    const start = i;
    if (WHITE.has(c)) i++;
    else if (c === 0x25) while (i < b.length && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else if (c === 0x2f) {
      i++;
      const name = regular();
      out.push({ kind: 'name', start, end: i, name });
    } else if (c === 0x28) {
      const bytes = literalString(b, i);
      if (!bytes) return undefined;
      i = bytes.end;
      out.push({ kind: 'string', start, end: i, bytes: bytes.bytes });
    } else if (c === 0x3c && b[i + 1] === 0x3c) {
      i += 2;
      out.push({ kind: 'other', start, end: i });
    } else if (c === 0x3e && b[i + 1] === 0x3e) {
      i += 2;
      out.push({ kind: 'other', start, end: i });
    } else if (c === 0x3c) {
      const end = b.indexOf(0x3e, i);
      if (end < 0) return undefined;
      const hex = Buffer.from(b.subarray(i + 1, end))
        .toString('latin1')
        .replace(/[^0-9a-fA-F]/g, '');
      i = end + 1;
      out.push({ kind: 'string', start, end: i, bytes: Buffer.from(hex.length % 2 ? hex + '0' : hex, 'hex') });
    } else if (c === 0x5b || c === 0x5d) {
      i++;
      out.push({ kind: c === 0x5b ? 'open' : 'close', start, end: i });
    } else if (c === 0x7b || c === 0x7d || c === 0x29 || c === 0x3e) {
      i++;
      out.push({ kind: 'other', start, end: i });
    } else {
      const text = regular();
      if (NUMBER.test(text)) out.push({ kind: 'number', start, end: i, value: Number(text) });
      else if (text === 'true' || text === 'false' || text === 'null') out.push({ kind: 'other', start, end: i });
      else {
        out.push({ kind: 'op', start, end: i, op: text });
        // Inline image data runs to the next whitespace-delimited EI.
        if (text === 'ID') {
          i++;
          while (
            i < b.length &&
            !(b[i] === 0x45 && b[i + 1] === 0x49 && WHITE.has(b[i - 1]!) && (i + 2 >= b.length || WHITE.has(b[i + 2]!)))
          )
            i++;
        }
      }
    }
  }
  return out;
}

/** A literal string from its `(` at `at`: its bytes and the offset after its `)`. */
function literalString(b: Uint8Array, at: number): { bytes: Uint8Array; end: number } | undefined {
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
        out.push(v & 0xff);
        i += 1 + k;
      } else if (n === 0x0d) i += b[i + 2] === 0x0a ? 3 : 2;
      else if (n === 0x0a) i += 2;
      else {
        out.push(ESCAPES[n] ?? n);
        i += 2;
      }
      continue;
    }
    if (c === 0x28) depth++;
    else if (c === 0x29 && --depth === 0) return { bytes: Uint8Array.from(out), end: i + 1 };
    if (c === 0x0d) {
      // An unescaped end of line is one line feed, whatever it was written as.
      out.push(0x0a);
      i += b[i + 1] === 0x0a ? 2 : 1;
      continue;
    }
    out.push(c);
    i++;
  }
  return undefined;
}
