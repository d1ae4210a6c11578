import {
  PDFArray,
  PDFDict,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFParser,
  PDFRawStream,
  PDFStreamParsingError,
  PDFXRefStreamParser,
  type PDFContext,
  type PDFObject,
  type PDFRef,
} from '@cantoo/pdf-lib';
import { decodeCapped, DecodeBudgetError } from './decode.js';
import { KeywordIndex } from './keyword-index.js';
import { LazyObjects, type ObjectIndex } from './lazy-objects.js';
import { maybeParseTrailerDict, maybeRecoverRoot, parseIndirectObjectHeader } from '../pdf-lib-internals.js';

/** Deeper arrays and dictionaries are a parse error: later walkers (pdf-lib's writer too) recurse. */
const MAX_OBJECT_DEPTH = 256;

/** Bytes all object and cross-reference streams of one file may decode to: memory stays proportional to the input. */
function decodeBudget(inputBytes: number): number {
  return 16 * 1024 * 1024 + 16 * inputBytes;
}

/** The crypto factory pdf-lib's parser takes (its type is not exported). */
export type CryptoFactory = ConstructorParameters<typeof PDFParser>[5];

const TYPE = PDFName.of('Type');
const OBJ_STM = PDFName.of('ObjStm');
const XREF = PDFName.of('XRef');
const ENDSTREAM = 'endstream';
const ENDOBJ = 'endobj';

/**
 * pdf-lib's parser with bounded costs (see docs/contributing/pdf-kernel.md, "Hostile input"):
 * - recovery from a broken stream or object searches a keyword index instead
 *   of scanning the rest of the file once per broken object;
 * - object and cross-reference streams are decoded within a byte budget and
 *   their counts (/N, /First, /Size, /Index, /W) checked against the decoded
 *   length before pdf-lib loops over them;
 * - nesting deeper than MAX_OBJECT_DEPTH is a broken object.
 * A budget overrun stops the parse and is reported in `fatal`.
 */
export class HardenedParser extends PDFParser {
  readonly #index: KeywordIndex;
  readonly #bytes: Uint8Array;
  readonly #length: number;
  #depth = 0;
  #budget: number;
  /** Why the parse was abandoned (the caller turns it into an InvalidPdfError). */
  fatal?: string;

  /** `index`: the keyword index of the same bytes, when an earlier parser of them built one (it depends on the bytes only). */
  constructor(bytes: Uint8Array, crypto?: CryptoFactory, index?: KeywordIndex) {
    // objectsPerTick Infinity: pdf-lib's default waits on a timer every 100 objects.
    super(bytes, Number.POSITIVE_INFINITY, false, false, false, crypto, false);
    // Stream data and recovered objects are views of the input, not copies (pdf-lib's ByteStream
    // copies each slice): a parse then holds the file once, in the caller's bytes, and an update of
    // a 20 MB scan is not 20 MB more before its output is written. pdf-lib decodes and decrypts into
    // new arrays and never writes into stream data; the input must not change while its parse is used.
    this.bytes.slice = (start, end) => bytes.subarray(start, end);
    this.#index = index ?? new KeywordIndex(bytes);
    this.#bytes = bytes;
    this.#length = bytes.length;
    this.#budget = decodeBudget(bytes.length);
  }

  static async parse(bytes: Uint8Array, crypto?: CryptoFactory): Promise<{ context: PDFContext; fatal?: string }> {
    let index: KeywordIndex | undefined;
    if (!crypto) {
      // A plain file (one classic cross-reference table that names every object header, nothing
      // compressed or encrypted): each object is parsed the first time it is looked up. A fill
      // reads a fraction of a form's objects (the W-9: ~100 of 1,000), and parsing all of them up front
      // on cold code would be a fifth of a cold `castpress fill`.
      const lazy = new HardenedParser(bytes);
      index = lazy.#index;
      const objects = LazyObjects.indexOf(lazy, bytes, index);
      const context = objects && lazy.#lazyContext(objects);
      if (context) return { context };
    }
    // The sequential parse; after a lazy attempt, with the keyword positions that attempt found (the object headers).
    const parser = new HardenedParser(bytes, crypto, index);
    const context = await parser.parseDocument();
    return { context, fatal: parser.fatal };
  }

