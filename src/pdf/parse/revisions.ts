/**
 * The revisions of a file built by incremental updates, read as plain data, so a signature's
 * verifier (src/signing) can compare the document it signed with every later state of it.
 *
 * A revision is a prefix of the file ending after one of its `%%EOF` markers. Each is parsed on
 * its own with the kernel's hardened parser, which reads objects in file order (a later
 * definition of an object replaces an earlier one), so a prefix gives the objects as that revision
 * left them. Objects become `PdfValue`s (no pdf-lib types leave the kernel) with a canonical
 * `text` for comparison; a stream is its dictionary and the SHA-256 of its data.
 */
import { createHash } from 'node:crypto';
import {
  PDFArray,
  PDFBool,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNull,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  pdfDocEncodingDecode,
  type PDFContext,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { decodeCapped } from './decode.js';
import { HardenedParser } from './parser.js';

/** A PDF value as data: references are `"12 0"` strings under `ref`, strings their bytes in latin1. */
export type PdfValue =
  | null
  | boolean
  | number
  | { ref: string }
  | { name: string }
  | { string: string }
  | { dict: Record<string, PdfValue> }
  | { array: PdfValue[] }
  | { invalid: true };

export interface PdfObjectSnapshot {
  value: PdfValue;
  /** SHA-256 (hex) of a stream's data as stored in the file, for streams. */
  stream?: string;
  /** Canonical text of the object: equal texts, equal objects. */
  text: string;
}

export interface RevisionGraph {
  /** Offset just past this revision's last byte (its `%%EOF` and line end). */
  end: number;
  /** Every indirect object of the revision by reference (`"12 0"`); object and cross-reference streams left out. */
  objects: Map<string, PdfObjectSnapshot>;
  /** The trailer's /Root and /Info references. */
  root?: string;
  info?: string;
  /** Why the revision could not be read whole (the parser stopped). */
  fatal?: string;
}

const EOF = Buffer.from('%%EOF');

/**
 * Where each revision ends: just past every `%%EOF` and the line end after it; the file's length
 * last when bytes follow the last marker. Ascending.
 */
export function revisionEnds(bytes: Uint8Array): number[] {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const ends: number[] = [];
  for (let at = file.indexOf(EOF); at !== -1; at = file.indexOf(EOF, at + EOF.length)) {
    let end = at + EOF.length;
    if (file[end] === 0x0d) end++;
    if (file[end] === 0x0a) end++;
    ends.push(end);
  }
  if (ends.at(-1) !== file.length) ends.push(file.length);
  return ends;
}

export function refText(ref: PDFRef): string {
  return `${ref.objectNumber} ${ref.generationNumber}`;
}

function valueOf(obj: PDFObject | undefined): PdfValue {
  if (obj === undefined || obj === PDFNull) return null;
  if (obj instanceof PDFRef) return { ref: refText(obj) };
  if (obj instanceof PDFName) return { name: obj.decodeText() };
  if (obj instanceof PDFNumber) return obj.asNumber();
  if (obj instanceof PDFBool) return obj.asBoolean();
  if (obj instanceof PDFString || obj instanceof PDFHexString)
    return { string: Buffer.from(obj.asBytes()).toString('latin1') };
  if (obj instanceof PDFArray) return { array: obj.asArray().map(valueOf) };
  if (obj instanceof PDFDict) {
    // No prototype: a key named __proto__ is a key like any other.
    const dict = Object.create(null) as Record<string, PdfValue>;
    for (const [key, value] of obj.entries()) dict[key.decodeText()] = valueOf(value);
    return { dict };
  }
  return { invalid: true };
}

/**
 * The text a PDF string spells (ISO 32000 7.9.2.2): UTF-16BE or UTF-8 after their byte order
 * marks, else PDFDocEncoding; `bytes` are the string's bytes in latin1. Two encodings of one text
 * (a field name pyHanko writes in PDFDocEncoding that was UTF-16) are the same string.
 */
function textOfPdfString(bytes: string): string {
  const raw = Buffer.from(bytes, 'latin1');
  if (raw[0] === 0xfe && raw[1] === 0xff) {
    const swapped = Buffer.from(raw.subarray(2, 2 + ((raw.length - 2) & ~1)));
    return swapped.swap16().toString('utf16le');
  }
  if (raw[0] === 0xef && raw[1] === 0xbb && raw[2] === 0xbf) return raw.subarray(3).toString('utf8');
  return pdfDocEncodingDecode(new Uint8Array(raw));
}

/** Stream entries that say how the data is stored, not what it is. */
const STORAGE_KEYS = new Set(['Length', 'Filter', 'DecodeParms', 'DL']);

/** `v` with every string as the text it spells (see textOfPdfString): equal canonical values, equal objects. */
export function canonicalValue(v: PdfValue | undefined): PdfValue {
  if (v === undefined || v === null || typeof v !== 'object') return v ?? null;
  if ('string' in v) return { string: textOfPdfString(v.string) };
  if ('array' in v) return { array: v.array.map(canonicalValue) };
  if ('dict' in v) {
    const dict = Object.create(null) as Record<string, PdfValue>;
    for (const key of Object.keys(v.dict).sort()) dict[key] = canonicalValue(v.dict[key]);
    return { dict };
  }
  return v;
}

/**
 * An object as data, its `stream` hash and `text` computed on first use (verifyPdf speed): a
 * verifier compares only the objects a later revision defines again, so hashing every stream of
 * a 20 MB file (and writing every object as text) for each revision would be work nothing reads.
 * `text` is canonical: strings as the text they spell, a stream by its decoded data without the
 * entries that say how it is stored (a stream compressed again is the same stream).
 */
class LazySnapshot implements PdfObjectSnapshot {
  #data: PDFRawStream | Uint8Array | undefined;
  #stream: string | undefined;
  #text: string | undefined;
  constructor(
    readonly value: PdfValue,
    data?: PDFRawStream | Uint8Array,
  ) {
    this.#data = data;
  }
  get stream(): string | undefined {
    if (this.#data !== undefined && this.#stream === undefined) {
      this.#stream = createHash('sha256').update(decodedData(this.#data)).digest('hex');
      this.#data = undefined;
    }
    return this.#stream;
  }
  get text(): string {
    if (this.#text === undefined) {
      const stream = this.stream;
      let value = canonicalValue(this.value);
      if (stream !== undefined && value !== null && typeof value === 'object' && 'dict' in value) {
        const dict = Object.create(null) as Record<string, PdfValue>;
        for (const [k, x] of Object.entries(value.dict)) if (!STORAGE_KEYS.has(k)) dict[k] = x;
        value = { dict };
      }
      this.#text = stream === undefined ? JSON.stringify(value) : `${JSON.stringify(value)} stream ${stream}`;
    }
    return this.#text;
  }
}

/** A stream's data decoded (64 MB at most); as stored when a filter cannot be undone here. */
function decodedData(data: PDFRawStream | Uint8Array): Uint8Array {
  if (data instanceof Uint8Array) return data;
  try {
    return decodeCapped(data, 64 * 1024 * 1024);
  } catch {
    return data.contents;
  }
}

export function snapshotOf(obj: PDFObject): PdfObjectSnapshot {
  if (obj instanceof PDFStream)
    return new LazySnapshot(valueOf(obj.dict), obj instanceof PDFRawStream ? obj : obj.getContents());
  return new LazySnapshot(valueOf(obj));
}

/** Counts of the work done reading revisions, for tests that compare it at two sizes (no clocks). */
export interface RevisionWork {
  /** Bytes handed to the parser. */
  bytesParsed: number;
  /** Objects turned into data. */
  objects: number;
}

type Parsed = { context: PDFContext; fatal?: string };

async function objectsOf(
  bytes: Uint8Array,
  work?: RevisionWork,
): Promise<{ parsed: Parsed; objects: Map<string, PdfObjectSnapshot>; catalog?: string } | { error: string }> {
  let parsed: Parsed;
  try {
    parsed = await HardenedParser.parse(bytes);
  } catch (e) {
    return { error: (e as Error).message };
  }
  if (work) work.bytesParsed += bytes.length;
  const objects = new Map<string, PdfObjectSnapshot>();
  let catalog: string | undefined;
  for (const [ref, obj] of parsed.context.enumerateIndirectObjects()) {
    if (obj instanceof PDFStream) {
      const type = obj.dict.get(PDFName.of('Type'));
      if (type === PDFName.of('XRef') || type === PDFName.of('ObjStm')) continue;
    }
    if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('Catalog')) catalog = refText(ref);
    objects.set(refText(ref), snapshotOf(obj));
  }
  if (work) work.objects += objects.size;
  return { parsed, objects, ...(catalog ? { catalog } : {}) };
}

