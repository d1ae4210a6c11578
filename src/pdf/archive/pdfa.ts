/**
 * PDF/A-2b and PDF/A-3b (ISO 19005-2, -3, level B) for documents castpress makes: an sRGB output
 * intent, XMP metadata mirroring the document information, printable annotations with normal
 * appearances only, no form-appearance regeneration, a file identifier. What castpress cannot make
 * conformant by itself (a font that is not embedded, encryption, scripts) is refused, not hidden.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFDocument,
  type PDFObject,
} from '@cantoo/pdf-lib';
import { RenderError } from '../../errors/index.js';
import { xmpPacket } from './xmp.js';

export type PdfALevel = '2b' | '3b';

const N = (name: string) => PDFName.of(name);
let profile: Uint8Array | undefined;

/** assets/icc/sRGB.icc beside package.json, found from this module's place (src, dist or the bundle). */
function srgbProfile(): Uint8Array {
  if (profile) return profile;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'assets', 'icc', 'sRGB.icc');
    if (existsSync(join(dir, 'package.json')) && existsSync(file)) return (profile = readFileSync(file));
    dir = dirname(dir);
  }
  throw new Error('castpress: assets/icc/sRGB.icc not found next to package.json');
}

function lookup(doc: PDFDocument, o: PDFObject | undefined): PDFObject | undefined {
  return o instanceof PDFRef ? doc.context.lookup(o) : o;
}

