/**
 * The one writer of signature revisions: a signature (sealing, certification, each signer's
 * signature) or a document timestamp, appended as one incremental update from one parse of the
 * document, with the signer's marks (form-marks.ts) in the same update when there are any. The
 * update is written once with placeholders for /ByteRange and /Contents; the byte ranges are
 * patched in and hashed in place (the input once, then the rest of the two ranges, fed to one hash
 * and never joined), the caller's `sign` turns that digest into the CMS or timestamp token
 * (src/signing), and it is patched into /Contents. The input bytes are an exact prefix of the
 * output (checked), and the new signature covers all of it (its second range ends at the end).
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFNumber,
  PDFRef,
  type PDFDocument,
} from '@cantoo/pdf-lib';
import { createHash } from 'node:crypto';
import { CastpressError, SigningError, ValidationError } from '../../errors/index.js';
import { applyFieldMarks, fieldsByName, formOf, type FieldMarksUpdate } from './form-marks.js';
import { PDF } from '../document/names.js';
import { BYTE_RANGE_PLACEHOLDER, signatureValueBytes, textString, type SignatureValueEntries } from './dictionary.js';
import { isPrefix } from './write.js';
import { UpdateSession } from '../document/update.js';

export type { DocumentTimestampEntries, SignatureEntries, SignatureValueEntries } from './dictionary.js';

/** The signature field a revision ends with, and how its value is made. */
export type RevisionSignature = SignatureValueEntries & {
  /** Name of the new signature field; a number is added when the form already has it. */
  fieldName: string;
  /** Bytes reserved for the CMS (or timestamp token) in /Contents. */
  reserve: number;
  /**
   * The value of /Contents over `digest`, the SHA-256 of the signed byte ranges: a detached CMS
   * (`ETSI.CAdES.detached`) for a signature, an RFC 3161 token for a document timestamp.
   */
  sign(digest: Uint8Array): Promise<Uint8Array>;
};

/** What one revision holds: marks to set (optional) and the signature that ends it. */
export interface SignatureRevision {
  marks?: FieldMarksUpdate;
  signature: RevisionSignature;
}

/** Widget flags of the signature's invisible widget: print + locked. */
const PRINT_LOCKED = 132;
/** Fields looked at for an existing signature (the structure pass cuts deeper field trees). */
const MAX_FIELDS = 100_000;

function freshFieldName(taken: ReadonlySet<string>, base: string): string {
  if (!taken.has(base)) return base;
  for (let n = 2; ; n++) if (!taken.has(`${base} ${n}`)) return `${base} ${n}`;
}

/**
 * The first page's reference, found by walking the page tree down its first branches: listing
 * every page (pdf-lib's getPages) copies each page into the session, and the commit then compares
 * them all (tens of ms for 500 pages). The structure pass has made the tree acyclic and bounded.
 */
function firstPageRef(doc: PDFDocument): PDFRef | undefined {
  const stack: PDFRef[] = [];
  const root = doc.catalog.get(PDF.Pages);
  if (root instanceof PDFRef) stack.push(root);
  for (let ref = stack.pop(); ref; ref = stack.pop()) {
    const node = doc.context.lookup(ref);
    if (!(node instanceof PDFDict)) continue;
    const kids = node.lookupMaybe(PDF.Kids, PDFArray);
    if (!kids) return ref;
    for (let i = kids.size() - 1; i >= 0; i--) {
      const kid = kids.get(i);
      if (kid instanceof PDFRef) stack.push(kid);
    }
  }
  return undefined;
}

/** Whether some field of the form (at any depth) is a signature field with a value. */
function hasSignedField(doc: PDFDocument): boolean {
  const fields = doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict)?.lookupMaybe(PDF.Fields, PDFArray);
  const queue: Array<{ node: PDFDict; sig: boolean }> = [];
  const seen = new Set<PDFDict>();
  const push = (array: PDFArray | undefined, sig: boolean) => {
    for (let i = 0; array && i < array.size() && seen.size < MAX_FIELDS; i++) {
      const node = array.lookup(i);
      if (node instanceof PDFDict && !seen.has(node)) {
        seen.add(node);
        queue.push({ node, sig });
      }
    }
  };
  push(fields, false);
  for (let next = queue.pop(); next; next = queue.pop()) {
    const ft = next.node.lookup(PDF.FT);
    const sig = ft === undefined ? next.sig : ft === PDF.Sig;
    if (sig && next.node.lookup(PDFName.of('V')) instanceof PDFDict) return true;
    push(next.node.lookupMaybe(PDF.Kids, PDFArray), sig);
  }
  return false;
}

