import {
  PDFArray,
  PDFCatalog,
  PDFContentStream,
  PDFContext,
  PDFDict,
  PDFDocument,
  PDFHexString,
  PDFNumber,
  PDFObjectStream,
  PDFPageLeaf,
  PDFPageTree,
  PDFRawStream,
  PDFStreamWriter,
  PDFString,
  PDFWriter,
  type PDFObject,
  PDFRef,
} from '@cantoo/pdf-lib';
import { InvalidPdfError } from '../../errors/index.js';
import { loadPdf } from './load.js';
import { PDF } from './names.js';
import { rewritePdf } from './new-document.js';
import { readTail } from './tail.js';
import { completeCrossReferences } from '../parse/xref-complete.js';
import { documentOver, releaseDocument, releaseWrittenStream } from '../pdf-lib-internals.js';

/**
 * A parsed PDF ready to take incremental updates: the bytes an update is
 * appended to, their parse (read-only: sessions copy what they change), and
 * what the new cross-reference section must continue.
 */
export interface BasePdf {
  /** The bytes every update starts with. */
  bytes: Uint8Array;
  /** The parse of `bytes`; never changed by a session, so it can be shared (and cached). */
  doc: PDFDocument;
  /** Offset of the last cross-reference section. */
  startXRef: number;
  /** The last section is a cross-reference stream: the update writes one too. */
  xrefStream: boolean;
  /** New objects are numbered above this. */
  largestObjectNumber: number;
}

/**
 * Opens bytes for updates. A file that cannot take one as it is (encrypted:
 * pdf-lib decrypts on load; a wrong `startxref`) is written out clean once and
 * that copy is the base: its bytes are then the prefix, not the input's.
 * Bad input: `InvalidPdfError` naming `property`.
 */
export async function openForUpdate(bytes: Uint8Array, property = 'pdf'): Promise<BasePdf> {
  const doc = await loadPdf(bytes, property);
  let base = bytes;
  let tail = readTail(bytes);
  if (!tail || Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).includes('/Encrypt')) {
    base = await rewritePdf(doc);
    tail = readTail(base);
    if (!tail) throw new InvalidPdfError('Cannot write the PDF back out', property);
  }
  return {
    bytes: base,
    doc,
    startXRef: tail.startXRef,
    xrefStream: tail.xrefStream,
    largestObjectNumber: Math.max(doc.context.largestObjectNumber, tail.size - 1),
  };
}

/**
 * One incremental update (PDF 32000 §7.5.6) of a base PDF. `doc` is a pdf-lib
 * document over the base whose objects are copied from the base's parse the
 * first time they are looked up, so anything may read and change them (field
 * writers, page drawing) without touching the shared parse. `commit` appends
 * the objects that are new, assigned, or differ from the base after the base's
 * bytes, which stay an exact prefix of the output.
 */
export class UpdateSession {
  readonly doc: PDFDocument;
  readonly #base: BasePdf;
  readonly #objects: CopyOnRead;

