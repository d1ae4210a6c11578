/**
 * Incremental updates written by hand, byte by byte, the way other tools (or an attacker) write
 * them: a cross-reference table, a cross-reference stream (pyHanko's form for files that have
 * one), or no cross-reference section at all; entries may point anywhere, including at object
 * bodies already in the file. The kernel's writer is not used, so each update is exactly what the
 * test says.
 */
import { deflateSync } from 'node:zlib';
import { concat, type PdfPart } from './pdf-bytes.js';

const latin1 = (s: string): Uint8Array => new Uint8Array(Buffer.from(s, 'latin1'));
const text = (b: Uint8Array): string => Buffer.from(b.buffer, b.byteOffset, b.byteLength).toString('latin1');

export interface UpdateSpec {
  /** New bodies by object number (generation 0), without `obj`/`endobj`. */
  objects?: Record<number, PdfPart | PdfPart[]>;
  /** Entries pointing at bytes already in the file: object number → offset of an `N G obj` header. */
  repoint?: Record<number, number>;
  /** Entries freed (`f` in a table, type 0 in a stream). */
  free?: number[];
  /** Offset /Prev names; default: the file's last `startxref`. */
  prev?: number;
  /** A stream as pyHanko writes it: /W [1 8 2] (8-byte offsets), object 0 listed first as the head of the free list. */
  wide?: boolean;
  /** 'table' (default), 'stream' (a cross-reference stream, FlateDecode), or 'none' (bodies only). */
  xref?: 'table' | 'stream' | 'none';
  /** Extra trailer entries (e.g. `/Info 9 0 R`), written after /Size /Root /Prev. */
  trailer?: string;
  /** The trailer's /Root; default: the last /Root the file names. */
  root?: string;
}

/** The last `startxref` value and the trailer /Size of `pdf` (read from its end). */
export function tailOf(pdf: Uint8Array): { startXRef: number; size: number; root: string } {
  const t = text(pdf);
  const at = t.lastIndexOf('startxref');
  const startXRef = Number(/startxref\s+(\d+)/.exec(t.slice(at))![1]);
  const sizes = [...t.matchAll(/\/Size\s+(\d+)/g)].map((m) => Number(m[1]));
  const roots = [...t.matchAll(/\/Root\s+(\d+\s+\d+)\s+R/g)].map((m) => m[1]!);
  return { startXRef, size: Math.max(...sizes), root: roots.at(-1)! };
}

/** Offsets of every header `N 0 obj` of object `n` in `pdf`, in file order. */
export function offsetsOf(pdf: Uint8Array, n: number): number[] {
  const all = [...text(pdf).matchAll(new RegExp(`(^|[\\r\\n\\s])(${n} 0 obj)`, 'g'))];
  if (all.length === 0) throw new Error(`object ${n} not found`);
  return all.map((m) => m.index! + m[1]!.length);
}

/** `pdf` followed by one update as `spec` says. */
export function appendUpdate(pdf: Uint8Array, spec: UpdateSpec): Uint8Array {
  const tail = tailOf(pdf);
  const parts: Uint8Array[] = [pdf];
  let length = pdf.length;
  const push = (p: PdfPart) => {
    const b = typeof p === 'string' ? latin1(p) : p;
    parts.push(b);
    length += b.length;
  };
  if (pdf[pdf.length - 1] !== 0x0a) push('\n');
  const offsets = new Map<number, number>(Object.entries(spec.repoint ?? {}).map(([k, v]) => [Number(k), v]));
  for (const [n, body] of Object.entries(spec.objects ?? {})) {
    offsets.set(Number(n), length);
    push(`${n} 0 obj\n`);
    for (const p of Array.isArray(body) ? body : [body]) push(p);
    push('\nendobj\n');
  }
  if (spec.xref === 'none') return concat(parts);
  for (const n of spec.free ?? []) offsets.set(n, -1);
  const numbers = [...offsets.keys()];
  const streamNumber = Math.max(tail.size, ...numbers.map((n) => n + 1));
  const size = spec.xref === 'stream' ? streamNumber + 1 : Math.max(tail.size, ...numbers.map((n) => n + 1));
  const root = spec.root ?? tail.root;
  const trailer = `/Size ${size} /Root ${root} R /Prev ${spec.prev ?? tail.startXRef} ${spec.trailer ?? ''}`;
  const xrefAt = length;
  if (spec.xref === 'stream') {
    offsets.set(streamNumber, xrefAt);
    const sorted = [...offsets].sort((a, b) => a[0] - b[0]);
    const width = spec.wide ? 8 : 4;
    const row = 3 + width;
    if (spec.wide) sorted.unshift([0, -2]);
    const rows = Buffer.alloc(sorted.length * row);
    sorted.forEach(([, off], i) => {
      rows[i * row] = off < 0 ? 0 : 1;
      if (width === 8) rows.writeUIntBE(Math.max(off, 0), i * row + 3, 6);
      else rows.writeUInt32BE(Math.max(off, 0), i * row + 1);
      rows.writeUInt16BE(off === -2 ? 0xffff : off < 0 ? 1 : 0, i * row + 1 + width);
    });
    const index = sorted.map(([n]) => `${n} 1`).join(' ');
    const data = deflateSync(rows);
    push(
      `${streamNumber} 0 obj\n<< /Type /XRef ${trailer} /W [1 ${width} 2] /Index [${index}] /Filter /FlateDecode /Length ${data.length} >>\nstream\n`,
    );
    push(new Uint8Array(data));
    push(`\nendstream\nendobj\nstartxref\n${xrefAt}\n%%EOF\n`);
    return concat(parts);
  }
  const sorted = [...offsets].sort((a, b) => a[0] - b[0]);
  let table = 'xref\n';
  for (const [n, off] of sorted)
    table += off < 0 ? `${n} 1\n0000000000 00001 f \n` : `${n} 1\n${String(off).padStart(10, '0')} 00000 n \n`;
  push(`${table}trailer\n<< ${trailer} >>\nstartxref\n${xrefAt}\n%%EOF\n`);
  return concat(parts);
}
