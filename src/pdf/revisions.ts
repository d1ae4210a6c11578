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
  type PDFObject,
} from '@cantoo/pdf-lib';
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

function refText(ref: PDFRef): string {
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

function snapshotOf(obj: PDFObject): PdfObjectSnapshot {
  if (obj instanceof PDFStream) {
    const value = valueOf(obj.dict);
    const data = obj instanceof PDFRawStream ? obj.contents : obj.getContents();
    const stream = createHash('sha256').update(data).digest('hex');
    return { value, stream, text: `${JSON.stringify(value)} stream ${stream}` };
  }
  const value = valueOf(obj);
  return { value, text: JSON.stringify(value) };
}

/** The objects of the revision that ends at `end` (a value from `revisionEnds`). */
export async function readRevisionGraph(bytes: Uint8Array, end: number): Promise<RevisionGraph> {
  let parsed: Awaited<ReturnType<typeof HardenedParser.parse>>;
  try {
    parsed = await HardenedParser.parse(bytes.subarray(0, end));
  } catch (e) {
    return { end, objects: new Map(), fatal: (e as Error).message };
  }
  const { context } = parsed;
  const objects = new Map<string, PdfObjectSnapshot>();
  let catalog: string | undefined;
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    if (obj instanceof PDFStream) {
      const type = obj.dict.get(PDFName.of('Type'));
      if (type === PDFName.of('XRef') || type === PDFName.of('ObjStm')) continue;
    }
    if (obj instanceof PDFDict && obj.get(PDFName.of('Type')) === PDFName.of('Catalog')) catalog = refText(ref);
    objects.set(refText(ref), snapshotOf(obj));
  }
  const { Root, Info } = context.trailerInfo;
  const root = Root instanceof PDFRef ? refText(Root) : catalog;
  return {
    end,
    objects,
    ...(root ? { root } : {}),
    ...(Info instanceof PDFRef ? { info: refText(Info) } : {}),
    ...(parsed.fatal ? { fatal: parsed.fatal } : {}),
  };
}
