/**
 * The value of a signature field as the kernel writes it (ISO 32000-2, 12.8.1): a /Sig dictionary
 * (`ETSI.CAdES.detached`, /M, the texts, a DocMDP /Reference for a certification signature) or a
 * /DocTimeStamp dictionary (`ETSI.RFC3161`), with a /ByteRange and a /Contents that are
 * placeholders until the revision is written and its byte ranges are known.
 */
import {
  PDFDict,
  PDFHexString,
  PDFInvalidObject,
  PDFName,
  PDFString,
  type PDFArray,
  type PDFContext,
} from '@cantoo/pdf-lib';
import { PDF } from '../document/names.js';

/** A signature's texts and time, and what it certifies. */
export interface SignatureEntries {
  kind: 'signature';
  /** /M of the signature dictionary (the claimed signing time; PAdES keeps it out of the CMS). */
  signingTime: Date;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /**
   * A certification signature with this DocMDP P (ISO 32000-2, 12.8.2.2): /Reference to a DocMDP
   * transform here, and the catalog's /Perms /DocMDP pointing at the dictionary (the writer).
   */
  docMdp?: 1 | 2 | 3;
}

/** A document timestamp: no time or texts of its own (the token holds the time). */
export interface DocumentTimestampEntries {
  kind: 'document-timestamp';
}

export type SignatureValueEntries = SignatureEntries | DocumentTimestampEntries;

/** Ten characters per number: room for files up to 9,999,999,999 bytes, padded with spaces when patched. */
export const BYTE_RANGE_PLACEHOLDER = '[0 ********** ********** **********]';

const latin1 = (text: string): Uint8Array => new Uint8Array(Buffer.from(text, 'latin1'));

/** D:YYYYMMDDHHmmSSZ, UTC (what /M holds; the verifier reads it as the claimed time). */
function pdfDate(date: Date): string {
  const iso = date.toISOString();
  return `D:${iso.slice(0, 4)}${iso.slice(5, 7)}${iso.slice(8, 10)}${iso.slice(11, 13)}${iso.slice(14, 16)}${iso.slice(17, 19)}Z`;
}

/**
 * A text string (ISO 32000-2, 7.9.2.2): printable ASCII as a literal string, its delimiters
 * escaped once; anything else (line breaks, accents, any script) as UTF-16BE in hex, as it was given.
 */
export function textString(text: string): PDFString | PDFHexString {
  if (/^[\x20-\x7e]*$/.test(text)) return PDFString.of(text.replace(/[()\\]/g, (c) => `\\${c}`));
  return PDFHexString.fromText(text);
}

/**
 * The signature field's value as the bytes of one indirect object. Raw (a PDFInvalidObject, which
 * the writer copies as it is): a cross-reference-stream file's update would otherwise put the
 * dictionary into a compressed object stream, where /ByteRange and /Contents cannot be patched.
 */
export function signatureValueBytes(context: PDFContext, entries: SignatureValueEntries, reserve: number): Uint8Array {
  const timestamp = entries.kind === 'document-timestamp';
  const dict = PDFDict.withContext(context);
  dict.set(PDF.Type, PDFName.of(timestamp ? 'DocTimeStamp' : 'Sig'));
  dict.set(PDFName.of('Filter'), PDFName.of('Adobe.PPKLite'));
  dict.set(PDFName.of('SubFilter'), PDFName.of(timestamp ? 'ETSI.RFC3161' : 'ETSI.CAdES.detached'));
  dict.set(PDFName.of('ByteRange'), PDFInvalidObject.of(latin1(BYTE_RANGE_PLACEHOLDER)));
  dict.set(PDF.Contents, PDFInvalidObject.of(latin1(`<${'0'.repeat(reserve * 2)}>`)));
  if (entries.kind === 'signature') {
    dict.set(PDFName.of('M'), PDFString.of(pdfDate(entries.signingTime)));
    if (entries.reason !== undefined) dict.set(PDFName.of('Reason'), textString(entries.reason));
    if (entries.location !== undefined) dict.set(PDFName.of('Location'), textString(entries.location));
    if (entries.contactInfo !== undefined) dict.set(PDFName.of('ContactInfo'), textString(entries.contactInfo));
    if (entries.docMdp !== undefined) dict.set(PDFName.of('Reference'), docMdpReference(context, entries.docMdp));
  }
  const out = new Uint8Array(dict.sizeInBytes());
  dict.copyBytesInto(out, 0);
  return out;
}

/**
 * [<< /Type /SigRef /TransformMethod /DocMDP /TransformParams << /Type /TransformParams /P p /V /1.2 >> >>]
 * (ISO 32000-2, 12.8.2.2 and 12.8.4).
 */
function docMdpReference(context: PDFContext, p: 1 | 2 | 3): PDFArray {
  const params = context.obj({ Type: 'TransformParams', P: p, V: '1.2' });
  return context.obj([context.obj({ Type: 'SigRef', TransformMethod: 'DocMDP', TransformParams: params })]);
}
