/**
 * Marked content in a content stream, read by a lean scan: only the operators that matter for
 * tagging (marked-content bounds, text objects, painting) are told apart, by their bytes, with no
 * object per token: Chromium's tagged pages are ~50 KB of positioned glyphs each.
 */
import { contentTokens } from '../content/tokens.js';

const WHITE = new Uint8Array(256);
for (const c of [0x00, 0x09, 0x0a, 0x0c, 0x0d, 0x20]) WHITE[c] = 1;
const DELIM = new Uint8Array(256);
for (const c of [0x28, 0x29, 0x3c, 0x3e, 0x5b, 0x5d, 0x7b, 0x7d, 0x2f, 0x25]) DELIM[c] = 1;
/** Bytes that end a name, number or operator: white space or a delimiter. */
const STOP = WHITE.map((w, c) => w | DELIM[c]!);

/** A word of up to three bytes as one number (length in the top byte): operators told apart without a string. */
function code(b: Uint8Array, start: number, end: number): number {
  const len = end - start;
  if (len > 3) return 0;
  let v = len << 24;
  for (let k = 0; k < len; k++) v |= b[start + k]! << (16 - 8 * k);
  return v;
}
const word = (w: string): number => code(Buffer.from(w, 'latin1'), 0, w.length);

type EventKind = 'begin' | 'end' | 'text';
/**
 * What an operator is to the scan, in one lookup per operator: an event, or `paint` for the operators
 * that put marks on the page (text showing, path painting, XObjects, shadings, inline images).
 */
const ROLE = new Map<number, EventKind | 'paint'>([
  [word('BDC'), 'begin'],
  [word('BMC'), 'begin'],
  [word('EMC'), 'end'],
  [word('BT'), 'text'],
  [word('ET'), 'text'],
  ...['Tj', 'TJ', "'", '"', 'f', 'F', 'f*', 'B', 'B*', 'b', 'b*', 'S', 's', 'Do', 'sh', 'EI'].map(
    (w) => [word(w), 'paint'] as const,
  ),
]);
const INLINE_IMAGE = word('ID');
const BT = word('BT');

/** A marked-content operator, BT or ET: its bytes, where its operands start, and whether marks were painted since the last one. */
export interface MarkEvent {
  kind: EventKind;
  start: number;
  end: number;
  operands: number;
  paintedBefore: boolean;
  /** BT (not ET), for a text event. */
  opens: boolean;
}

export interface ContentScan {
  events: MarkEvent[];
  paintedAtEnd: boolean;
}

/** Whether the word at [start, end) is an operand keyword (true, false, null). */
function keyword(b: Uint8Array, start: number, end: number): boolean {
  const len = end - start;
  if (len !== 4 && len !== 5) return false;
  const w = String.fromCharCode(b[start]!, b[start + 1]!, b[start + 2]!, b[start + 3]!, len === 5 ? b[start + 4]! : 32);
  return w === 'true ' || w === 'null ' || w === 'false';
}

/**
 * The marked-content operators, BT and ET of a content stream, with what was painted between them;
 * undefined when the stream does not lex (an unclosed string). One pass, no allocation per token.
 */
