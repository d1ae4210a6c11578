/**
 * Embedded files (ISO 32000-1 §7.11.4): each a file specification in the catalog's EmbeddedFiles name
 * tree, the way viewers list attachments, and an associated file of the document (PDF/A-3 §6.8, ISO
 * 32000-2 §14.13): `/AF` in the catalog and `/AFRelationship` on the specification. Both keys are PDF 2.0
 * and ignored by older readers, so every output carries them and a PDF/A-3 one needs nothing more.
 */
import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFDocument } from '@cantoo/pdf-lib';

export interface EmbeddedFile {
  /** The file name viewers show and save under. */
  name: string;
  bytes: Uint8Array;
  /** MIME type (`text/csv`); `application/octet-stream` when unknown. */
  mimeType?: string;
  /** Shown by viewers beside the name. */
  description?: string;
}

/** A MIME type as PDF/A-3 §6.8 wants it in `/Subtype`: type/subtype, no parameters. */
function mimeOf(type: string | undefined): string {
  const bare = (type ?? '').split(';')[0]!.trim().toLowerCase();
  return /^[a-z0-9!#$&^_.+-]+\/[a-z0-9!#$&^_.+-]+$/.test(bare) ? bare : 'application/octet-stream';
}

/** `/F` is a byte string: the name's printable ASCII, anything else as `_` (`/UF` keeps the real name). */
function asciiName(name: string): string {
  return name.replace(/[^\x20-\x7e]/g, '_');
}

/** `name`, or `name (2).ext` when an earlier file took it (a name tree's keys are unique). */
function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  const dot = name.lastIndexOf('.');
  const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ''];
  for (let n = 2; taken.has(out); n++) out = `${stem} (${n})${ext}`;
  taken.add(out);
  return out;
}

function compareBytes(a: Uint8Array, b: Uint8Array): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) if (a[i] !== b[i]) return a[i]! - b[i]!;
  return a.length - b.length;
}

/**
 * Adds `files` to `doc` in order (a name used twice gets a number). The tree is one flat leaf sorted by
 * key bytes (§7.9.6), holding the entries of a flat leaf the document had; castpress's documents have
 * no tree with `/Kids` to extend, and one is refused rather than lost.
 */
export function embedFiles(doc: PDFDocument, files: readonly EmbeddedFile[]): void {
  if (files.length === 0) return;
  const ctx = doc.context;
  const catalog = doc.catalog;
  let names = catalog.lookup(PDFName.of('Names'));
  if (!(names instanceof PDFDict)) {
    names = ctx.obj({});
    catalog.set(PDFName.of('Names'), names);
  }
  const namesDict = names as PDFDict;
  const existing = namesDict.lookup(PDFName.of('EmbeddedFiles'));
  const entries: Array<{ key: PDFString | PDFHexString; value: PDFRef | PDFDict }> = [];
  const taken = new Set<string>();
  if (existing instanceof PDFDict) {
    if (existing.has(PDFName.of('Kids')))
      throw new Error('castpress: an EmbeddedFiles tree with /Kids cannot be extended');
    const leaf = existing.lookup(PDFName.of('Names'));
    if (leaf instanceof PDFArray)
      for (let i = 0; i + 1 < leaf.size(); i += 2) {
        const key = leaf.lookup(i);
        const value = leaf.get(i + 1);
        if (
          (key instanceof PDFString || key instanceof PDFHexString) &&
          (value instanceof PDFDict || value instanceof PDFRef)
        ) {
          entries.push({ key, value });
          taken.add(key.decodeText());
        }
      }
  }
  let af = catalog.lookup(PDFName.of('AF'));
  if (!(af instanceof PDFArray)) {
    af = ctx.obj([]);
    catalog.set(PDFName.of('AF'), af);
  }
  for (const file of files) {
    const name = uniqueName(file.name || 'attachment', taken);
    const stream = ctx.flateStream(file.bytes, {
      Type: 'EmbeddedFile',
      Subtype: mimeOf(file.mimeType),
      // §7.11.4.2: the size, and a checksum a reader can check the bytes against.
      Params: {
        Size: file.bytes.byteLength,
        CheckSum: PDFHexString.of(createHash('md5').update(file.bytes).digest('hex')),
      },
    });
    const streamRef = ctx.register(stream);
    const spec = ctx.obj({
      Type: 'Filespec',
      F: PDFString.of(escapeLiteral(asciiName(name))),
      UF: PDFHexString.fromText(name),
      EF: { F: streamRef, UF: streamRef },
      AFRelationship: 'Unspecified',
    });
    if (file.description) spec.set(PDFName.of('Desc'), PDFHexString.fromText(file.description));
    const specRef = ctx.register(spec);
    (af as PDFArray).push(specRef);
    entries.push({ key: PDFHexString.fromText(name), value: specRef });
  }
  entries.sort((a, b) => compareBytes(a.key.asBytes(), b.key.asBytes()));
  const leaf = ctx.obj([]);
  for (const e of entries) {
    leaf.push(e.key);
    leaf.push(e.value);
  }
  namesDict.set(PDFName.of('EmbeddedFiles'), ctx.register(ctx.obj({ Names: leaf })));
}

/** A literal string's delimiters escaped: pdf-lib writes PDFString's text as it is. */
function escapeLiteral(text: string): string {
  return text.replace(/[\\()]/g, (c) => `\\${c}`);
}
