/**
 * The revisions of a file as a viewer that follows cross-references sees them: from the revision's
 * last `startxref`, each cross-reference section (a table, a stream, a hybrid file's /XRefStm) and
 * its /Prev chain, every in-use entry resolved to the body it points at (an offset, or an index in
 * an object stream). revisions.ts reads a revision in file order (a later body of a number
 * replaces an earlier one), as a repairing reader does; this one reads it by its entries, so an
 * update that only re-points an entry at another body already in the file (a shadow attack's
 * hide-and-replace) is a change of that object, and an entry freed is an object removed.
 *
 * Bodies are parsed once per file: an entry that points where an earlier revision's did gives
 * the same snapshot object, so a comparison stops at identity.
 */
import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { HardenedParser } from './parser.js';
import { refText, snapshotOf, type PdfObjectSnapshot, type RevisionGraph } from './revisions.js';

/** Where an object number's body is: nowhere (freed), at an offset, or at an index of an object stream. */
export type XrefEntry =
  | { kind: 'free' }
  | { kind: 'offset'; offset: number; generation: number }
  | { kind: 'packed'; stream: number; index: number };
type Entry = XrefEntry;

export interface ChainEntries {
  entries: Map<number, XrefEntry>;
  /** Offsets of the sections followed, newest first. */
  chain: number[];
  /** The widest field (bytes) of the chain's cross-reference streams' /W. */
  widest: number;
  root?: PDFObject;
  info?: PDFObject;
  /** The newest section's trailer (a table's, or the stream's dictionary). */
  trailer: PDFDict;
}

interface Section {
  entries: Map<number, Entry>;
  trailer: PDFDict;
  /** Where the section's bytes end (a section must lie inside the revision that names it). */
  end: number;
  /** The widest field of a stream's /W (0 for a table). */
  widest: number;
}

/** A revision read by its cross-references. */
export interface XrefRevision extends RevisionGraph {
  /** Offsets of the cross-reference sections followed, newest first. */
  chain: number[];
}

const TYPE = PDFName.of('Type');
const XREF = PDFName.of('XRef');
const OBJ_STM = PDFName.of('ObjStm');
/** More sections than this in one chain is not a file any writer makes. */
const MAX_SECTIONS = 10_000;

function int(obj: PDFObject | undefined): number | undefined {
  if (!(obj instanceof PDFNumber)) return undefined;
  const n = obj.asNumber();
  return Number.isSafeInteger(n) && n >= 0 ? n : undefined;
}

/** A body that is not what its entry says (wrong header, unreadable): a value no other body has. */
function broken(where: string): PdfObjectSnapshot {
  return { value: { invalid: true }, text: `invalid: ${where}` };
}

export class XrefRevisions {
  readonly #file: Buffer;
  readonly #parser: HardenedParser;
  readonly #sections = new Map<number, Section | string>();
  readonly #bodies = new Map<number, { ref: PDFRef; object: PDFObject; end: number } | string>();
  readonly #snapshots = new Map<string, PdfObjectSnapshot>();
  readonly #streams = new Map<number, { parser: HardenedParser; numbers: number[]; offsets: number[] } | string>();
  readonly #graphs = new Map<number, XrefRevision>();

  constructor(bytes: Uint8Array) {
    this.#file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    this.#parser = new HardenedParser(bytes);
  }

  /** The revision whose bytes end at `end`, read from its last `startxref`. */
  graph(end: number): XrefRevision {
    let g = this.#graphs.get(end);
    if (!g) {
      try {
        g = this.#read(end);
      } catch (e) {
        g = { end, objects: new Map(), chain: [], fatal: (e as Error).message };
      }
      this.#graphs.set(end, g);
    }
    return g;
  }

