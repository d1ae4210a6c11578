import { PDFContext, PDFDict, PDFDocument, PDFName, type PDFRef } from '@cantoo/pdf-lib';
import { InvalidPdfError } from '../../errors/index.js';
import { cryptoFactoryFor, UnsupportedEncryptionError } from '../parse/encryption.js';
import { HardenedParser } from '../parse/parser.js';
import { documentOver } from '../pdf-lib-internals.js';
import { normalizeStructure } from '../parse/structure.js';

/**
 * Opens a PDF the way a viewer does: encrypted files that need no password
 * to open are decrypted, XFA is dropped (the AcroForm beside it is kept), and
 * anything that is not a readable PDF becomes an `InvalidPdfError` naming
 * `property`. Parsing is bounded (see parser.ts) and the structure the engine
 * reads is given its required types (structure.ts), so later reads of the
 * document do not throw on hostile input.
 */
export async function loadPdf(bytes: Uint8Array, property = 'pdf'): Promise<PDFDocument> {
  return (await loadPdfReporting(bytes, property)).doc;
}

/** `loadPdf`, whether it dropped XFA and whether it decrypted the file (stripActiveContent reports both). */
export async function loadPdfReporting(
  bytes: Uint8Array,
  property = 'pdf',
): Promise<{ doc: PDFDocument; droppedXfa: boolean; decrypted: boolean }> {
  if (!(bytes instanceof Uint8Array) || bytes.byteLength === 0) {
    throw new InvalidPdfError('Not a PDF: no bytes', property);
  }
  if (indexOf(bytes, PDF_HEADER, 1024) < 0) {
    throw new InvalidPdfError('Not a PDF: no %PDF- header', property);
  }
  const doc = await parse(bytes, property);
  let droppedXfa = false;
  const decrypted = doc.context.isDecrypted;
  try {
    const problem = normalizeStructure(doc);
    if (problem) throw new Error(problem);
    assertReadable(doc);
    if (decrypted) dropEncryptionDictionary(doc);
    droppedXfa = dropXfa(doc);
    dropUsageRights(doc);
  } catch (e) {
    throw new InvalidPdfError(`Not a readable PDF: ${messageOf(e)}`, property, { cause: e });
  }
  return { doc, droppedXfa, decrypted };
}

/**
 * What PDFDocument.load does, with the hardened parser: parse, and when the
 * trailer names an /Encrypt dictionary, check it and parse again decrypting
 * with the empty password (what every viewer tries first: it opens files that
 * carry only an owner password, the case of most "protected" forms).
 */
async function parse(bytes: Uint8Array, property: string): Promise<PDFDocument> {
  let context: PDFContext;
  try {
    let parsed = await HardenedParser.parse(bytes);
    if (parsed.fatal) throw new InvalidPdfError(`Not a readable PDF: ${parsed.fatal}`, property);
    if (
      parsed.context.trailerInfo.Encrypt !== undefined &&
      parsed.context.lookup(parsed.context.trailerInfo.Encrypt) !== undefined
    ) {
      parsed = await HardenedParser.parse(bytes, await cryptoFactoryFor(parsed.context, ''));
      if (parsed.fatal) throw new InvalidPdfError(`Not a readable PDF: ${parsed.fatal}`, property);
    }
    context = parsed.context;
    return documentOver(context, false, false, false);
  } catch (e) {
    if (e instanceof InvalidPdfError) throw e;
    throw new InvalidPdfError(describeLoadFailure(e), property, { cause: e });
  }
}

const PDF_HEADER = new TextEncoder().encode('%PDF-');

function indexOf(haystack: Uint8Array, needle: Uint8Array, limit = haystack.length): number {
  return Buffer.from(haystack.buffer, haystack.byteOffset, Math.min(limit, haystack.byteLength)).indexOf(needle);
}

function messageOf(e: unknown): string {
  return e instanceof Error ? e.message : String(e);
}

function describeLoadFailure(e: unknown): string {
  const msg = messageOf(e);
  if (e instanceof UnsupportedEncryptionError) return `The PDF uses an unsupported encryption: ${msg}`;
  if (/NEEDS PASSWORD|Password incorrect/i.test(msg)) return 'The PDF is encrypted and needs a password to open';
  if (/encryption (method|algorithm)|key length/i.test(msg)) return `The PDF uses an unsupported encryption: ${msg}`;
  return `Not a readable PDF: ${msg}`;
}

/** pdf-lib parses leniently; a file without a catalog or pages is still unusable. */
function assertReadable(doc: PDFDocument): void {
  if (!(doc.catalog instanceof PDFDict)) throw new Error('no document catalog');
  // Walks the page tree (normalised above) once, so broken trees fail here, not mid-fill.
  if (doc.getPageCount() < 1) throw new Error('no pages');
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
function dropXfa(doc: PDFDocument): boolean {
  const acroForm = doc.catalog.lookup(PDFName.of('AcroForm'));
  const had = acroForm instanceof PDFDict && acroForm.has(PDFName.of('XFA'));
  if (had) acroForm.delete(PDFName.of('XFA'));
  if (doc.catalog.has(PDFName.of('NeedsRendering'))) doc.catalog.delete(PDFName.of('NeedsRendering'));
  return had;
}

/**
 * Reader-extension rights (/Perms /UR3) are signed over the original bytes;
 * once we change the form Reader would warn that the document was altered.
 */
function dropUsageRights(doc: PDFDocument): void {
  const perms = doc.catalog.lookup(PDFName.of('Perms'));
  if (!(perms instanceof PDFDict)) return;
  perms.delete(PDFName.of('UR3'));
  perms.delete(PDFName.of('UR'));
  if (perms.keys().length === 0) doc.catalog.delete(PDFName.of('Perms'));
}