/** Names of the fonts that draw something and whose program is not in the file (Type 3 fonts are drawings). */
function unembeddedFonts(doc: PDFDocument): string[] {
  const missing = new Set<string>();
  const seen = new Set<PDFObject>();
  const resources = (res: PDFObject | undefined, depth: number): void => {
    const dict = lookup(doc, res);
    if (!(dict instanceof PDFDict) || seen.has(dict) || depth > 16) return;
    seen.add(dict);
    const fonts = lookup(doc, dict.get(N('Font')));
    if (fonts instanceof PDFDict)
      for (const [, f] of fonts.entries()) {
        const font = lookup(doc, f);
        if (!(font instanceof PDFDict) || font.lookup(N('Subtype')) === N('Type3')) continue;
        const descendants = font.lookup(N('DescendantFonts'));
        const real = descendants instanceof PDFArray ? lookup(doc, descendants.get(0)) : font;
        const descriptor = real instanceof PDFDict ? real.lookup(N('FontDescriptor')) : undefined;
        const embedded =
          descriptor instanceof PDFDict && ['FontFile', 'FontFile2', 'FontFile3'].some((k) => descriptor.has(N(k)));
        if (!embedded) missing.add(font.lookup(N('BaseFont'))?.toString().slice(1) ?? '(unnamed)');
      }
    const xobjects = lookup(doc, dict.get(N('XObject')));
    if (xobjects instanceof PDFDict)
      for (const [, x] of xobjects.entries()) {
        const stream = lookup(doc, x);
        if (stream instanceof PDFStream) resources(stream.dict.get(N('Resources')), depth + 1);
      }
  };
  for (const page of doc.getPages()) {
    resources(page.node.get(N('Resources')), 0);
    const annots = page.node.lookup(N('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = lookup(doc, a);
      const ap = annot instanceof PDFDict ? lookup(doc, annot.get(N('AP'))) : undefined;
      const normal = ap instanceof PDFDict ? lookup(doc, ap.get(N('N'))) : undefined;
      // A normal appearance is a stream, or a dictionary of states (check boxes, radio buttons).
      const states = normal instanceof PDFDict ? normal.values() : [normal];
      for (const s of states) {
        const stream = lookup(doc, s);
        if (stream instanceof PDFStream) resources(stream.dict.get(N('Resources')), 1);
      }
    }
  }
  return [...missing].sort();
}

/** §6.3.2–6.3.3: annotations are printed and shown, and carry only a normal appearance. */
function fixAnnotations(doc: PDFDocument): void {
  for (const page of doc.getPages()) {
    const annots = page.node.lookup(N('Annots'));
    for (const a of annots instanceof PDFArray ? annots.asArray() : []) {
      const annot = lookup(doc, a);
      if (!(annot instanceof PDFDict)) continue;
      const flags = annot.lookup(N('F'));
      // Print (4) on; Invisible (1), Hidden (2), NoView (32) and ToggleNoView (256) off.
      const f = ((flags instanceof PDFNumber ? flags.asNumber() : 0) | 4) & ~(1 | 2 | 32 | 256);
      annot.set(N('F'), PDFNumber.of(f));
      const ap = lookup(doc, annot.get(N('AP')));
      if (ap instanceof PDFDict) {
        ap.delete(N('D'));
        ap.delete(N('R'));
      }
    }
  }
}

/** Whether the catalog's EmbeddedFiles name tree lists any file. */
function hasEmbeddedFiles(doc: PDFDocument): boolean {
  const names = doc.catalog.lookup(N('Names'));
  const tree = names instanceof PDFDict ? names.lookup(N('EmbeddedFiles')) : undefined;
  if (!(tree instanceof PDFDict)) return false;
  const leaf = tree.lookup(N('Names'));
  const kids = tree.lookup(N('Kids'));
  return (leaf instanceof PDFArray && leaf.size() > 0) || (kids instanceof PDFArray && kids.size() > 0);
}

/** §6.6.2.3: Info dates as the XMP writes them (the same instant, UTC). */
function infoText(doc: PDFDocument, key: string): string | undefined {
  const info = lookup(doc, doc.context.trailerInfo.Info);
  const v = info instanceof PDFDict ? info.lookup(N(key)) : undefined;
  return v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : undefined;
}

/**
 * Makes `doc` a PDF/A-`level` file, in place, before it is written. `seed` (the bytes the document was
 * made from, or its content) gives the file identifier, so the same input keeps the same bytes.
 * A `RenderError` (422) names what cannot conform.
 */
export function conformToPdfA(doc: PDFDocument, level: PdfALevel, seed: Uint8Array): void {
  if (doc.context.trailerInfo.Encrypt) throw new RenderError('PDF/A output cannot be encrypted', 422);
  const fonts = unembeddedFonts(doc);
  if (fonts.length > 0)
    throw new RenderError(`PDF/A needs every font embedded; not embedded: ${fonts.join(', ')}`, 422);
  const catalog = doc.catalog;
  const names = catalog.lookup(N('Names'));
  if (catalog.has(N('AA')) || catalog.has(N('OpenAction')) || (names instanceof PDFDict && names.has(N('JavaScript'))))
    throw new RenderError('PDF/A output cannot run scripts or actions on opening', 422);

  // ISO 19005-2 §6.8: a PDF/A-2 file embeds only PDF/A files; castpress does not check that an
  // attachment is one, so PDF/A-2b takes none (PDF/A-3 allows any file as an associated file).
  if (level === '2b' && hasEmbeddedFiles(doc))
    throw new RenderError('PDF/A-2b cannot carry attachments; PDF/A-3b can', 422);

  const form = catalog.lookup(N('AcroForm'));
  if (form instanceof PDFDict) form.delete(N('NeedAppearances'));
  fixAnnotations(doc);

  const ctx = doc.context;
  const icc = srgbProfile();
  const iccStream = ctx.flateStream(icc, { N: 3 });
  catalog.set(
    N('OutputIntents'),
    ctx.obj([
      {
        Type: 'OutputIntent',
        S: 'GTS_PDFA1',
        OutputConditionIdentifier: PDFString.of('sRGB IEC61966-2.1'),
        Info: PDFString.of('sRGB IEC61966-2.1'),
        RegistryName: PDFString.of('http://www.color.org'),
        DestOutputProfile: ctx.register(iccStream),
      },
    ]),
  );

  // The Info dates again through pdf-lib (`D:…Z`), so both places hold exactly the same instants.
  const created = doc.getCreationDate();
  const modified = doc.getModificationDate() ?? created;
  if (created) doc.setCreationDate(created);
  if (modified) doc.setModificationDate(modified);
  const keywords = infoText(doc, 'Keywords');
  const packet = xmpPacket({
    part: level === '3b' ? 3 : 2,
    conformance: 'B',
    ...optional('title', infoText(doc, 'Title')),
    ...optional('author', infoText(doc, 'Author')),
    ...optional('subject', infoText(doc, 'Subject')),
    ...optional('keywords', keywords),
    ...optional('creator', infoText(doc, 'Creator')),
    ...optional('producer', infoText(doc, 'Producer')),
    ...optional('created', created),
    ...optional('modified', modified),
  });
  // §6.6.2.1: the metadata stream is not filtered, so any reader finds the packet.
  const metadata = PDFRawStream.of(ctx.obj({ Type: 'Metadata', Subtype: 'XML', Length: packet.length }), packet);
  catalog.set(N('Metadata'), ctx.register(metadata));

  // §6.1.3: a file identifier in the trailer, from the seed: the same input, the same identifier.
  const id = createHash('sha256').update(seed).digest().subarray(0, 16).toString('hex');
  ctx.trailerInfo.ID = ctx.obj([PDFHexString.of(id), PDFHexString.of(id)]);
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}