/** The objects of the revision that ends at `end` (a value from `revisionEnds`). */
export async function readRevisionGraph(bytes: Uint8Array, end: number, work?: RevisionWork): Promise<RevisionGraph> {
  const read = await objectsOf(bytes.subarray(0, end), work);
  if ('error' in read) return { end, objects: new Map(), fatal: read.error };
  const { parsed, objects, catalog } = read;
  const { Root, Info } = parsed.context.trailerInfo;
  const root = Root instanceof PDFRef ? refText(Root) : catalog;
  return {
    end,
    objects,
    ...(root ? { root } : {}),
    ...(Info instanceof PDFRef ? { info: refText(Info) } : {}),
    ...(parsed.fatal ? { fatal: parsed.fatal } : {}),
  };
}

const HEADER = Buffer.from('%PDF-1.7\n');

/**
 * The revision ending at `end` read as `base` (an earlier revision of the same bytes) and the
 * update after it (verifyPdf speed). The parser reads objects in file order, a later
 * definition replacing an earlier one, so parsing only the bytes after `base.end` (behind a header;
 * their cross-reference data is not needed, objects are found by their `obj` keyword) and laying
 * what they define over `base` gives the objects a parse of the whole prefix gives, for the size of
 * the update instead of the file. Snapshots of objects the update leaves alone are `base`'s own
 * (the same objects: a comparison can stop at identity). When the update cannot be read on its own
 * (the parser stops), `base` was not read whole, or the result names no catalog, the prefix is
 * parsed whole, as before.
 */
