/**
 * A signer's revision in one incremental update: their marks (field appearances and
 * values, form-marks.ts) and their signature field with its /Sig value, from one parse of the
 * document and one write of the update. The /ByteRange and /Contents are placeholders in that
 * write; the byte ranges are then hashed once, the caller's `sign` makes the CMS over that digest,
 * and it is patched into /Contents. Marks as one update and @libpdf/core's `sign()` as a second
 * would parse the marked file again, write, and parse its own output once more.
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFString,
  type PDFContext,
} from '@cantoo/pdf-lib';
import { createHash } from 'node:crypto';
import { CastpressError, SigningError, ValidationError } from '../../errors/index.js';
import { applyFieldMarks, fieldsByName, formOf, type FieldMarksUpdate } from './form-marks.js';
import { PDF } from '../document/names.js';
import { isPrefix } from './write.js';
import { UpdateSession } from '../document/update.js';

export interface RevisionSignature {
  /** Name of the new signature field; a number is added when the form already has it. */
  fieldName: string;
  /** /M of the signature dictionary. */
  signingTime: Date;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** Bytes reserved for the CMS in /Contents. */
  reserve: number;
  /** The CMS (`ETSI.CAdES.detached`) over `digest`, the SHA-256 of the signed byte ranges. */
  sign(digest: Uint8Array): Promise<Uint8Array>;
}

/** What one signer's revision holds: marks to set (optional) and the signature that ends it. */
export interface SignerRevision {
  marks?: FieldMarksUpdate;
  signature: RevisionSignature;
}

/** Widget flags of the signature's invisible widget: print + locked (as @libpdf/core writes it). */
const PRINT_LOCKED = 132;
/** Ten characters per number: room for files up to 9,999,999,999 bytes, padded with spaces when patched. */
const BYTE_RANGE_PLACEHOLDER = '[0 ********** ********** **********]';
const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** D:YYYYMMDDHHmmSSZ, UTC (what /M holds; the verifier reads it as the claimed time). */
function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

function freshFieldName(taken: ReadonlySet<string>, base: string): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/**
 * The signature dictionary as the bytes of one indirect object. Raw (a PDFInvalidObject, which
 * the writer copies as it is): a cross-reference-stream file's update would otherwise put the
 * dictionary into a compressed object stream, where /ByteRange and /Contents cannot be patched.
 */
function signatureDictionary(context: PDFContext, signature: RevisionSignature): Uint8Array {
  const dict = PDFDict.withContext(context);
  dict.set(PDF.Type, PDFName.of('Sig'));
  dict.set(PDFName.of('Filter'), PDFName.of('Adobe.PPKLite'));
  dict.set(PDFName.of('SubFilter'), PDFName.of('ETSI.CAdES.detached'));
  dict.set(PDFName.of('ByteRange'), PDFInvalidObject.of(latin1(BYTE_RANGE_PLACEHOLDER)));
  dict.set(PDFName.of('Contents'), PDFInvalidObject.of(latin1(`<${'0'.repeat(signature.reserve * 2)}>`)));
  dict.set(PDFName.of('M'), PDFString.of(pdfDate(signature.signingTime)));
  // Hex UTF-16 strings: any text (parentheses, backslashes, line breaks, CJK) as it was given.
  if (signature.reason !== undefined) dict.set(PDFName.of('Reason'), PDFHexString.fromText(signature.reason));
  if (signature.location !== undefined) dict.set(PDFName.of('Location'), PDFHexString.fromText(signature.location));
  if (signature.contactInfo !== undefined)
    dict.set(PDFName.of('ContactInfo'), PDFHexString.fromText(signature.contactInfo));
  const out = new Uint8Array(dict.sizeInBytes());
  dict.copyBytesInto(out, 0);
  return out;
}