  /**
   * Every entry the revision ending at `end` has (newest section first wins), the sections
   * followed, the trailer's /Root and /Info, and the widest field of its cross-reference streams.
   */
  chainEntries(end: number): ChainEntries | string {
    const at = this.#file.lastIndexOf('startxref', end - 9, 'latin1');
    const m = at < 0 ? null : /^startxref\s+(\d{1,15})/.exec(this.#file.toString('latin1', at, Math.min(end, at + 40)));
    if (!m) return 'no startxref';
    const chain: number[] = [];
    const entries = new Map<number, XrefEntry>();
    let root: PDFObject | undefined;
    let info: PDFObject | undefined;
    let widest = 0;
    let newest: PDFDict | undefined;
    for (let next: number | undefined = Number(m[1]); next !== undefined;) {
      if (chain.includes(next)) return 'the cross-reference sections form a loop';
      if (chain.length >= MAX_SECTIONS) return 'too many cross-reference sections';
      chain.push(next);
      const section = this.#section(next);
      if (typeof section === 'string') return section;
      if (section.end > end) return `the cross-reference section at ${next} lies past the revision`;
      newest ??= section.trailer;
      // A hybrid file's table marks the objects of its object streams free; its /XRefStm stream
      // locates them (ISO 32000-2 7.5.8.4): a stream entry stands where the table has none or a free one.
      const stm = int(section.trailer.get(PDFName.of('XRefStm')));
      const hybrid = stm === undefined ? undefined : this.#section(stm);
      const extra = typeof hybrid === 'object' && hybrid.end <= end ? hybrid.entries : new Map<number, XrefEntry>();
      for (const n of new Set([...section.entries.keys(), ...extra.keys()])) {
        if (entries.has(n)) continue;
        const own = section.entries.get(n);
        entries.set(n, own === undefined || (own.kind === 'free' && extra.has(n)) ? extra.get(n)! : own);
      }
      widest = Math.max(widest, section.widest, typeof hybrid === 'object' ? hybrid.widest : 0);
      root ??= section.trailer.get(PDFName.of('Root'));
      info ??= section.trailer.get(PDFName.of('Info'));
      next = int(section.trailer.get(PDFName.of('Prev')));
    }
    return { entries, chain, widest, trailer: newest!, ...(root ? { root } : {}), ...(info ? { info } : {}) };
  }

  #read(end: number): XrefRevision {
    const read = this.chainEntries(end);
    if (typeof read === 'string') return { end, objects: new Map(), chain: [], fatal: read };
    const { entries, chain, root, info } = read;
    const objects = new Map<string, PdfObjectSnapshot>();
    for (const [n, e] of entries) {
      if (e.kind === 'free' || n === 0) continue;
      const generation = e.kind === 'offset' ? e.generation : 0;
      const snapshot = this.#object(n, e, entries, end);
      if (snapshot) objects.set(`${n} ${generation}`, snapshot);
    }
    return {
      end,
      objects,
      chain,
      ...(root instanceof PDFRef ? { root: refText(root) } : {}),
      ...(info instanceof PDFRef ? { info: refText(info) } : {}),
    };
  }

