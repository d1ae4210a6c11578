/**
 * Finding signatures in the raw bytes, by their /ByteRange: a signature dictionary is always a plain
 * object in the file body and its /Contents must sit between the two ranges, so a damaged or
 * tampered file still lists its signatures.
 */

export interface RawSignature {
  byteRange: number[];
  cms: Uint8Array;
  /** Shared by the entries naming the same gap: why its value does not parse, once known (parsing junk can cost its length). */
  gap: { unreadable?: string };
}

const BYTE_RANGE = Buffer.from('/ByteRange');
const BYTE_RANGE_VALUE = /^\s*\[\s*(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s*\]/;
export function findRawSignatures(file: Buffer): RawSignature[] {
  const found: RawSignature[] = [];
  // The contents of the gap that starts at each '<', read once: many /ByteRange entries naming the same
  // gap made the hex text of a large gap be copied and checked once per entry (4,000 entries on a
  // 100 KB gap took 2.6 s, the square of the file's size).
  const gaps = new Map<number, { end: number; cms: Uint8Array | undefined; unreadable?: string }>();
  for (let at = file.indexOf(BYTE_RANGE); at !== -1; at = file.indexOf(BYTE_RANGE, at + 1)) {
    const m = BYTE_RANGE_VALUE.exec(file.toString('latin1', at + BYTE_RANGE.length, at + BYTE_RANGE.length + 80));
    if (!m) continue;
    const byteRange = m.slice(1, 5).map(Number);
    const [a, b, c, d] = byteRange as [number, number, number, number];
    const gapStart = a + b;
    if (gapStart + 2 > c || c + d > file.length) continue;
    if (file[gapStart] !== 0x3c || file[c - 1] !== 0x3e) continue; // '<' … '>'
    let gap = gaps.get(gapStart);
    if (!gap) {
      gap = hexGap(file, gapStart);
      gaps.set(gapStart, gap);
    }
    // Only hex digits and white space may lie between '<' and the '>' at c - 1.
    if (gap.end !== c - 1 || !gap.cms) continue;
    found.push({ byteRange, cms: gap.cms, gap }); // cms is shared by entries naming the same gap: only read
  }
  // Revision order: a later signature covers more of the file.
  return found.sort((x, y) => x.byteRange[2]! + x.byteRange[3]! - (y.byteRange[2]! + y.byteRange[3]!));
}

/**
 * The hex string that starts after the '<' at `start`: where the first byte that is neither a hex
 * digit nor white space lies (`end`), and the bytes the digits spell when there is an even number of
 * them. The scan stops at that byte, so the scans from different '<' never overlap.
 */
function hexGap(file: Buffer, start: number): { end: number; cms: Uint8Array | undefined } {
  let end = start + 1;
  let digits = 0;
  for (; end < file.length; end++) {
    const c = file[end]!;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) digits++;
    else if (!WHITE_SPACE.has(c)) break;
  }
  if (digits % 2 !== 0) return { end, cms: undefined };
  const hex = file.toString('latin1', start + 1, end).replace(/\s+/g, '');
  return { end, cms: new Uint8Array(Buffer.from(hex, 'hex')) };
}

/** The bytes `\s` matches in latin1 text: tab, LF, VT, FF, CR, space, NBSP (0xa0). */
const WHITE_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);

/**
 * What is wrong with a signature dictionary's /ByteRange or /Contents (a universal signature
 * forgery makes them missing, empty, negative or not framing the value), or undefined when they
 * are well formed: every signature field is reported, with its defect, never dropped.
 */
export function signatureDefect(sig: { byteRange: number[]; contents?: Uint8Array }): string | undefined {
  const r = sig.byteRange;
  if (r.length === 0) return 'its /ByteRange is missing, empty or not an array of numbers';
  if (r.length !== 4) return `its /ByteRange has ${r.length} numbers, not 4`;
  if (r.some((n) => !Number.isSafeInteger(n) || n < 0)) return 'its /ByteRange has a negative or fractional number';
  const [a, b, c, d] = r as [number, number, number, number];
  if (a !== 0) return 'its /ByteRange does not start at byte 0';
  if (a + b >= c || d < 0) return 'its /ByteRange ranges overlap or are out of order';
  if (sig.contents === undefined || sig.contents.length === 0) return 'its /Contents is missing or empty';
  return undefined;
}
