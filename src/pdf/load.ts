import { ParseSpeeds, PDFDict, PDFDocument, PDFName, type PDFRef } from '@cantoo/pdf-lib';
import { InvalidPdfError } from '../errors/index.js';

/**
 * Opens a PDF the way a viewer does: encrypted files that need no password
 * to open are decrypted, XFA is dropped (the AcroForm beside it is kept), and
 * anything that is not a readable PDF becomes an `InvalidPdfError` naming
 * `property`.
 */
export async function loadPdf(bytes: Uint8Array, property = 'pdf'): Promise<PDFDocument> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new InvalidPdfError('Not a PDF: no bytes', property);
  }
  if (indexOf(bytes, PDF_HEADER, 1024) < 0) {
    throw new InvalidPdfError('Not a PDF: no %PDF- header', property);
  }
  const encrypted = indexOf(bytes, ENCRYPT_KEY) >= 0;
  let doc: PDFDocument;
  try {
    // An empty password is what every viewer tries first: it opens files that
    // carry only an owner password (the case of most "protected" forms).
    doc = await PDFDocument.load(bytes, {
      // pdf-lib's default pauses on a timer every 100 objects (~1 ms each): a 1,000-object form waited ~10 ms.
      parseSpeed: ParseSpeeds.Fastest,
      password: encrypted ? '' : undefined,
      updateMetadata: false,
      throwOnInvalidObject: false,
    });
  } catch (e) {
    throw new InvalidPdfError(describeLoadFailure(e), property, { cause: e });
  }
  try {
    assertReadable(doc);
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${messageOf(e)}`, property, { cause: e });
  }
  if (encrypted) dropEncryptionDictionary(doc);
  dropXfa(doc);
  dropUsageRights(doc);
  return doc;
}

const PDF_HEADER = new TextEncoder().encode('%PDF-');
const ENCRYPT_KEY = new TextEncoder().encode('/Encrypt');

function indexOf(haystack: Uint8Array, needle: Uint8Array, limit = haystack.length): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, Math.min(limit, haystack.byteLength)).indexOf(needle);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describeLoadFailure(e: unknown): string {
  const msg = messageOf(e);
  if (/NEEDS PASSWORD|Password incorrect/i.test(msg)) return 'The PDF is encrypted and needs a password to open';
  if (/encryption (method|algorithm)|key length/i.test(msg)) return `The PDF uses an unsupported encryption: ${msg}`;
  return `Not a readable PDF: ${msg}`;
}

/** pdf-lib parses leniently; a file without a catalog or pages is still unusable. */
function assertReadable(doc: PDFDocument): void {
  if (!(doc.catalog instanceof PDFDict)) throw new Error('no document catalog');
  const count = doc.getPageCount();
  if (count < 1) throw new Error('no pages');
  // Forces the page tree to be walked so broken trees fail here, not mid-fill.
  doc.getPages();
}

/**
 * After decryption pdf-lib forgets the trailer's /Encrypt but keeps the
 * dictionary as an orphan object, which it then writes back with raw binary
 * strings (qpdf reports the output as damaged). Remove it.
 */
function dropEncryptionDictionary(doc: PDFDocument): void {
  const context = doc.context;
  const doomed: PDFRef[] = [];
  for (const [ref, obj] of context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict)) continue;
    const filter = obj.get(PDFName.of('Filter'));
    if (filter instanceof PDFName && obj.has(PDFName.of('O')) && obj.has(PDFName.of('U')) && obj.has(PDFName.of('P'))) {
      doomed.push(ref);
    }
  }
  for (const ref of doomed) context.delete(ref);
}

/** XFA would override the AcroForm in viewers that support it, showing stale values. */
function dropXfa(doc: PDFDocument): void {
  const acroForm = doc.catalog.lookupMaybe(PDFName.of('AcroForm'), PDFDict);
  if (acroForm?.has(PDFName.of('XFA'))) acroForm.delete(PDFName.of('XFA'));
  if (doc.catalog.has(PDFName.of('NeedsRendering'))) doc.catalog.delete(PDFName.of('NeedsRendering'));
}

/**
 * Reader-extension rights (/Perms /UR3) are signed over the original bytes;
 * once we change the form Reader would warn that the document was altered.
 */
function dropUsageRights(doc: PDFDocument): void {
  const perms = doc.catalog.lookupMaybe(PDFName.of('Perms'), PDFDict);
  if (!perms) return;
  perms.delete(PDFName.of('UR3'));
  perms.delete(PDFName.of('UR'));
  if (perms.keys().length === 0) doc.catalog.delete(PDFName.of('Perms'));
}