export function scanMarks(b: Uint8Array): ContentScan | undefined {
  const events: MarkEvent[] = [];
  let operands = 0;
  let painted = false;
  let i = 0;
  const n = b.length;
  while (i < n) {
    const c = b[i]!;
    if (WHITE[c]) i++;
    else if (c === 0x25) while (i < n && b[i] !== 0x0a && b[i] !== 0x0d) i++;
    else if (c === 0x28) {
      let depth = 1;
      i++;
      while (i < n && depth > 0) {
        const d = b[i]!;
        if (d === 0x5c) i++;
        else if (d === 0x28) depth++;
        else if (d === 0x29) depth--;
        i++;
      }
      if (depth > 0) return undefined;
    } else if (c === 0x3c && b[i + 1] !== 0x3c) {
      // A hex string: Chromium writes one per glyph, a few bytes long (a loop costs less than a native indexOf call).
      i++;
      while (i < n && b[i] !== 0x3e) i++;
      if (i === n) return undefined;
      i++;
    } else if (c === 0x2f) {
      i++;
      while (i < n && !STOP[b[i]!]) i++;
    } else if (DELIM[c]) i += (c === 0x3c || c === 0x3e) && b[i + 1] === c ? 2 : 1;
    else {
      const start = i;
      while (i < n && !STOP[b[i]!]) i++;
      // Numbers and the keywords true, false and null are operands.
      if ((c >= 0x30 && c <= 0x39) || c === 0x2b || c === 0x2d || c === 0x2e || keyword(b, start, i)) continue;
      // Tj and Td, most of a page of positioned glyphs, told apart without a lookup.
      if (c === 0x54 && i - start === 2) {
        const d = b[start + 1]!;
        if (d === 0x6a || d === 0x4a) painted = true;
        operands = i;
        continue;
      }
      const op = code(b, start, i);
      if (op === INLINE_IMAGE) {
        // Inline image data runs to the next whitespace-delimited EI.
        i++;
        while (i < n && !(b[i] === 0x45 && b[i + 1] === 0x49 && WHITE[b[i - 1]!] && (i + 2 >= n || WHITE[b[i + 2]!])))
          i++;
        continue;
      }
      const role = ROLE.get(op);
      if (role === 'paint') painted = true;
      else if (role) {
        events.push({ kind: role, start, end: i, operands, paintedBefore: painted, opens: op === BT });
        painted = false;
      }
      operands = i;
    }
  }
  return { events, paintedAtEnd: painted };
}

/** Whether the bytes at [start, end) are `word` (ASCII). */
function isWord(b: Uint8Array, start: number, end: number, word: string): boolean {
  if (end - start !== word.length) return false;
  for (let k = 0; k < word.length; k++) if (b[start + k] !== word.charCodeAt(k)) return false;
  return true;
}

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)$/;

/**
 * `covers` read from the bytes when the operands are names, numbers and dictionary brackets (what
 * Chromium writes: `/P <</MCID 12>>`); undefined when they hold anything else (strings, arrays,
 * comments), which the tokenizer reads.
 */
function coversLean(b: Uint8Array, from: number, to: number): boolean | undefined {
  let first = true;
  let afterMcid = false;
  let i = from;
  while (i < to) {
    const c = b[i]!;
    if (WHITE[c]) {
      i++;
      continue;
    }
    if (c === 0x2f) {
      const start = ++i;
      while (i < to && !STOP[b[i]!]) i++;
      if (first && isWord(b, start, i, 'Artifact')) return true;
      afterMcid = isWord(b, start, i, 'MCID');
    } else if ((c === 0x3c || c === 0x3e) && b[i + 1] === c) {
      i += 2;
      afterMcid = false;
    } else if (DELIM[c]) return undefined;
    else {
      const start = i;
      while (i < to && !STOP[b[i]!]) i++;
      if (afterMcid && NUMBER.test(Buffer.from(b.buffer, b.byteOffset + start, i - start).toString('latin1')))
        return true;
      afterMcid = false;
    }
    first = false;
  }
  return false;
}

/**
 * Whether a BDC or BMC opens content that is accounted for: real content (a property list with an
 * /MCID, tied to the structure tree) or an artifact.
 */
function covers(b: Uint8Array, op: MarkEvent): boolean {
  const lean = coversLean(b, op.operands, op.start);
  if (lean !== undefined) return lean;
  const tokens = contentTokens(b.subarray(op.operands, op.start)) ?? [];
  const tag = tokens[0];
  if (tag?.kind === 'name' && tag.name === 'Artifact') return true;
  return tokens.some((t, k) => t.kind === 'name' && t.name === 'MCID' && tokens[k + 1]?.kind === 'number');
}

/** Bytes to insert at offsets (in offset order), or to cut (from, to). */
type Edit = { at: number; text: string } | { from: number; to: number };

