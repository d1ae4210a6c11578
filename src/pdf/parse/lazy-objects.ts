import { PDFInvalidObject, PDFRef, type PDFHeader, type PDFObject } from '@cantoo/pdf-lib';
import { firstAtLeast, isDigit, isWhite, type KeywordIndex } from './keyword-index.js';

/** An object of the file: its generation, where its header starts, and where the next object (or the table) starts. */
interface Entry {
  generation: number;
  offset: number;
  end: number;
}

/**
 * What a lazy parse needs to know of a file before reading any object: where each object's header
 * is, and the header and largest object number pdf-lib's sequential parse would have set.
 */
export interface ObjectIndex {
  header: PDFHeader;
  largestObjectNumber: number;
  /** Object number → entry, in file order. */
  objects: Map<number, Entry>;
  /**
   * Objects that may be cross-reference streams (they hold `/XRef`), in file order: parsed when
   * the file is opened, as their entries change the trailer a sequential parse ends with.
   */
  eager: PDFRef[];
  /** Offset of the `trailer` keyword. */
  trailer: number;
}

/** pdf-lib's parser steps the index is read with (private in its types). */
interface IndexSteps {
  bytes: { moveTo(offset: number): void; offset(): number; done(): boolean };
  parseHeader(): PDFHeader;
  skipWhitespaceAndComments(): void;
  maybeParseTrailerDict(): void;
  maybeParseTrailer(): void;
  skipJibberish(): void;
}

/** Bytes whose presence anywhere sends a file to the full parse: what a lazy parse does not handle. */
const UNHANDLED = ['/Encrypt', '/ObjStm'];

/** Digits read as a number: at most 10 (pdf-lib reads any count; longer ones go to the full parse). */
const MAX_DIGITS = 10;

/** Bytes that end a name (PDF 32000 §7.3.5: white space and delimiters). */
const endsName = (c: number | undefined): boolean =>
  c === undefined || isWhite(c) || '()<>[]{}/%'.includes(String.fromCharCode(c));