  /** The snapshot of object `n` as `e` locates it; undefined for object and cross-reference streams. */
  #object(n: number, e: Entry, entries: Map<number, Entry>, end: number): PdfObjectSnapshot | undefined {
    if (e.kind === 'offset') {
      const body = this.#body(e.offset);
      if (typeof body === 'string') return broken(`${e.offset}: ${body}`);
      if (body.end > end) return broken(`${e.offset}: the body runs past the revision`);
      if (body.ref.objectNumber !== n || body.ref.generationNumber !== e.generation)
        return broken(`${e.offset}: the entry of ${n} points at object ${refText(body.ref)}`);
      if (body.object instanceof PDFRawStream) {
        const type = body.object.dict.get(TYPE);
        if (type === XREF || type === OBJ_STM) return undefined;
      }
      return this.#snapshot(`o${e.offset}`, body.object);
    }
    if (e.kind !== 'packed') return undefined;
    const holder = entries.get(e.stream);
    if (holder?.kind !== 'offset') return broken(`object stream ${e.stream} is not in use`);
    const stream = this.#objectStream(holder.offset);
    if (typeof stream === 'string') return broken(`object stream ${e.stream}: ${stream}`);
    const body = this.#body(holder.offset);
    if (typeof body === 'string' || body.end > end) return broken(`object stream ${e.stream} runs past the revision`);
    if (stream.numbers[e.index] !== n) return broken(`object stream ${e.stream} has no object ${n} at ${e.index}`);
    const key = `s${holder.offset}:${e.index}`;
    const known = this.#snapshots.get(key);
    if (known) return known;
    let object: PDFObject;
    try {
      object = stream.parser.directObjectAt(stream.offsets[e.index]!).object;
    } catch (err) {
      return broken(`object stream ${e.stream}: ${(err as Error).message}`);
    }
    return this.#snapshot(key, object);
  }

  #snapshot(key: string, object: PDFObject): PdfObjectSnapshot {
    let s = this.#snapshots.get(key);
    if (!s) {
      s = snapshotOf(object);
      this.#snapshots.set(key, s);
    }
    return s;
  }

  #body(offset: number): { ref: PDFRef; object: PDFObject; end: number } | string {
    let b = this.#bodies.get(offset);
    if (b === undefined) {
      try {
        if (offset >= this.#file.length) throw new Error('the offset lies past the file');
        b = this.#parser.indirectObjectAt(offset);
        if (this.#parser.fatal) b = this.#parser.fatal;
      } catch (e) {
        b = (e as Error).message;
      }
      this.#bodies.set(offset, b);
    }
    return b;
  }

  #objectStream(offset: number): { parser: HardenedParser; numbers: number[]; offsets: number[] } | string {
    let s = this.#streams.get(offset);
    if (s === undefined) {
      const body = this.#body(offset);
      if (typeof body === 'string') s = body;
      else if (!(body.object instanceof PDFRawStream) || body.object.dict.get(TYPE) !== OBJ_STM)
        s = 'not an object stream';
      else {
        const data = body.object.contents;
        const first = int(body.object.dict.get(PDFName.of('First'))) ?? 0;
        const n = int(body.object.dict.get(PDFName.of('N'))) ?? 0;
        const head = Buffer.from(data.buffer, data.byteOffset, Math.min(first, data.length))
          .toString('latin1')
          .trim()
          .split(/\s+/)
          .map(Number);
        const numbers: number[] = [];
        const offsets: number[] = [];
        for (let i = 0; i < n && 2 * i + 1 < head.length; i++) {
          numbers.push(head[2 * i]!);
          offsets.push(first + head[2 * i + 1]!);
        }
        s = { parser: new HardenedParser(data), numbers, offsets };
      }
      this.#streams.set(offset, s);
    }
    return s;
  }

  #section(offset: number): Section | string {
    let s = this.#sections.get(offset);
    if (s === undefined) {
      try {
        s = this.#file.toString('latin1', offset, offset + 4) === 'xref' ? this.#table(offset) : this.#stream(offset);
      } catch (e) {
        s = (e as Error).message;
      }
      this.#sections.set(offset, s);
    }
    return s;
  }

  /** A classic table: subsections of `first count`, then `offset generation n|f` entries, then `trailer`. */
  #table(offset: number): Section | string {
    const trailerAt = this.#file.indexOf('trailer', offset, 'latin1');
    if (trailerAt < 0) return `the cross-reference table at ${offset} has no trailer`;
    const tokens = this.#file
      .toString('latin1', offset + 4, trailerAt)
      .trim()
      .split(/\s+/)
      .filter(Boolean);
    const entries = new Map<number, Entry>();
    for (let i = 0; i < tokens.length;) {
      const first = Number(tokens[i]);
      const count = Number(tokens[i + 1]);
      if (!Number.isSafeInteger(first) || !Number.isSafeInteger(count) || count < 0)
        return `the cross-reference table at ${offset} is malformed`;
      i += 2;
      if (i + 3 * count > tokens.length) return `the cross-reference table at ${offset} is cut short`;
      for (let k = 0; k < count; k++, i += 3) {
        const [where, generation, kind] = [Number(tokens[i]), Number(tokens[i + 1]), tokens[i + 2]];
        if (kind === 'n') entries.set(first + k, { kind: 'offset', offset: where, generation });
        else if (kind === 'f') entries.set(first + k, { kind: 'free' });
        else return `the cross-reference table at ${offset} has an entry that is neither n nor f`;
      }
    }
    const { object: trailer, end } = this.#parser.directObjectAt(trailerAt + 7);
    if (!(trailer instanceof PDFDict)) return `the trailer at ${trailerAt} is not a dictionary`;
    return { entries, trailer, end, widest: 0 };
  }

  /** A cross-reference stream: rows of /W widths for the numbers /Index names. */
  #stream(offset: number): Section | string {
    const body = this.#body(offset);
    if (typeof body === 'string') return `no cross-reference section at ${offset} (${body})`;
    const stream = body.object;
    if (!(stream instanceof PDFRawStream) || stream.dict.get(TYPE) !== XREF)
      return `no cross-reference section at ${offset}`;
    const dict = stream.dict;
    const w = dict.lookup(PDFName.of('W'));
    const widths = w instanceof PDFArray ? w.asArray().map((x) => int(x)) : [];
    if (widths.length !== 3 || widths.some((x) => x === undefined || x > 8))
      return `the cross-reference stream at ${offset} has no valid /W`;
    const [w0, w1, w2] = widths as [number, number, number];
    const index = dict.lookup(PDFName.of('Index'));
    const ranges: number[] =
      index instanceof PDFArray
        ? index.asArray().map((x) => int(x) ?? -1)
        : [0, int(dict.get(PDFName.of('Size'))) ?? 0];
    const data = stream.contents;
    const row = w0 + w1 + w2;
    const read = (at: number, width: number): number => {
      let v = 0;
      for (let i = 0; i < width; i++) v = v * 256 + data[at + i]!;
      return v;
    };
    const entries = new Map<number, Entry>();
    let at = 0;
    for (let r = 0; r + 1 < ranges.length; r += 2) {
      const [first, count] = [ranges[r]!, ranges[r + 1]!];
      if (first < 0 || count < 0) return `the cross-reference stream at ${offset} has an invalid /Index`;
      for (let k = 0; k < count; k++, at += row) {
        if (at + row > data.length) return `the cross-reference stream at ${offset} is cut short`;
        const type = w0 === 0 ? 1 : read(at, w0);
        const f2 = read(at + w0, w1);
        const f3 = read(at + w0 + w1, w2);
        if (type === 0) entries.set(first + k, { kind: 'free' });
        else if (type === 1) entries.set(first + k, { kind: 'offset', offset: f2, generation: f3 });
        else if (type === 2) entries.set(first + k, { kind: 'packed', stream: f2, index: f3 });
      }
    }
    return { entries, trailer: dict, end: body.end, widest: Math.max(w0, w1, w2) };
  }
}