function applyEdits(b: Uint8Array, edits: Edit[]): Uint8Array {
  const out: Uint8Array[] = [];
  let at = 0;
  for (const e of edits) {
    if ('text' in e) {
      out.push(b.subarray(at, e.at), Buffer.from(e.text, 'latin1'));
      at = e.at;
    } else {
      out.push(b.subarray(at, e.from));
      at = e.to;
    }
  }
  out.push(b.subarray(at));
  return Buffer.concat(out);
}

/** A stretch of content between two cut points, and what is known of it. */
interface Piece {
  start: number;
  end: number;
  /** Inside a text object (between BT and ET). */
  inText: boolean;
  painted: boolean;
  covered: boolean;
  /** Why it ends: a marked-content operator, BT or ET, or the end of the stream. */
  cut: 'mark' | 'text' | 'end';
}

/** The stream cut at every marked-content operator and at BT and ET. */
function pieces(content: Uint8Array, scan: ContentScan): Piece[] {
  const out: Piece[] = [];
  const stack: boolean[] = [];
  let covered = 0;
  let inText = false;
  let start = 0;
  for (const ev of scan.events) {
    const cut = ev.kind === 'text' ? 'text' : 'mark';
    out.push({ start, end: ev.operands, inText, painted: ev.paintedBefore, covered: covered > 0, cut });
    if (ev.kind === 'begin') {
      const c = covers(content, ev);
      stack.push(c);
      if (c) covered++;
    } else if (ev.kind === 'end') {
      if (stack.length > 0 && stack.pop()) covered--;
    } else inText = ev.opens;
    start = ev.end;
  }
  out.push({ start, end: content.length, inText, painted: scan.paintedAtEnd, covered: covered > 0, cut: 'end' });
  return out;
}

/**
 * `content` with every painting operator that lies in no tagged or artifact sequence wrapped in
 * `/Artifact BMC … EMC`; undefined when there is none (or the stream does not lex). A wrapper starts and
 * ends where the stream already had a marked-content operator, BT or ET, holds whole text objects or
 * stays inside one, and spans as much unmarked content as it can: viewers end a run of text at every
 * marked-content bound, so one wrapper per text object would split words that belong together.
 */
export function markUncovered(content: Uint8Array): Uint8Array | undefined {
  const scan = scanMarks(content);
  if (!scan) return undefined;
  const all = pieces(content, scan);
  const edits: Edit[] = [];
  const wrap = (from: number, to: number): void => {
    const run = all.slice(from, to + 1);
    if (run.some((p) => p.painted))
      edits.push({ at: run[0]!.start, text: '\n/Artifact BMC\n' }, { at: run[run.length - 1]!.end, text: '\nEMC\n' });
  };
  let i = 0;
  while (i < all.length) {
    if (all[i]!.covered) {
      i++;
      continue;
    }
    // Uncovered pieces joined by BT and ET, up to a marked-content operator or the end.
    let j = i;
    while (all[j]!.cut === 'text' && j + 1 < all.length && !all[j + 1]!.covered) j++;
    // A first or last piece inside a text object cannot share a wrapper across its ET or BT.
    let a = i;
    let b = j;
    if (all[a]!.inText) {
      wrap(a, a);
      a++;
    }
    if (b >= a && all[b]!.inText) {
      wrap(b, b);
      b--;
    }
    if (b >= a) wrap(a, b);
    i = j + 1;
  }
  edits.sort((x, y) => ('at' in x ? x.at : x.from) - ('at' in y ? y.at : y.from));
  return edits.length > 0 ? applyEdits(content, edits) : undefined;
}

/** `content` without marked-content operators (BDC, BMC and EMC with their operands): for content drawn elsewhere as an artifact. */
export function stripMarks(content: Uint8Array): Uint8Array | undefined {
  const scan = scanMarks(content);
  if (!scan) return undefined;
  const edits: Edit[] = scan.events
    .filter((op) => op.kind === 'begin' || op.kind === 'end')
    .map((op) => ({ from: op.operands, to: op.end }));
  return edits.length > 0 ? applyEdits(content, edits) : undefined;
}