/** Whether `bytes` write one of the names the full parse handles with `#` escapes (`/X#52ef` is `/XRef`). */
function escapedName(bytes: Buffer): boolean {
  for (let at = bytes.indexOf(0x23); at >= 0; at = bytes.indexOf(0x23, at + 1)) {
    let start = at;
    while (!endsName(bytes[start - 1])) start--;
    if (bytes[start - 1] !== 0x2f) continue;
    let end = at;
    while (!endsName(bytes[end])) end++;
    const name = bytes
      .toString('latin1', start - 1, end)
      .replace(/#([0-9A-Fa-f]{2})/g, (_, hex: string) => String.fromCharCode(parseInt(hex, 16)));
    if (['/XRef', ...UNHANDLED].some((k) => name.startsWith(k))) return true;
    at = end;
  }
  return false;
}

/** The only occurrence of `keyword` in `bytes`, or -1 (none, or more than one). */
function only(bytes: Buffer, keyword: string): number {
  const at = bytes.indexOf(keyword, 0, 'latin1');
  return at >= 0 && bytes.indexOf(keyword, at + 1, 'latin1') < 0 ? at : -1;
}

/** The number written in `bytes` from `at` to the first non-digit, and where that is; undefined without digits or with too many. */
function digits(bytes: Buffer, at: number): { value: number; end: number } | undefined {
  let value = 0;
  let i = at;
  while (isDigit(bytes[i])) {
    if (i - at === MAX_DIGITS) return undefined;
    value = value * 10 + bytes[i]! - 0x30;
    i++;
  }
  return i === at ? undefined : { value, end: i };
}

/**
 * The in-use entries of a cross-reference table written as PDF 32000 §7.5.4 says (subsection lines,
 * 20-byte entries), and where the table ends (the white space after it skipped); undefined for any
 * other form: the full parse reads those.
 */
function readTable(bytes: Buffer, xref: number): { entries: Map<number, Omit<Entry, 'end'>>; end: number } | undefined {
  const entries = new Map<number, Omit<Entry, 'end'>>();
  let i = xref + 4;
  while (isWhite(bytes[i])) i++;
  while (isDigit(bytes[i])) {
    const first = digits(bytes, i);
    if (!first || bytes[first.end] !== 0x20) return undefined;
    const count = digits(bytes, first.end + 1);
    if (!count) return undefined;
    i = count.end;
    while (bytes[i] === 0x20) i++;
    if (bytes[i] === 0x0d && bytes[i + 1] === 0x0a) i += 2;
    else if (bytes[i] === 0x0d || bytes[i] === 0x0a) i++;
    else return undefined;
    for (let k = 0; k < count.value; k++, i += 20) {
      const offset = digits(bytes, i);
      const generation = digits(bytes, i + 11);
      const kind = bytes[i + 17];
      const eol = (bytes[i + 18]! << 8) | bytes[i + 19]!;
      if (offset?.end !== i + 10 || bytes[i + 10] !== 0x20 || generation?.end !== i + 16 || bytes[i + 16] !== 0x20)
        return undefined;
      if ((kind !== 0x6e && kind !== 0x66) || (eol !== 0x200d && eol !== 0x200a && eol !== 0x0d0a)) return undefined;
      if (kind === 0x6e) {
        if (entries.has(first.value + k)) return undefined;
        entries.set(first.value + k, { generation: generation.value, offset: offset.value });
      }
    }
    while (isWhite(bytes[i])) i++;
  }
  return { entries, end: i };
}

const ENDOBJ = Buffer.from('endobj', 'latin1');

/** Whether only white space stands between an `endobj` and `at`. */
function afterEndobj(bytes: Buffer, at: number): boolean {
  let i = at;
  while (i > 0 && isWhite(bytes[i - 1])) i--;
  return i >= ENDOBJ.length && bytes.compare(ENDOBJ, 0, ENDOBJ.length, i - ENDOBJ.length, i) === 0;
}

/**
 * What stands between an object's header and its `endobj` (white space around it left out): the
 * object as written. `indexOf` checked the header (`num ws gen ws obj`) and that `endobj` and white
 * space end the object's span.
 */
function bodyOf(bytes: Buffer, { offset, end }: Entry): Uint8Array {
  let from = offset;
  for (const skip of [isDigit, isWhite, isDigit, isWhite]) while (skip(bytes[from])) from++;
  from += 'obj'.length;
  while (isWhite(bytes[from])) from++;
  let to = end;
  while (isWhite(bytes[to - 1])) to--;
  to -= ENDOBJ.length;
  while (to > from && isWhite(bytes[to - 1])) to--;
  return bytes.subarray(from, to);
}

/** The object whose header is at an offset, parsed. */
export type ParseAt = (offset: number) => { ref: PDFRef; object: PDFObject };

/**
 * A PDF context's object map (pdf-lib's `indirectObjects`) whose objects are parsed on first lookup.
 * Only for files where that gives what pdf-lib's sequential parse gives (`indexOf`): one section,
 * a cross-reference table naming exactly the object headers found in the file at their offsets,
 * no object streams, no encryption. Anything that walks the whole map parses the rest first, and
 * sees the objects in file order, as after a sequential parse, except a write that asked for the
 * unread ones as their bytes (`writingUnreadAsBytes`). An object whose parse fails is
 * recovered as the sequential parse recovers it (`recover`: an invalid object up to `endobj`).
 */
export class LazyObjects extends Map<PDFRef, PDFObject> {
  readonly #index: ObjectIndex;
  readonly #bytes: Buffer;
  readonly #parseAt: ParseAt;
  readonly #recover: (offset: number) => void;
  /** File objects not looked up yet, by number (one set or deleted is no longer the file's). */
  readonly #pending: Set<number>;
  #complete = false;
  /** While set, `entries()` gives objects not looked up yet as their bytes instead of parsing them. */
  #unreadAsBytes = false;

  constructor(bytes: Uint8Array, index: ObjectIndex, parseAt: ParseAt, recover: (offset: number) => void) {
    super();
    this.#index = index;
    this.#bytes = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#parseAt = parseAt;
    this.#recover = recover;
    this.#pending = new Set(index.objects.keys());
  }

  /**
   * The index of `bytes` read with `parser` (a fresh HardenedParser over them), or undefined when
   * a lazy parse could differ from the sequential one: more than one section (an incremental
   * update), a cross-reference table that is missing, not in the standard form, or that disagrees
   * with the object headers in the file, object streams, encryption, bytes before the first object.
   */
  static indexOf(parser: unknown, bytes: Uint8Array, keywords: KeywordIndex): ObjectIndex | undefined {
    const steps = parser as IndexSteps;
    const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    if (UNHANDLED.some((k) => buffer.indexOf(k, 0, 'latin1') >= 0) || escapedName(buffer)) return undefined;
    const startxref = only(buffer, 'startxref');
    const trailer = only(buffer, 'trailer');
    const xref = buffer.indexOf('xref', 0, 'latin1');
    if (
      startxref < 0 ||
      trailer < 0 ||
      xref < 0 ||
      xref >= trailer ||
      buffer.indexOf('xref', xref + 1) !== startxref + 5
    )
      return undefined;
    const { starts, ends } = keywords.objectHeaders();
    if (starts.length === 0 || starts[starts.length - 1]! >= xref) return undefined;
    const table = readTable(buffer, xref);
    if (!table || table.end !== trailer || table.entries.size !== starts.length) return undefined;
    // Every header is the table's entry for its number, at its offset (the scan found `num ws gen ws obj`),
    // and follows the previous object's `endobj` (a header after a `%` on its line is in a comment, which
    // the sequential parse skips), as the table follows the last object's.
    if (![...starts.slice(1), xref].every((start) => afterEndobj(buffer, start))) return undefined;
    const objects = new Map<number, Entry>();
    let largestObjectNumber = 0;
    for (let i = 0; i < starts.length; i++) {
      const number = digits(buffer, starts[i]!);
      let at = ends[i]! + 1;
      while (isWhite(buffer[at])) at++;
      const generation = digits(buffer, at);
      const entry = number && table.entries.get(number.value);
      if (!number || number.end !== ends[i]! + 1 || number.value === 0 || !generation || !entry) return undefined;
      if (entry.offset !== starts[i] || entry.generation !== generation.value) return undefined;
      objects.set(number.value, { ...entry, end: starts[i + 1] ?? xref });
      largestObjectNumber = Math.max(largestObjectNumber, number.value);
    }
    try {
      const header = steps.parseHeader();
      steps.skipWhitespaceAndComments();
      if (steps.bytes.offset() !== starts[0]) return undefined;
      // The trailer and what follows it, read as the sequential parse reads them: the file's end.
      steps.bytes.moveTo(trailer);
      steps.maybeParseTrailerDict();
      steps.maybeParseTrailer();
      steps.skipJibberish();
      if (!steps.bytes.done()) return undefined;
      const eager = new Set<PDFRef>();
      const numbers = [...objects.keys()];
      for (let at = buffer.indexOf('/XRef', 0, 'latin1'); at >= 0; at = buffer.indexOf('/XRef', at + 1, 'latin1')) {
        const before = firstAtLeast(starts, at) - 1;
        if (before >= 0) eager.add(PDFRef.of(numbers[before]!, objects.get(numbers[before]!)!.generation));
      }
      return { header, largestObjectNumber, objects, eager: [...eager], trailer };
    } catch {
      return undefined;
    }
  }

  override get(ref: PDFRef): PDFObject | undefined {
    this.#take(ref);
    return super.get(ref);
  }

  override has(ref: PDFRef): boolean {
    this.#take(ref);
    return super.has(ref);
  }

  override set(ref: PDFRef, object: PDFObject): this {
    // Map's constructor calls set before the fields exist; this map is never given entries.
    if (this.#index?.objects.get(ref.objectNumber)?.generation === ref.generationNumber)
      this.#pending.delete(ref.objectNumber);
    return super.set(ref, object);
  }

  override delete(ref: PDFRef): boolean {
    this.#take(ref);
    return super.delete(ref);
  }

  override get size(): number {
    this.#completed();
    return super.size;
  }

  override entries(): MapIterator<[PDFRef, PDFObject]> {
    if (this.#unreadAsBytes && !this.#complete) return this.#withUnreadAsBytes();
    this.#completed();
    return super.entries();
  }

  /**
   * Runs `write` (a full save of the context) with the objects nothing looked up given to it as the
   * bytes they were read from (a `PDFInvalidObject`, which pdf-lib writes as it is): what was never
   * read cannot have changed, and is neither parsed nor serialised again. Lookups still parse.
   */
  async writingUnreadAsBytes<T>(write: () => Promise<T>): Promise<T> {
    this.#unreadAsBytes = true;
    try {
      return await write();
    } finally {
      this.#unreadAsBytes = false;
    }
  }

  /** Every object: those looked up, set or recovered as they are, the others as their bytes in the file. */
  #withUnreadAsBytes(): MapIterator<[PDFRef, PDFObject]> {
    const all = new Map(super.entries());
    for (const number of this.#pending) {
      const entry = this.#index.objects.get(number)!;
      all.set(PDFRef.of(number, entry.generation), PDFInvalidObject.of(bodyOf(this.#bytes, entry)));
    }
    return all.entries();
  }

  override keys(): MapIterator<PDFRef> {
    this.#completed();
    return super.keys();
  }

  override values(): MapIterator<PDFObject> {
    this.#completed();
    return super.values();
  }

  override forEach(
    callback: (value: PDFObject, key: PDFRef, map: Map<PDFRef, PDFObject>) => void,
    that?: unknown,
  ): void {
    this.#completed();
    super.forEach(callback, that);
  }

  override [Symbol.iterator](): MapIterator<[PDFRef, PDFObject]> {
    return this.entries();
  }

  /** Parses the file's object `ref` names unless it was looked up, set or deleted before. */
  #take(ref: PDFRef): void {
    const entry = this.#index.objects.get(ref.objectNumber);
    if (entry?.generation !== ref.generationNumber || !this.#pending.delete(ref.objectNumber)) return;
    let parsed: ReturnType<ParseAt>;
    try {
      parsed = this.#parseAt(entry.offset);
    } catch {
      // What pdf-lib's parseIndirectObjects does with an object that does not parse.
      this.#recover(entry.offset);
      return;
    }
    if (parsed.ref === ref) super.set(ref, parsed.object);
  }

  /** Every file object parsed, and the map in the order a sequential parse fills it (file order, then what was set since). */
  #completed(): void {
    if (this.#complete) return;
    this.#complete = true;
    const fromFile: Array<[PDFRef, PDFObject]> = [];
    const inFile = new Set<PDFRef>();
    for (const [number, { generation }] of this.#index.objects) {
      const ref = PDFRef.of(number, generation);
      inFile.add(ref);
      const object = this.get(ref);
      if (object !== undefined) fromFile.push([ref, object]);
    }
    const later = [...super.entries()].filter(([ref]) => !inFile.has(ref));
    super.clear();
    for (const [ref, object] of [...fromFile, ...later]) super.set(ref, object);
  }
}
