/**
 * Where signing writes into a PDF (and reads signature dictionaries back): the signature field,
 * its /Sig dictionary with the byte range and the reserved /Contents, and drawn marks, through
 * @libpdf/core's signer, whose byte-range arithmetic the kernel's pdf-lib-based session does not
 * have. Everything it writes is an incremental update appended to the input: the input bytes are
 * always an exact prefix of the output, checked before returning. src/signing makes the CMS.
 */
import { PDFContentStream, popGraphicsState, pushGraphicsState, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { createHash } from 'node:crypto';
import { inflateSync } from 'node:zlib';
import type { PDF, PdfObject, RevocationProvider, Signer, TimestampAuthority } from '@libpdf/core';
import { CastpressError, InvalidPdfError, SigningError, ValidationError } from '../../errors/index.js';
import { writeSignatureEntries } from './dictionary.js';
import { UpdateSession } from '../document/update.js';
import { readableCrossReferences } from '../parse/xref-complete.js';

export interface AppendSignatureOptions {
  signer: Signer;
  /** Name of the new signature field; a number is added when the document already has it. */
  fieldName: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  signingTime: Date;
  timestampAuthority?: TimestampAuthority;
  /** Bytes reserved for the CMS in /Contents. */
  reserve: number;
  /**
   * Rewrites the CMS @libpdf/core wrote before it is final (src/signing drops the signing-time
   * attribute libpdf always adds, which PAdES forbids). Only /Contents changes: it lies outside the
   * signed byte ranges, so the document hash stays the same. Must fit the reserved room.
   */
  rewriteCms?: (der: Uint8Array) => Uint8Array;
  /**
   * Makes this a certification signature (ISO 32000-2, 12.8.2.2): the signature dictionary gets a
   * /Reference to a DocMDP transform with this P, and the catalog's /Perms /DocMDP points at it.
   * Only the document's first signature may certify (checked by the caller).
   */
  docMdp?: 1 | 2 | 3;
}

type LibPdf = typeof import('@libpdf/core');

/**
 * @libpdf/core (with pkijs and its ciphers, about 2 MB of code) is loaded when a signature is
 * first written or read, not when the kernel is imported: a fill or a generate never needs it.
 */
const libpdf = (): Promise<LibPdf> => import('@libpdf/core');

export async function open(bytes: Uint8Array): Promise<PDF> {
  const { PDF } = await libpdf();
  try {
    return await PDF.load(bytes);
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${(e as Error).message}`, 'pdf', { cause: e });
  }
}

/**
 * A field name the form does not have yet. Always a new field: given the name of an empty
 * signature field, @libpdf/core would reuse it and drop its widgets (the visible boxes).
 */
function freshFieldName(pdf: PDF, base: string): string {
  const taken = new Set(pdf.getForm()?.getFieldNames() ?? []);
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

export function isPrefix(prefix: Uint8Array, of: Uint8Array): boolean {
  if (of.byteLength < prefix.byteLength) return false;
  return Buffer.from(of.buffer, of.byteOffset, prefix.byteLength).equals(
    Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength),
  );
}

/**
 * Appends one signature (a new invisible signature field whose value is a PAdES
 * `ETSI.CAdES.detached` CMS over the whole file) as an incremental update.
 */
export async function appendSignature(input: Uint8Array, options: AppendSignatureOptions): Promise<Uint8Array> {
  // A cross-reference stream libpdf cannot read (pyHanko's 8-byte fields) gets a readable one first.
  const bytes = readableCrossReferences(input);
  const lib = await libpdf();
  const { PdfArray, PdfString, SignatureError, TimestampError } = lib;
  const pdf = await open(bytes);
  if (pdf.getPageCount() === 0) throw new SigningError('The document has no pages', 'pdf');
  // libpdf 0.4 follows a signature in an encrypted file with a second update that rewrites the
  // page tree, so the seal would not be last ("Not total document signed"): refused for now.
  if (pdf.isEncrypted)
    throw new SigningError('Encrypted documents cannot be sealed; decrypt the document first', 'pdf');
  // ISO 32000-2, 12.8.1: a certification signature is the document's first signature.
  if (
    options.docMdp !== undefined &&
    pdf
      .getForm()
      ?.getSignatureFields()
      .some((f) => f.isSigned())
  )
    throw ValidationError.of('certify', 'The document is already signed: only its first signature can certify it');
  const blocker = pdf.canSaveIncrementally();
  if (blocker === 'linearized') {
    // An update appended to a linearized file is valid PDF (ISO 32000-1 Annex F: it only stops
    // being "fast web view"); @libpdf/core 0.4 would instead rewrite the whole file, which must
    // never happen to a document that may carry signatures. Its flag is a plain field.
    const internals = pdf as unknown as { _isLinearized?: boolean };
    if (typeof internals._isLinearized === 'boolean') internals._isLinearized = false;
  } else if (blocker !== null) {
    throw new SigningError(
      `The document cannot take an incremental update (${blocker}); repair or re-save it before signing`,
      'pdf',
    );
  }
  // Same input, same time, same bytes: without a file identifier libpdf would write a random one.
  const trailer = pdf.context.info.trailer;
  if (!trailer.getArray('ID')) {
    const id = createHash('sha256').update(bytes).digest().subarray(0, 16);
    trailer.set('ID', new PdfArray([PdfString.fromBytes(new Uint8Array(id)), PdfString.fromBytes(new Uint8Array(id))]));
  }
  const texts: Array<[string, string]> = [];
  if (options.reason !== undefined) texts.push(['Reason', options.reason]);
  if (options.location !== undefined) texts.push(['Location', options.location]);
  if (options.contactInfo !== undefined) texts.push(['ContactInfo', options.contactInfo]);
  const restore = writeSignatureEntries(lib, pdf, texts, options.docMdp);
  let out: Uint8Array;
  try {
    const result = await pdf.sign({
      signer: options.signer,
      fieldName: freshFieldName(pdf, options.fieldName),
      subFilter: 'ETSI.CAdES.detached',
      level: options.timestampAuthority ? 'B-T' : 'B-B',
      digestAlgorithm: 'SHA-256',
      signingTime: options.signingTime,
      estimatedSize: options.reserve,
      ...(options.timestampAuthority ? { timestampAuthority: options.timestampAuthority } : {}),
    });
    out = result.bytes;
    if (options.rewriteCms) out = rewriteLastContents(out, bytes.byteLength, options.rewriteCms);
  } catch (e) {
    if (e instanceof TimestampError)
      throw new SigningError(`Timestamp authority failed: ${e.message}`, 'timestamp', 502, { cause: e });
    if (e instanceof SignatureError)
      throw new SigningError(`Cannot sign the document: ${e.message}`, 'pdf', 422, { cause: e });
    throw new SigningError(`Cannot sign the document: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  } finally {
    restore();
  }
  if (!isPrefix(bytes, out)) {
    throw new SigningError('Signing would have rewritten earlier bytes of the document; refused', 'pdf', 500);
  }
  if (!lastSignatureCoversAll(out, bytes.byteLength)) {
    throw new SigningError('The signature would not be the last update of the document; refused', 'pdf', 500);
  }
  return out;
}

/** The /ByteRange of the last signature written after `from`. */
function lastByteRange(out: Uint8Array, from: number): [number, number, number, number] | undefined {
  const tail = Buffer.from(out.buffer, out.byteOffset + from, out.byteLength - from);
  const at = tail.lastIndexOf('/ByteRange');
  if (at < 0) return undefined;
  const m = /^\/ByteRange\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(tail.toString('latin1', at, at + 100));
  return m ? [Number(m[1]), Number(m[2]), Number(m[3]), Number(m[4])] : undefined;
}

/** Replaces the hex value of the last signature's /Contents by `rewrite` of it, zero-padded to the same length. */
function rewriteLastContents(out: Uint8Array, from: number, rewrite: (der: Uint8Array) => Uint8Array): Uint8Array {
  const range = lastByteRange(out, from);
  if (!range) throw new Error('The signature written has no /ByteRange');
  const [a, b, c] = range;
  const file = Buffer.from(out.buffer, out.byteOffset, out.byteLength);
  if (file[a + b] !== 0x3c || file[c - 1] !== 0x3e)
    throw new Error('The signature written has no hex /Contents between its ranges');
  const room = c - 1 - (a + b + 1);
  const der = rewrite(new Uint8Array(Buffer.from(file.toString('latin1', a + b + 1, c - 1), 'hex')));
  const hex = Buffer.from(der).toString('hex');
  if (hex.length > room) throw new Error(`The rewritten signature needs ${hex.length / 2} bytes, ${room / 2} reserved`);
  // In place: `out` is the buffer libpdf just wrote for us and nobody else holds it (a copy of a
  // 20 MB file was a tenth of a seal's time).
  file.write(hex.padEnd(room, '0'), a + b + 1, 'latin1');
  return out;
}

/** The last /ByteRange written after `from` ends at the end of the file. */
export function lastSignatureCoversAll(out: Uint8Array, from: number): boolean {
  const range = lastByteRange(out, from);
  return !!range && range[2] + range[3] === out.byteLength;
}

export interface SignatureDictionaryInfo {
  fieldName: string;
  byteRange: number[];
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** /M as written (PDF date string). */
  m?: string;
  subFilter?: string;
  type?: string;
  /** /Contents as parsed (the CMS, zero padding included). */
  contents?: Uint8Array;
}

/** What a verifier reads of a document's last revision besides the raw bytes. */
export interface SignatureRecords {
  /** Signature dictionaries as the form lists them (field name, reason…). */
  dictionaries: SignatureDictionaryInfo[];
  dss: DssContents;
}

/**
 * The signature dictionaries and the DSS, from one parse of the file (verifyPdf needs both).
 * Best effort: a damaged file yields what can be read, possibly nothing.
 */
export async function readSignatureRecords(bytes: Uint8Array): Promise<SignatureRecords> {
  const lib = await libpdf();
  let pdf: PDF;
  try {
    pdf = await lib.PDF.load(bytes);
  } catch {
    return { dictionaries: [], dss: noDss() };
  }
  let dss: DssContents;
  try {
    dss = dssOf(lib, pdf);
  } catch {
    dss = noDss(); // a damaged DSS gives no evidence
  }
  return { dictionaries: signatureDictionariesOf(pdf), dss };
}

function signatureDictionariesOf(pdf: PDF): SignatureDictionaryInfo[] {
  const out: SignatureDictionaryInfo[] = [];
  for (const field of pdf.getForm()?.getSignatureFields() ?? []) {
    const dict = field.getSignatureDict();
    if (!dict) continue;
    const range = dict.getArray('ByteRange');
    const byteRange: number[] = [];
    for (let i = 0; range && i < range.length; i++) {
      const n = range.at(i);
      if (n && 'value' in n && typeof n.value === 'number') byteRange.push(n.value);
    }
    const text = (key: string): string | undefined => dict.getString(key)?.asString();
    const info: SignatureDictionaryInfo = { fieldName: field.name, byteRange };
    const reason = text('Reason');
    const location = text('Location');
    const contactInfo = text('ContactInfo');
    const m = text('M');
    const subFilter = dict.getName('SubFilter')?.value;
    const type = dict.getName('Type')?.value;
    if (reason !== undefined) info.reason = reason;
    if (location !== undefined) info.location = location;
    if (contactInfo !== undefined) info.contactInfo = contactInfo;
    if (m !== undefined) info.m = m;
    if (subFilter !== undefined) info.subFilter = subFilter;
    if (type !== undefined) info.type = type;
    const contents = dict.getString('Contents')?.bytes;
    if (contents !== undefined) info.contents = contents;
    out.push(info);
  }
  return out;
}

/**
 * Opens `bytes` in the kernel's update session (the hardened loader, one appended
 * update of only the changed and new objects), lets `draw` add content, and returns
 * the input followed by that update. Pages drawn on first have their existing content
 * wrapped in q/Q, since page content may leave the graphics state changed (no closing Q).
 */
export async function appendDrawing(
  bytes: Uint8Array,
  draw: (doc: PDFDocument, isolate: (page: PDFPage) => void) => void | Promise<void>,
): Promise<Uint8Array> {
  const session = await UpdateSession.open(bytes, 'pdf');
  // An encrypted file (or one whose cross-reference cannot be followed) is opened by writing a clean
  // copy: the marks would not keep the input as a prefix.
  if (session.baseBytes !== bytes) {
    throw new SigningError(
      'Encrypted or damaged documents cannot take signature marks as an update; decrypt or repair the document first',
      'pdf',
    );
  }
  const doc = session.doc;
  const isolated = new Set<PDFPage>();
  const isolate = (page: PDFPage): void => {
    if (isolated.has(page)) return;
    isolated.add(page);
    const ctx = doc.context;
    page.node.wrapContentStreams(
      ctx.register(PDFContentStream.of(ctx.obj({}), [pushGraphicsState()])),
      ctx.register(PDFContentStream.of(ctx.obj({}), [popGraphicsState()])),
    );
  };
  await draw(doc, isolate);
  let out: Uint8Array;
  try {
    out = await session.commit();
  } catch (e) {
    if (e instanceof CastpressError) throw e;
    throw new SigningError(`Cannot write the update: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  }
  if (!isPrefix(bytes, out))
    throw new SigningError('Writing the marks would have rewritten earlier bytes of the document; refused', 'pdf', 500);
  return out;
}

/** What the document security store (ISO 32000-2 §12.8.4.3, /Root /DSS) holds, as DER. */
export interface DssContents {
  certificates: Uint8Array[];
  crls: Uint8Array[];
  ocspResponses: Uint8Array[];
}

/**
 * Appends the long-term validation data of every signature (PAdES B-LT): one incremental update
 * with a DSS holding each signature's certificates and the revocation data `revocation` gives
 * for them (@libpdf/core's `addValidationData`, which asks the provider and nothing else: no
 * network here). The input is an exact prefix of the output.
 */
export async function appendValidationData(
  bytes: Uint8Array,
  revocation: RevocationProvider,
): Promise<{ bytes: Uint8Array; warnings: string[] }> {
  const pdf = await open(bytes);
  if (pdf.canSaveIncrementally() === 'linearized') {
    // As in appendSignature: append to a linearized file instead of rewriting it.
    const internals = pdf as unknown as { _isLinearized?: boolean };
    if (typeof internals._isLinearized === 'boolean') internals._isLinearized = false;
  }
  let out: Uint8Array;
  let warnings: string[];
  try {
    const result = await pdf.addValidationData({ revocationProvider: revocation });
    out = result.bytes;
    warnings = result.warnings.map((w) => `${w.code}: ${w.message}`);
  } catch (e) {
    throw new SigningError(`Cannot add the validation data: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  }
  if (!isPrefix(bytes, out))
    throw new SigningError(
      'Adding validation data would have rewritten earlier bytes of the document; refused',
      'pdf',
      500,
    );
  return { bytes: out, warnings };
}

/** The DSS of the document's last revision (empty lists when it has none or cannot be read). */
export async function readDss(bytes: Uint8Array): Promise<DssContents> {
  return (await readSignatureRecords(bytes)).dss;
}

function noDss(): DssContents {
  return { certificates: [], crls: [], ocspResponses: [] };
}

/** A hostile DSS must not cost much: entries read per list, decoded bytes per entry. */
const DSS_LIMITS = { entries: 1000, bytes: 8 * 1024 * 1024 } as const;

/** A DSS entry's bytes: unfiltered or one FlateDecode (what writers use), inflated with a cap; else undefined. */
function decodeDssStream(
  data: Uint8Array,
  filter: PdfObject | undefined,
  PdfName: LibPdf['PdfName'],
  PdfArray: LibPdf['PdfArray'],
): Uint8Array | undefined {
  const only = filter instanceof PdfArray && filter.length === 1 ? filter.at(0) : filter;
  if (only === undefined) return data.byteLength <= DSS_LIMITS.bytes ? data : undefined;
  if (!(only instanceof PdfName) || only.value !== 'FlateDecode') return undefined;
  try {
    return new Uint8Array(inflateSync(data, { maxOutputLength: DSS_LIMITS.bytes }));
  } catch {
    return undefined;
  }
}

function dssOf(lib: LibPdf, pdf: PDF): DssContents {
  const { PdfArray, PdfDict, PdfName, PdfRef, PdfStream } = lib;
  const resolve = (obj: PdfObject | undefined | null): PdfObject | undefined =>
    obj instanceof PdfRef ? (pdf.getObject(obj) ?? undefined) : (obj ?? undefined);
  const dss = resolve(pdf.getCatalog().get('DSS'));
  if (!(dss instanceof PdfDict)) return noDss();
  const streams = (key: string): Uint8Array[] => {
    const list = resolve(dss.get(key));
    const out: Uint8Array[] = [];
    if (!(list instanceof PdfArray)) return out;
    for (let i = 0; i < list.length && i < DSS_LIMITS.entries; i++) {
      const item = resolve(list.at(i));
      if (!(item instanceof PdfStream)) continue;
      const decoded = decodeDssStream(item.data, resolve(item.get('Filter')), PdfName, PdfArray);
      // An undecodable or oversized entry gives no evidence; the others still count.
      if (decoded) out.push(decoded);
    }
    return out;
  };
  return { certificates: streams('Certs'), crls: streams('CRLs'), ocspResponses: streams('OCSPs') };
}
