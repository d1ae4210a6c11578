/**
 * Cross-reference streams that list every object, for files with a section @libpdf/core cannot
 * read. libpdf 0.4 reads cross-reference stream fields of at most 6 bytes; pyHanko writes
 * its streams with /W [1 8 2], and libpdf, meeting one behind a newer section, stops following
 * /Prev there, so every object only older sections locate is lost ("Root Pages object is not a
 * dictionary"). libpdf still reads what the kernel writes (the verifier's signature dictionaries
 * and DSS, the DSS it adds for B-LT), so the kernel's update then lists every object of the
 * document in its own stream (its entries point into the earlier bytes where the objects are), in
 * fields libpdf reads; /Prev still names the section before it, so the chain of revisions stays
 * whole for a verifier.
 */
import { deflateSync } from 'node:zlib';
import { PDFName, PDFRawStream, type PDFDict } from '@cantoo/pdf-lib';
import { HardenedParser } from './parser.js';
import { XrefRevisions, type XrefEntry } from './xref-revisions.js';

/** The widest cross-reference stream field libpdf reads. */
const LIBPDF_MAX_FIELD = 6;
/** Entries of a stream's dictionary that say how its data is laid out (written anew here). */
const LAYOUT = new Set(['Type', 'W', 'Index', 'Length', 'Filter', 'DecodeParms']);

/** Whether some cross-reference stream of `bytes` has a /W field wider than libpdf reads (a cheap scan, no parse). */
function hasWideFields(bytes: Uint8Array): boolean {
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = file.indexOf('/W', 0, 'latin1'); at >= 0; at = file.indexOf('/W', at + 2, 'latin1')) {
    const m = /^\/W\s*\[\s*(\d+)\s+(\d+)\s+(\d+)\s*\]/.exec(file.toString('latin1', at, at + 40));
    if (m && m.slice(1).some((w) => Number(w) > LIBPDF_MAX_FIELD)) return true;
  }
  return false;
}

/**
 * `out` (`baseLength` bytes of a document, then one update ending in a cross-reference stream)
 * with that stream listing every object of the document, when the base has a stream libpdf cannot
 * read; `out` itself otherwise.
 */
export function completeCrossReferences(out: Uint8Array, baseLength: number): Uint8Array {
  if (!hasWideFields(out.subarray(0, baseLength))) return out;
  const read = new XrefRevisions(out).chainEntries(out.length);
  if (typeof read === 'string') return out;
  const at = read.chain[0]!;
  const { ref, object } = new HardenedParser(out).indirectObjectAt(at);
  if (!(object instanceof PDFRawStream) || object.dict.get(PDFName.of('Type')) !== PDFName.of('XRef')) return out;
  return new Uint8Array(
    Buffer.concat([
      out.subarray(0, at),
      xrefStream(`${ref.objectNumber} ${ref.generationNumber}`, object.dict, read.entries, read.chain[1]),
      Buffer.from(`startxref\n${at}\n%%EOF\n`, 'latin1'),
    ]),
  );
}

/**
 * The object `ref` as a cross-reference stream of `entries` (/W [1 4 2]), its dictionary the
 * trailer entries of `trailer`, with /Prev `prev` and (when given) /Size `size`.
 */
function xrefStream(
  ref: string,
  trailer: PDFDict,
  entries: Map<number, XrefEntry>,
  prev: number | undefined,
  size?: number,
): Buffer {
  const skip = new Set([...LAYOUT, 'Prev', 'XRefStm', ...(size === undefined ? [] : ['Size'])]);
  const kept = trailer
    .entries()
    .filter(([key]) => !skip.has(key.decodeText()))
    .map(([key, value]) => `${key.toString()} ${value.toString()}`)
    .join(' ');
  const numbers = [...entries.keys()].sort((a, b) => a - b);
  const rows = Buffer.alloc(numbers.length * 7);
  numbers.forEach((n, i) => row(rows, i * 7, n, entries.get(n)!));
  const runs: Array<[number, number]> = [];
  for (const n of numbers) {
    const last = runs.at(-1);
    if (last && last[0] + last[1] === n) last[1]++;
    else runs.push([n, 1]);
  }
  const data = deflateSync(rows);
  const head =
    `${ref} obj\n<< /Type /XRef ${kept}${size === undefined ? '' : ` /Size ${size}`}${prev === undefined ? '' : ` /Prev ${prev}`} /W [1 4 2] ` +
    `/Index [${runs.map(([n, c]) => `${n} ${c}`).join(' ')}] /Filter /FlateDecode /Length ${data.length} >>\nstream\n`;
  return Buffer.concat([Buffer.from(head, 'latin1'), data, Buffer.from('\nendstream\nendobj\n', 'latin1')]);
}

/** One 7-byte row (/W [1 4 2]) for `e`; object 0 heads the free list (generation 65535). */
function row(rows: Buffer, at: number, n: number, e: XrefEntry): void {
  if (e.kind === 'free') {
    rows.writeUInt8(0, at);
    rows.writeUInt32BE(0, at + 1);
    rows.writeUInt16BE(n === 0 ? 65535 : 0, at + 5);
  } else if (e.kind === 'offset') {
    rows.writeUInt8(1, at);
    rows.writeUInt32BE(e.offset, at + 1);
    rows.writeUInt16BE(e.generation, at + 5);
  } else {
    rows.writeUInt8(2, at);
    rows.writeUInt32BE(e.stream, at + 1);
    rows.writeUInt16BE(e.index, at + 5);
  }
}