  private constructor(base: BasePdf) {
    this.#base = base;
    const context = PDFContext.create();
    this.#objects = new CopyOnRead(base.doc.context, context);
    // pdf-lib keeps a context's objects in one private map; ours falls through to the base.
    Object.defineProperty(context, 'indirectObjects', { value: this.#objects });
    context.largestObjectNumber = base.largestObjectNumber;
    context.header = base.doc.context.header;
    const trailer = base.doc.context.trailerInfo;
    context.trailerInfo = { Root: trailer.Root, Info: trailer.Info, ID: trailer.ID };
    this.doc = documentOver(context, true, false);
  }

  /** A session over `base` (from `openForUpdate`, or a cached one). */
  static over(base: BasePdf): UpdateSession {
    return new UpdateSession(base);
  }

  /** Opens `bytes` (see `openForUpdate`) and starts a session. */
  static async open(bytes: Uint8Array, property = 'pdf'): Promise<UpdateSession> {
    return new UpdateSession(await openForUpdate(bytes, property));
  }

  get context(): PDFContext {
    return this.doc.context;
  }

  /** The bytes the output starts with. */
  get baseBytes(): Uint8Array {
    return this.#base.bytes;
  }

  #loaderChanged(): PDFRef[] {
    const refs: PDFRef[] = [];
    const root = this.context.trailerInfo.Root;
    if (root instanceof PDFRef) refs.push(root);
    const form = this.doc.catalog.get(PDF.AcroForm);
    if (form instanceof PDFRef && this.context.lookup(form) !== undefined) refs.push(form);
    return refs;
  }

  /** Base bytes + one update holding every new or changed object. Returns the base bytes when nothing changed. */
  async commit(): Promise<Uint8Array> {
    await this.doc.flush();
    const write = new Set<number>();
    for (const [ref, obj] of this.#objects.own()) {
      const original = this.#objects.originals.get(ref);
      if (original === undefined || this.#objects.assigned.has(ref) || !sameObject(obj, original))
        write.add(ref.objectNumber);
    }
    if (write.size > 0) {
      // loadPdf takes XFA, /NeedsRendering and usage rights out of the parse, not out of the bytes:
      // an update that changes anything also writes the catalog and the form, so those changes reach the output.
      for (const ref of this.#loaderChanged()) write.add(ref.objectNumber);
    }
    const removed = [...this.#objects.removed];
    if (write.size === 0 && removed.length === 0) return this.#base.bytes;
    // pdf-lib's writer takes a skipped object with the largest number for its own cross-reference stream
    // and writes /Size one short: copies read but left unchanged are not handed to it.
    this.#objects.forgetUnchanged(write);
    return appendObjects(this.context, this.#base, write, removed);
  }

  /**
   * Ends the session once its output is written: the session and its `doc` are not used after.
   * Drops the object table and empties the content streams drawn in it, the object streams the
   * writer made and the document's own lists. pdf-lib's documents, writers and streams keep themselves alive until V8's next full
   * collection (closures V8 allocates in the old generation), and everything they reach survives
   * the young generation's collections until then: emptied, they reach nothing of the update.
   */
  close(): void {
    for (const [, obj] of this.#objects.own()) if (obj instanceof PDFContentStream) releaseWrittenStream(obj);
    for (const stream of this.#objects.objectStreams) releaseWrittenStream(stream);
    this.#objects.release();
    releaseDocument(this.doc);
  }
}

/**
 * The session's object table: its own objects, plus base objects copied in on
 * first lookup (`originals` keeps what they were copied from, to tell whether
 * they changed).
 */
class CopyOnRead extends Map<PDFRef, PDFObject> {
  readonly originals = new Map<PDFRef, PDFObject>();
  readonly assigned = new Set<PDFRef>();
  readonly removed = new Set<PDFRef>();
  readonly #base: PDFContext;
  readonly #context: PDFContext;

  constructor(base: PDFContext, context: PDFContext) {
    super();
    this.#base = base;
    this.#context = context;
  }

  /**
   * The object streams pdf-lib's writer assigned here while writing (it deletes them from the table
   * afterwards), for `UpdateSession.close` to empty.
   */
  readonly objectStreams: PDFObjectStream[] = [];

  /** Forgets every object of the session (see `UpdateSession.close`). */
  release(): void {
    this.objectStreams.length = 0;
    super.clear();
    this.originals.clear();
    this.assigned.clear();
    this.removed.clear();
  }

  /** Objects this session holds: new, assigned, or copied from the base. */
  own(): IterableIterator<[PDFRef, PDFObject]> {
    return super.entries();
  }

  override get(ref: PDFRef): PDFObject | undefined {
    const own = super.get(ref);
    if (own !== undefined || this.removed.has(ref)) return own;
    const original = this.#base.lookup(ref);
    if (original === undefined) return undefined;
    const copy = copyObject(original, this.#context);
    super.set(ref, copy);
    this.originals.set(ref, original);
    return copy;
  }

  /** Drops the copies of base objects that are not in `write` (they are read from the base again if looked up). */
  forgetUnchanged(write: ReadonlySet<number>): void {
    for (const ref of [...this.originals.keys()]) {
      if (write.has(ref.objectNumber)) continue;
      super.delete(ref);
      this.originals.delete(ref);
    }
  }

  override has(ref: PDFRef): boolean {
    return super.has(ref) || (!this.removed.has(ref) && this.#base.lookup(ref) !== undefined);
  }

  override set(ref: PDFRef, obj: PDFObject): this {
    // Map's constructor calls set before the fields exist; the session never passes entries.
    if (obj instanceof PDFObjectStream) this.objectStreams?.push(obj);
    this.assigned?.add(ref);
    this.removed?.delete(ref);
    return super.set(ref, obj);
  }

  override delete(ref: PDFRef): boolean {
    const had = this.has(ref);
    super.delete(ref);
    this.assigned.delete(ref);
    this.originals.delete(ref);
    if (this.#base.lookup(ref) !== undefined) this.removed.add(ref);
    return had;
  }
}

/** A deep copy of a base object's direct structure into `context`; references, names, numbers and strings are shared (pdf-lib never changes them). */
function copyObject(obj: PDFObject, context: PDFContext): PDFObject {
  if (obj instanceof PDFRawStream) return PDFRawStream.of(copyObject(obj.dict, context) as PDFDict, obj.contents);
  if (obj instanceof PDFDict) {
    const map = new Map<Parameters<PDFDict['set']>[0], PDFObject>();
    for (const [k, v] of obj.entries()) map.set(k, copyObject(v, context));
    if (obj instanceof PDFPageLeaf) return PDFPageLeaf.fromMapWithContext(map, context);
    if (obj instanceof PDFPageTree) return PDFPageTree.fromMapWithContext(map, context);
    if (obj instanceof PDFCatalog) return PDFCatalog.fromMapWithContext(map, context);
    return PDFDict.fromMapWithContext(map, context);
  }
  if (obj instanceof PDFArray) {
    const array = PDFArray.withContext(context);
    for (const v of obj.asArray()) array.push(copyObject(v, context));
    return array;
  }
  return obj;
}

/** Same PDF value: structure compared, atoms by value (names, refs, booleans and null are interned). */
function sameObject(a: PDFObject, b: PDFObject): boolean {
  if (a === b) return true;
  if (a instanceof PDFRawStream)
    return b instanceof PDFRawStream && a.contents === b.contents && sameObject(a.dict, b.dict);
  if (a instanceof PDFDict) {
    if (!(b instanceof PDFDict) || a.constructor !== b.constructor) return false;
    const ea = a.entries();
    if (ea.length !== b.entries().length) return false;
    return ea.every(([k, v]) => {
      const w = b.get(k);
      return w !== undefined && sameObject(v, w);
    });
  }
  if (a instanceof PDFArray) {
    if (!(b instanceof PDFArray) || a.size() !== b.size()) return false;
    for (let i = 0; i < a.size(); i++) if (!sameObject(a.get(i), b.get(i))) return false;
    return true;
  }
  if (a instanceof PDFNumber) return b instanceof PDFNumber && a.asNumber() === b.asNumber();
  if (a instanceof PDFString || a instanceof PDFHexString)
    return b.constructor === a.constructor && a.asString() === (b as PDFString).asString();
  return false;
}

type DocumentSnapshot = Parameters<typeof PDFWriter.forContextWithSnapshot>[2];

/** Objects never yield to the event loop while being written: an update is small. */
const OBJECTS_PER_TICK = Number.MAX_SAFE_INTEGER;

/**
 * Writes the objects numbered in `write` (and free entries for `removed`) as an
 * update appended to the base's bytes, with the same kind of cross-reference
 * section as the base's last one.
 */
async function appendObjects(
  context: PDFContext,
  base: BasePdf,
  write: ReadonlySet<number>,
  removed: PDFRef[],
): Promise<Uint8Array> {
  const unused = () => undefined;
  // The writer numbers its own objects (object streams, the cross-reference stream) above the session's.
  const writerOwn = context.largestObjectNumber + 1;
  const snapshot: DocumentSnapshot = {
    pdfSize: base.bytes.byteLength,
    prevStartXRef: base.startXRef,
    deletedCount: removed.length,
    shouldSave: (objectNumber: number) => objectNumber >= writerOwn || write.has(objectNumber),
    markRefForSave: unused,
    markRefsForSave: unused,
    markObjForSave: unused,
    markObjsForSave: unused,
    markDeletedRef: unused,
    markDeletedObj: unused,
    deletedRef: (index: number) => removed[index] ?? null,
  };
  const writer = base.xrefStream
    ? PDFStreamWriter.forContextWithSnapshot(context, OBJECTS_PER_TICK, snapshot)
    : PDFWriter.forContextWithSnapshot(context, OBJECTS_PER_TICK, snapshot);
  const update = await writer.serializeToBuffer();
  const out = new Uint8Array(base.bytes.byteLength + update.byteLength);
  out.set(base.bytes, 0);
  out.set(update, base.bytes.byteLength);
  return base.xrefStream ? completeCrossReferences(out, base.bytes.byteLength) : out;
}
