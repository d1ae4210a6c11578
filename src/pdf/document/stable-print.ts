/**
 * What Chromium's print holds that the same request would not reproduce, made stable before anything reads
 * the print: the wall-clock time in its document information, and the ids of its structure elements, which
 * are the renderer's DOM node ids (a counter of the process, so they grow with every document a reused page
 * has held). Both are rewritten in place, byte for byte the same length, so no offset moves and every later
 * step (an update that keeps these bytes, an identifier seeded by them) sees stable bytes.
 */

/** A PDF date of the form Chromium's print writes (`D:YYYYMMDDHHmmSS+HH'mm'`), in UTC. */
function printDate(date: Date): string {
  const d = date.toISOString();
  return `D:${d.slice(0, 4)}${d.slice(5, 7)}${d.slice(8, 10)}${d.slice(11, 13)}${d.slice(14, 16)}${d.slice(17, 19)}+00'00'`;
}

/** Overwrites /CreationDate and /ModDate in the print's document information (its first object). */
function pinDates(out: Buffer, date: Date): number {
  const head = out.toString('latin1', 0, Math.min(out.length, 4096));
  const end = head.indexOf('endobj');
  if (end < 0) return 0;
  const pinned = printDate(date);
  let written = 0;
  for (const m of head.slice(0, end).matchAll(/\/(?:CreationDate|ModDate)\s*\((D:[^)]*)\)/g)) {
    if (m[1]!.length !== pinned.length || m.index === undefined) continue;
    out.write(pinned, m.index + m[0].indexOf('(') + 1, 'latin1');
    written++;
  }
  return written;
}

const ID_KEY = Buffer.from('/ID (node', 'latin1');
const OPEN = Buffer.from('(node', 'latin1');
const DIGIT_0 = 0x30;
const CLOSE = 0x29;

/** The digits of a `(node<digits>)` string at `at` (the parenthesis), or undefined. */
function nodeDigits(buf: Buffer, at: number): string | undefined {
  let k = at + OPEN.length;
  while (k < buf.length && buf[k]! >= DIGIT_0 && buf[k]! <= DIGIT_0 + 9) k++;
  return k > at + OPEN.length && buf[k] === CLOSE ? buf.toString('latin1', at + OPEN.length, k) : undefined;
}

/**
 * Renumbers the structure elements' ids (`/ID (node00000083)`, and the same strings in /Headers arrays and
 * the /IDTree) 1, 2, 3… in the order of the original numbers, each as many digits as before: the order, and
 * with it the sorted keys of the /IDTree, is kept. Only strings that some element's /ID holds are changed.
 */
function renumberIds(out: Buffer): number {
  const ids = new Set<string>();
  for (let at = out.indexOf(ID_KEY); at >= 0; at = out.indexOf(ID_KEY, at + ID_KEY.length)) {
    const digits = nodeDigits(out, at + ID_KEY.length - OPEN.length);
    if (digits !== undefined) ids.add(digits);
  }
  if (ids.size === 0) return 0;
  const order = [...ids].sort((a, b) => a.length - b.length || (a < b ? -1 : a > b ? 1 : 0));
  const renamed = new Map(order.map((digits, i) => [digits, String(i + 1).padStart(digits.length, '0')]));
  let written = 0;
  for (let at = out.indexOf(OPEN); at >= 0; at = out.indexOf(OPEN, at + OPEN.length)) {
    const digits = nodeDigits(out, at);
    const to = digits === undefined ? undefined : renamed.get(digits);
    // A number too long for its digits (more elements than it can count) is left as it is.
    if (to === undefined || to.length !== digits!.length) continue;
    out.write(to, at + OPEN.length, 'latin1');
    written++;
  }
  return written;
}

/**
 * Chromium's print with its dates set to `date` (when given) and its structure element ids renumbered; the
 * input when there was nothing to change.
 */
export function stablePrint(pdf: Uint8Array, date?: Date): Uint8Array {
  const out = Buffer.from(pdf);
  const changed = (date ? pinDates(out, date) : 0) + renumberIds(out);
  return changed > 0 ? new Uint8Array(out.buffer, out.byteOffset, out.byteLength) : pdf;
}