/** Adds the signed signature field (merged field and invisible widget, on no page's /Annots, as libpdf writes it). */
function addSignatureField(session: UpdateSession, signature: RevisionSignature): void {
  const doc = session.doc;
  const { form, fields } = formOf(doc);
  const name = freshFieldName(new Set(fieldsByName(doc).keys()), signature.fieldName);
  const value = doc.context.register(PDFInvalidObject.of(signatureDictionary(doc.context, signature)));
  const field = doc.context.obj({
    FT: 'Sig',
    V: value,
    Type: 'Annot',
    Subtype: 'Widget',
    F: PRINT_LOCKED,
    P: doc.getPage(0).ref,
    Rect: [0, 0, 0, 0],
  });
  field.set(PDF.T, PDFHexString.fromText(name));
  fields.push(doc.context.register(field));
  // SignaturesExist | AppendOnly (ISO 32000-2, 12.7.3): viewers save later changes as updates.
  form.set(PDFName.of('SigFlags'), PDFNumber.of(3));
  // Same input, same bytes: a file without an identifier gets one from its contents.
  if (!doc.context.trailerInfo.ID) {
    const id = PDFHexString.of(createHash('sha256').update(session.baseBytes).digest('hex').slice(0, 32));
    doc.context.trailerInfo.ID = doc.context.obj([id, id]) as PDFArray;
  }
}

/** Where the placeholders landed in the written update. */
function placeholdersOf(out: Buffer, from: number, reserve: number): { byteRangeAt: number; contentsAt: number } {
  const byteRangeAt = out.indexOf(BYTE_RANGE_PLACEHOLDER, from, 'latin1');
  const contentsAt = byteRangeAt < 0 ? -1 : out.indexOf(`/Contents <`, byteRangeAt, 'latin1') + '/Contents '.length;
  if (byteRangeAt < 0 || contentsAt < byteRangeAt || out[contentsAt + 1 + reserve * 2] !== 0x3e)
    throw new SigningError('The signature dictionary was not written as placed; refused', 'pdf', 500);
  return { byteRangeAt, contentsAt };
}

/**
 * Appends one signer's revision to `bytes`: `marks` (fields created, appearances and values set)
 * and a new signature field whose value `signature.sign` makes over the whole file, as ONE
 * incremental update from one parse. The input is an exact prefix of the output, and the
 * signature covers all of it.
 */
export async function appendSignerRevision(bytes: Uint8Array, revision: SignerRevision): Promise<Uint8Array> {
  const { signature } = revision;
  if (!Number.isInteger(signature.reserve) || signature.reserve < 1)
    throw ValidationError.of('reserve', 'Expected a positive number of bytes');
  const session = await UpdateSession.open(bytes, 'pdf');
  // An encrypted file (or one whose cross-reference cannot be followed) is opened by writing a
  // clean copy: an update to it would not keep the input as a prefix, breaking every signature.
  if (session.baseBytes !== bytes)
    throw new SigningError(
      'Encrypted or damaged documents cannot be signed as an update; decrypt or repair the document first',
      'pdf',
    );
  if (revision.marks) await applyFieldMarks(session.doc, revision.marks);
  addSignatureField(session, signature);
  let written: Uint8Array;
  try {
    written = await session.commit();
  } catch (e) {
    if (e instanceof CastpressError) throw e;
    throw new SigningError(`Cannot write the update: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  }
  const out = Buffer.from(written.buffer, written.byteOffset, written.byteLength);
  const { byteRangeAt, contentsAt } = placeholdersOf(out, bytes.byteLength, signature.reserve);
  const afterContents = contentsAt + signature.reserve * 2 + 2;
  const range = [0, contentsAt, afterContents, out.byteLength - afterContents];
  const pad = (n: number) => String(n).padEnd(10, ' ');
  out.write(`[0 ${pad(range[1]!)} ${pad(range[2]!)} ${pad(range[3]!)}]`, byteRangeAt, 'latin1');
  // One pass over the signed bytes, without copying them.
  const digest = createHash('sha256').update(out.subarray(0, contentsAt)).update(out.subarray(afterContents)).digest();
  const cms = await signature.sign(new Uint8Array(digest));
  const hex = Buffer.from(cms.buffer, cms.byteOffset, cms.byteLength).toString('hex');
  if (hex.length > signature.reserve * 2)
    throw new SigningError(
      `The signature needs ${cms.byteLength} bytes, ${signature.reserve} were reserved`,
      'pdf',
      500,
    );
  out.write(hex, contentsAt + 1, 'latin1');
  if (!isPrefix(bytes, written))
    throw new SigningError('Signing would have rewritten earlier bytes of the document; refused', 'pdf', 500);
  return written;
}
