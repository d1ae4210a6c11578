/**
 * Signing's other writes and reads: signers' marks drawn into page content as an update
 * (`appendDrawing`, the kernel's UpdateSession), the DSS of PAdES B-LT (`appendValidationData`,
 * @libpdf/core's `addValidationData`: it gathers each signature's certificates and writes the DSS
 * with its /VRI entries, which the kernel does not do), and what a verifier reads back of the last
 * revision (`readSignatureRecords`, through libpdf's form reader). Signatures and document
 * timestamps themselves are written by signature-revision.ts. Every write is an incremental update
 * appended to the input: the input bytes are an exact prefix of the output, checked before returning.
 */
import { PDFContentStream, popGraphicsState, pushGraphicsState, type PDFDocument, type PDFPage } from '@cantoo/pdf-lib';
import { inflateSync } from 'node:zlib';
import type { PDF, PdfObject, RevocationProvider } from '@libpdf/core';
import { CastpressError, InvalidPdfError, SigningError } from '../../errors/index.js';
import { UpdateSession } from '../document/update.js';

type LibPdf = typeof import('@libpdf/core');

/**
 * @libpdf/core (with pkijs and its ciphers, about 2 MB of code) is loaded when a signature is
 * first written or read, not when the kernel is imported: a fill or a generate never needs it.
 */
const libpdf = (): Promise<LibPdf> => import('@libpdf/core');

async function open(bytes: Uint8Array): Promise<PDF> {
  const { PDF } = await libpdf();
  try {
    return await PDF.load(bytes);
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${(e as Error).message}`, 'pdf', { cause: e });
  }
}

/** Whether `of` starts with the bytes of `prefix` (compared in place, nothing copied). */
export function isPrefix(prefix: Uint8Array, of: Uint8Array): boolean {
  if (of.byteLength < prefix.byteLength) return false;
  return Buffer.from(of.buffer, of.byteOffset, prefix.byteLength).equals(
    Buffer.from(prefix.buffer, prefix.byteOffset, prefix.byteLength),
  );
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
    // An update appended to a linearized file is valid PDF (ISO 32000-1 Annex F: it only stops
    // being "fast web view"); libpdf 0.4 would instead rewrite the whole file. Its flag is a plain field.
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