/**
 * Adds the signature field (merged field and invisible widget, on no page's /Annots) whose value
 * is `signature`'s dictionary; for a certification, the catalog's /Perms /DocMDP points at it.
 */
function addSignatureField(
  session: UpdateSession,
  signature: RevisionSignature,
  page: PDFRef,
  inputDigest: () => string,
): void {
  const doc = session.doc;
  const { form, fields } = formOf(doc);
  const name = freshFieldName(new Set(fieldsByName(doc).keys()), signature.fieldName);
  const value = doc.context.register(
    PDFInvalidObject.of(signatureValueBytes(doc.context, signature, signature.reserve)),
  );
  const field = doc.context.obj({
    FT: 'Sig',
    V: value,
    Type: 'Annot',
    Subtype: 'Widget',
    F: PRINT_LOCKED,
    P: page,
    Rect: [0, 0, 0, 0],
  });
  field.set(PDF.T, textString(name));
  fields.push(doc.context.register(field));
  // SignaturesExist | AppendOnly (ISO 32000-2, 12.7.3): viewers save later changes as updates.
  form.set(PDF.SigFlags, PDFNumber.of(3));
  if (signature.kind === 'signature' && signature.docMdp !== undefined) {
    const perms = doc.catalog.lookupMaybe(PDF.Perms, PDFDict) ?? doc.context.obj({});
    perms.set(PDFName.of('DocMDP'), value);
    doc.catalog.set(PDF.Perms, perms);
  }
  // Same input, same bytes: a file without an identifier gets one from its contents.
  if (!doc.context.trailerInfo.ID) {
    const id = PDFHexString.of(inputDigest().slice(0, 32));
    doc.context.trailerInfo.ID = doc.context.obj([id, id]);
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
 * Appends one signature revision to `bytes`: `marks` (fields created, appearances and values set)
 * and a new signature field whose value `signature.sign` makes over the whole file, as ONE
 * incremental update from one parse. A certification (`docMdp`) must be the document's first
 * signature (else a ValidationError on `certify`). The input is an exact prefix of the output.
 */
export async function appendSignatureRevision(bytes: Uint8Array, revision: SignatureRevision): Promise<Uint8Array> {
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
  // ISO 32000-2, 12.8.1: a certification signature is the document's first signature.
  if (signature.kind === 'signature' && signature.docMdp !== undefined && hasSignedField(session.doc))
    throw ValidationError.of('certify', 'The document is already signed: only its first signature can certify it');
  if (revision.marks) await applyFieldMarks(session.doc, revision.marks);
  // One pass over the input serves the file identifier and the signature's first byte range, which
  // starts with the input (the output's exact prefix, checked before anything is signed).
  const hash = createHash('sha256').update(bytes);
  const page = firstPageRef(session.doc);
  if (!page) throw new SigningError('The document has no pages', 'pdf');
  addSignatureField(session, signature, page, () => hash.copy().digest('hex'));
  let written: Uint8Array;
  try {
    written = await session.commit();
  } catch (e) {
    if (e instanceof CastpressError) throw e;
    throw new SigningError(`Cannot write the update: ${(e as Error).message}`, 'pdf', 500, { cause: e });
  }
  // Patched in place: `written` is the one copy of the output, made by the commit.
  const out = Buffer.from(written.buffer, written.byteOffset, written.byteLength);
  const { byteRangeAt, contentsAt } = placeholdersOf(out, bytes.byteLength, signature.reserve);
  const afterContents = contentsAt + signature.reserve * 2 + 2;
  const range = [0, contentsAt, afterContents, out.byteLength - afterContents];
  const pad = (n: number) => String(n).padEnd(10, ' ');
  out.write(`[0 ${pad(range[1]!)} ${pad(range[2]!)} ${pad(range[3]!)}]`, byteRangeAt, 'latin1');
  if (!isPrefix(bytes, written))
    throw new SigningError('Signing would have rewritten earlier bytes of the document; refused', 'pdf', 500);
  const digest = hash.update(out.subarray(bytes.byteLength, contentsAt)).update(out.subarray(afterContents)).digest();
  const value = await signature.sign(new Uint8Array(digest));
  const hex = Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
  if (hex.length > signature.reserve * 2)
    throw new SigningError(
      `The signature needs ${value.byteLength} bytes, ${signature.reserve} were reserved`,
      'pdf',
      500,
    );
  out.write(hex, contentsAt + 1, 'latin1');
  return written;
}