export async function readRevisionGraphAfter(
  bytes: Uint8Array,
  base: RevisionGraph,
  end: number,
  work?: RevisionWork,
): Promise<RevisionGraph> {
  if (base.fatal || base.end >= end) return readRevisionGraph(bytes, end, work);
  const section = Buffer.concat([HEADER, bytes.subarray(base.end, end)]);
  const read = await objectsOf(section, work);
  if ('error' in read || read.parsed.fatal) return readRevisionGraph(bytes, end, work);
  const objects = new Map(base.objects);
  for (const [ref, snapshot] of read.objects) objects.set(ref, snapshot);
  const { Root, Info } = read.parsed.context.trailerInfo;
  const root = Root instanceof PDFRef ? refText(Root) : (read.catalog ?? base.root);
  const info = Info instanceof PDFRef ? refText(Info) : base.info;
  // A trailer naming no catalog: a whole parse recovers the root from the objects; do that.
  const catalog = root === undefined ? undefined : objects.get(root)?.value;
  const type = catalog !== null && typeof catalog === 'object' && 'dict' in catalog ? catalog.dict.Type : undefined;
  if (type === null || typeof type !== 'object' || !('name' in type) || type.name !== 'Catalog')
    return readRevisionGraph(bytes, end, work);
  return { end, objects, root: root!, ...(info ? { info } : {}) };
}