  /**
   * The context of a file `index` describes, whose objects are parsed on first lookup (lazy-objects.ts);
   * undefined when an object that may be a cross-reference stream is not one as expected (the full parse
   * then reads the file, and reports a stream that inflates past the budget).
   */
  #lazyContext(index: ObjectIndex): PDFContext | undefined {
    const context = this.context;
    context.header = index.header;
    context.trailerInfo = {};
    context.largestObjectNumber = index.largestObjectNumber;
    // pdf-lib keeps a context's objects in one private map; this one parses an object when asked for it.
    Object.defineProperty(context, 'indirectObjects', {
      value: new LazyObjects(
        this.#bytes,
        index,
        (offset) => this.#objectAt(offset),
        (offset) => {
          this.bytes.moveTo(offset);
          this.recoverInvalidObject();
        },
      ),
    });
    // What the sequential parse takes from the whole file: cross-reference streams' trailer entries
    // in file order, then the trailer's (the table is the file's last section).
    for (const ref of index.eager) {
      const object = context.lookup(ref);
      if (this.fatal || !(object instanceof PDFRawStream) || object.dict.get(TYPE) !== XREF) return undefined;
      PDFXRefStreamParser.forStream(object).parseIntoContext();
    }
    this.bytes.moveTo(index.trailer);
    maybeParseTrailerDict(this);
    // The end of pdf-lib's parseDocument (the file has no object 0: LazyObjects.indexOf).
    maybeRecoverRoot(this);
    return context;
  }

  /** The object whose header is at `offset`, parsed as pdf-lib's parseIndirectObject does. Throws what the parse throws. */
  #objectAt(offset: number): { ref: PDFRef; object: PDFObject } {
    this.bytes.moveTo(offset);
    const ref = parseIndirectObjectHeader(this);
    this.skipWhitespaceAndComments();
    const object = this.parseObject(ref);
    return { ref, object };
  }

  /** The indirect object whose header is at `offset`, and the offset its parse ended at. Throws what the parse throws. */
  indirectObjectAt(offset: number): { ref: PDFRef; object: PDFObject; end: number } {
    const { ref, object } = this.#objectAt(offset);
    return { ref, object, end: this.bytes.offset() };
  }

  /** The direct object at `offset` (a trailer dictionary, an object in an object stream's data). Throws what the parse throws. */
  directObjectAt(offset: number): { object: PDFObject; end: number } {
    this.bytes.moveTo(offset);
    this.skipWhitespaceAndComments();
    const object = this.parseObject();
    return { object, end: this.bytes.offset() };
  }

  override parseObject(ref?: PDFRef): PDFObject {
    if (this.#depth >= MAX_OBJECT_DEPTH) throw new Error(`objects nested more than ${MAX_OBJECT_DEPTH} deep`);
    this.#depth++;
    let object: PDFObject;
    try {
      object = super.parseObject(ref);
    } finally {
      this.#depth--;
    }
    if (this.#depth === 0 && object instanceof PDFRawStream) return this.#structural(object);
    return object;
  }

  protected override findEndOfStreamFallback(startPos: { line: number; column: number; offset: number }): number {
    const from = this.bytes.offset();
    const at = this.#index.next(ENDSTREAM, from);
    if (at < 0) throw new PDFStreamParsingError(startPos);
    let end = at;
    if (end > from && this.bytes.peekAt(end - 1) === 0x0a) end--;
    if (end > from && this.bytes.peekAt(end - 1) === 0x0d) end--;
    this.bytes.moveTo(at + ENDSTREAM.length);
    return end;
  }

  /** Replaces pdf-lib's byte-by-byte search for `endobj` (to the end of the file when it is missing). */
  recoverInvalidObject(): PDFRef | undefined {
    const ref = parseIndirectObjectHeader(this);
    this.skipWhitespaceAndComments();
    const start = this.bytes.offset();
    const at = this.#index.next(ENDOBJ, start);
    // No `endobj` ahead: drop the object and let the caller look for what follows its header (as pdf-lib does).
    if (at < 0) return undefined;
    this.context.assign(ref, PDFInvalidObject.of(this.bytes.slice(start, at)));
    this.bytes.moveTo(at + ENDOBJ.length);
    return ref;
  }

  /** Replaces pdf-lib's skipJibberish, which tries an object header (and throws) at every printable byte. */
  skipToNextSection(): void {
    this.skipWhitespaceAndComments();
    const at = this.#index.nextSectionStart(this.bytes.offset());
    this.bytes.moveTo(at < 0 ? this.#length : at);
  }

  /** Object and cross-reference streams: decoded here within the budget, their counts checked. */
  #structural(stream: PDFRawStream): PDFObject {
    const type = stream.dict.lookup(TYPE);
    if (type !== OBJ_STM && type !== XREF) return stream;
    let decoded: Uint8Array;
    try {
      decoded = decodeCapped(stream, this.#budget);
    } catch (e) {
      if (!(e instanceof DecodeBudgetError)) throw e;
      this.fatal = `a compressed ${type === OBJ_STM ? 'object' : 'cross-reference'} stream inflates past the limit of ${e.limit} bytes`;
      // Stop here: nothing after a bomb is worth the time.
      this.bytes.moveTo(this.#length);
      return PDFInvalidObject.of(new Uint8Array());
    }
    this.#budget -= decoded.length;
    if (type === XREF) decoded = unpredicted(stream.dict, decoded);
    if (type === OBJ_STM) checkObjectStream(stream.dict, decoded.length);
    else checkXRefStream(stream.dict, decoded.length);
    const dict = PDFDict.fromMapWithContext(new Map(stream.dict.entries()), this.context);
    dict.delete(PDFName.of('Filter'));
    dict.delete(PDFName.of('DecodeParms'));
    return PDFRawStream.of(dict, decoded);
  }
}

Object.defineProperty(HardenedParser.prototype, 'tryToParseInvalidIndirectObject', {
  value: HardenedParser.prototype.recoverInvalidObject,
});
Object.defineProperty(HardenedParser.prototype, 'skipJibberish', {
  value: HardenedParser.prototype.skipToNextSection,
});

/**
 * A cross-reference stream's rows with a PNG predictor (/DecodeParms /Predictor 10-15, as Acrobat
 * and qpdf write them) undone; the data as it is without one. Rows are /Columns bytes wide.
 */
function unpredicted(dict: PDFDict, data: Uint8Array): Uint8Array {
  const parms = dict.lookup(PDFName.of('DecodeParms'));
  if (!(parms instanceof PDFDict)) return data;
  const predictor = intOf(parms.lookup(PDFName.of('Predictor'))) ?? 1;
  const columns = intOf(parms.lookup(PDFName.of('Columns'))) ?? 1;
  if (predictor < 10 || columns < 1) return data;
  const rows = Math.floor(data.length / (columns + 1));
  const out = new Uint8Array(rows * columns);
  for (let r = 0; r < rows; r++) {
    const kind = data[r * (columns + 1)]!;
    for (let c = 0; c < columns; c++) {
      const raw = data[r * (columns + 1) + 1 + c]!;
      const up = r > 0 ? out[(r - 1) * columns + c]! : 0;
      const left = c > 0 ? out[r * columns + c - 1]! : 0;
      const corner = r > 0 && c > 0 ? out[(r - 1) * columns + c - 1]! : 0;
      let add = 0;
      if (kind === 1) add = left;
      else if (kind === 2) add = up;
      else if (kind === 3) add = (left + up) >> 1;
      else if (kind === 4) {
        const p = left + up - corner;
        const [pa, pb, pc] = [Math.abs(p - left), Math.abs(p - up), Math.abs(p - corner)];
        add = pa <= pb && pa <= pc ? left : pb <= pc ? up : corner;
      }
      out[r * columns + c] = (raw + add) & 0xff;
    }
  }
  return out;
}

function intOf(obj: PDFObject | undefined): number | undefined {
  if (!(obj instanceof PDFNumber)) return undefined;
  const n = obj.asNumber();
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/** pdf-lib reads /N pairs of integers, then objects at /First + offset. */
function checkObjectStream(dict: PDFDict, length: number): void {
  const n = intOf(dict.lookup(PDFName.of('N')));
  const first = intOf(dict.lookup(PDFName.of('First')));
  if (n === undefined || first === undefined) throw new Error('object stream without a valid /N or /First');
  // Each entry takes at least four bytes ("1 2 "); /First points inside the data.
  if (first > length || n * 4 > first + 1)
    throw new Error(`object stream: /N ${n} and /First ${first} do not fit its ${length} bytes`);
}

/** pdf-lib reads one row of sum(/W) bytes per entry of /Index (or /Size), past the end of the data if asked to. */
function checkXRefStream(dict: PDFDict, length: number): void {
  const w = dict.lookup(PDFName.of('W'));
  if (!(w instanceof PDFArray) || w.size() !== 3) throw new Error('cross-reference stream without a valid /W');
  const widths = w.asArray().map((x) => intOf(dict.context.lookup(x)));
  if (widths.some((x) => x === undefined || x > 8)) throw new Error('cross-reference stream with an invalid /W');
  const row = widths.reduce<number>((a, b) => a + b!, 0);
  const size = intOf(dict.lookup(PDFName.of('Size')));
  if (size === undefined) throw new Error('cross-reference stream without a valid /Size');
  const index = dict.lookup(PDFName.of('Index'));
  let entries = size;
  if (index !== undefined) {
    if (!(index instanceof PDFArray) || index.size() % 2 !== 0)
      throw new Error('cross-reference stream with an invalid /Index');
    entries = 0;
    for (let i = 0; i < index.size(); i += 2) {
      const first = intOf(index.lookup(i));
      const count = intOf(index.lookup(i + 1));
      if (first === undefined || count === undefined) throw new Error('cross-reference stream with an invalid /Index');
      entries += count;
    }
  }
  if (entries * Math.max(row, 1) > length + row) {
    throw new Error(`cross-reference stream: ${entries} entries do not fit its ${length} bytes`);
  }
}
