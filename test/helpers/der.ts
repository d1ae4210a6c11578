/**
 * A strict DER reader for tests, written apart from the code under test (which builds with PKI.js
 * and asn1js; asn1js reads BER and writes a constructed string back as it found it, so a parse and
 * re-encode with it cannot tell BER from DER). X.690 §10 and §11: definite lengths in the fewest
 * octets, tags in the fewest octets, primitive encoding for the string and simple types, BOOLEAN
 * 00/FF, minimal INTEGERs, BIT STRING padding zero, the elements of a SET in ascending order of
 * their encodings. An OCTET STRING whose content is itself a whole DER element (TSTInfo in a
 * token's eContent, certificate extension values) is held to the same rules.
 */

/** Universal tags that DER encodes primitive only. */
const PRIMITIVE_ONLY = new Set([1, 2, 3, 4, 5, 6, 9, 10, 12, 13, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30]);

interface Element {
  tagClass: number;
  constructed: boolean;
  tag: number;
  start: number;
  contentStart: number;
  end: number;
}

class DerError extends Error {}

function readElement(bytes: Uint8Array, at: number, limit: number, path: string): Element {
  if (at >= limit) throw new DerError(`${path}: truncated (no tag)`);
  const first = bytes[at]!;
  let pos = at + 1;
  let tag = first & 0x1f;
  if (tag === 0x1f) {
    tag = 0;
    let octets = 0;
    for (;;) {
      if (pos >= limit) throw new DerError(`${path}: truncated tag`);
      const b = bytes[pos++]!;
      if (octets === 0 && b === 0x80) throw new DerError(`${path}: tag number not in the fewest octets`);
      tag = tag * 128 + (b & 0x7f);
      octets++;
      if (!(b & 0x80)) break;
    }
    if (tag < 31) throw new DerError(`${path}: tag ${tag} in the long form`);
  }
  if (pos >= limit) throw new DerError(`${path}: truncated (no length)`);
  const l = bytes[pos++]!;
  let length: number;
  if (l < 0x80) length = l;
  else if (l === 0x80) throw new DerError(`${path}: indefinite length (BER, not DER)`);
  else {
    const n = l & 0x7f;
    if (n > 4) throw new DerError(`${path}: length of ${n} octets`);
    if (pos + n > limit) throw new DerError(`${path}: truncated length`);
    if (bytes[pos] === 0) throw new DerError(`${path}: length with a leading zero octet`);
    length = 0;
    for (let i = 0; i < n; i++) length = length * 256 + bytes[pos + i]!;
    pos += n;
    if (length < 0x80) throw new DerError(`${path}: length ${length} in the long form`);
  }
  if (pos + length > limit) throw new DerError(`${path}: length ${length} runs past its container`);
  return {
    tagClass: first >> 6,
    constructed: (first & 0x20) !== 0,
    tag,
    start: at,
    contentStart: pos,
    end: pos + length,
  };
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  for (let i = 0; i < Math.min(a.length, b.length); i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/** A whole DER element in `bytes` (nothing after it), or undefined: used to look inside OCTET STRINGs. */
function wholeElement(bytes: Uint8Array): boolean {
  try {
    const e = readElement(bytes, 0, bytes.length, '');
    return e.end === bytes.length && (bytes[0] === 0x30 || bytes[0] === 0x31);
  } catch {
    return false;
  }
}

function check(bytes: Uint8Array, e: Element, path: string): void {
  const content = bytes.subarray(e.contentStart, e.end);
  if (e.tagClass === 0) {
    if (e.constructed && PRIMITIVE_ONLY.has(e.tag))
      throw new DerError(`${path}: universal type ${e.tag} in the constructed form (BER, not DER)`);
    if (!e.constructed && (e.tag === 16 || e.tag === 17))
      throw new DerError(`${path}: SEQUENCE/SET in the primitive form`);
    if (e.tag === 1 && (content.length !== 1 || (content[0] !== 0 && content[0] !== 0xff)))
      throw new DerError(`${path}: BOOLEAN not 00 or FF`);
    if (e.tag === 5 && content.length !== 0) throw new DerError(`${path}: NULL with content`);
    if ((e.tag === 2 || e.tag === 10) && !e.constructed) {
      if (content.length === 0) throw new DerError(`${path}: empty INTEGER`);
      if (content.length > 1 && content[0] === 0 && !(content[1]! & 0x80))
        throw new DerError(`${path}: INTEGER with a superfluous leading 00`);
      if (content.length > 1 && content[0] === 0xff && content[1]! & 0x80)
        throw new DerError(`${path}: INTEGER with a superfluous leading FF`);
    }
    if (e.tag === 3 && !e.constructed) {
      const unused = content[0];
      if (unused === undefined || unused > 7 || (content.length === 1 && unused !== 0))
        throw new DerError(`${path}: BIT STRING with bad unused bits`);
      if (unused && content[content.length - 1]! & ((1 << unused) - 1))
        throw new DerError(`${path}: BIT STRING padding bits not zero`);
    }
    if (e.tag === 4 && !e.constructed && wholeElement(content)) checkAll(content, `${path}/octets`);
  }
  if (!e.constructed) return;
  const children: Uint8Array[] = [];
  let at = e.contentStart;
  let i = 0;
  while (at < e.end) {
    const child = readElement(bytes, at, e.end, `${path}/${i}`);
    check(bytes, child, `${path}/${i}`);
    children.push(bytes.subarray(child.start, child.end));
    at = child.end;
    i++;
  }
  if (e.tagClass === 0 && e.tag === 17)
    for (let k = 1; k < children.length; k++)
      if (compareBytes(children[k - 1]!, children[k]!) > 0)
        throw new DerError(`${path}: SET elements not in ascending order of their encodings`);
}

function checkAll(bytes: Uint8Array, path: string): void {
  const e = readElement(bytes, 0, bytes.length, path);
  if (e.end !== bytes.length) throw new DerError(`${path}: ${bytes.length - e.end} bytes after the element`);
  check(bytes, e, path);
}

/** Why `bytes` (one whole element) is not DER, or undefined when it is. */
export function derProblem(bytes: Uint8Array): string | undefined {
  try {
    checkAll(bytes, '');
    return undefined;
  } catch (e) {
    if (e instanceof DerError) return e.message;
    throw e;
  }
}
