import { readFileSync, statSync } from 'node:fs';
import { brotliDecompressSync, inflateSync } from 'node:zlib';

/**
 * A few tables of a WOFF or WOFF2 file, uncompressed, for the catalogue scan (sfnt-info.ts): it needs
 * `name`, `OS/2` and `head`, which neither format transforms. WOFF keeps each table deflated on its own;
 * WOFF2 keeps all of them in one Brotli stream, in directory order. Collections (WOFF2 with a `ttcf`
 * flavour) are not read. Sizes are bounded: a file over 32 MB or a stream that inflates past 64 MB
 * is skipped like any unreadable file.
 */
export interface WoffTables {
  data: Buffer;
  tables: Map<string, { offset: number; length: number }>;
}

const MAX_FILE = 32 * 1024 * 1024;
const MAX_OUTPUT = 64 * 1024 * 1024;

/** WOFF2's known-table index (the flags byte's low six bits; 63: the tag follows). */
const KNOWN_TAGS = [
  'cmap', 'head', 'hhea', 'hmtx', 'maxp', 'name', 'OS/2', 'post', 'cvt ', 'fpgm', 'glyf', 'loca', 'prep', 'CFF ', 'VORG', 'EBDT',
  'EBLC', 'gasp', 'hdmx', 'kern', 'LTSH', 'PCLT', 'VDMX', 'vhea', 'vmtx', 'BASE', 'GDEF', 'GPOS', 'GSUB', 'EBSC', 'JSTF', 'MATH',
  'CBDT', 'CBLC', 'COLR', 'CPAL', 'SVG ', 'sbix', 'acnt', 'avar', 'bdat', 'bloc', 'bsln', 'cvar', 'fdsc', 'feat', 'fmtx', 'fvar',
  'gvar', 'hsty', 'just', 'lcar', 'mort', 'morx', 'opbd', 'prop', 'trak', 'Zapf', 'Silf', 'Glat', 'Gloc', 'Feat', 'Sill',
];

export function woffTables(path: string, wanted: string[]): WoffTables | undefined {
  if (statSync(path).size > MAX_FILE) return undefined;
  const file = readFileSync(path);
  const signature = file.toString('latin1', 0, 4);
  if (signature === 'wOFF') return woff1(file, wanted);
  if (signature === 'wOF2') return woff2(file, wanted);
  return undefined;
}

function woff1(file: Buffer, wanted: string[]): WoffTables | undefined {
  const numTables = file.readUInt16BE(12);
  const parts: Buffer[] = [];
  const tables = new Map<string, { offset: number; length: number }>();
  let at = 0;
  for (let i = 0; i < numTables; i++) {
    const r = 44 + i * 20;
    if (r + 20 > file.length) return undefined;
    const tag = file.toString('latin1', r, r + 4);
    if (!wanted.includes(tag)) continue;
    const offset = file.readUInt32BE(r + 4);
    const compLength = file.readUInt32BE(r + 8);
    const origLength = file.readUInt32BE(r + 12);
    if (offset + compLength > file.length || origLength > MAX_OUTPUT) return undefined;
    const stored = file.subarray(offset, offset + compLength);
    const table = compLength < origLength ? inflateSync(stored, { maxOutputLength: origLength }) : stored;
    tables.set(tag, { offset: at, length: table.length });
    parts.push(table);
    at += table.length;
  }
  return { data: Buffer.concat(parts), tables };
}

function woff2(file: Buffer, wanted: string[]): WoffTables | undefined {
  const flavor = file.toString('latin1', 4, 8);
  if (flavor === 'ttcf') return undefined;
  const numTables = file.readUInt16BE(12);
  const totalCompressedSize = file.readUInt32BE(20);
  let p = 48;
  const base128 = (): number => {
    let value = 0;
    for (let k = 0; k < 5; k++) {
      const byte = file[p++];
      if (byte === undefined || (k === 0 && byte === 0x80)) throw new Error('bad UIntBase128');
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return value;
    }
    throw new Error('bad UIntBase128');
  };
  const entries: Array<{ tag: string; length: number }> = [];
  for (let i = 0; i < numTables; i++) {
    const flags = file[p++];
    if (flags === undefined) return undefined;
    const known = flags & 0x3f;
    const tag = known === 63 ? file.toString('latin1', p, (p += 4)) : KNOWN_TAGS[known];
    if (tag === undefined) return undefined;
    const version = flags >> 6;
    const origLength = base128();
    // glyf and loca are transformed at version 0 (3 is none); every other table at any version but 0.
    const transformed = tag === 'glyf' || tag === 'loca' ? version !== 3 : version !== 0;
    entries.push({ tag, length: transformed ? base128() : origLength });
  }
  if (p + totalCompressedSize > file.length) return undefined;
  const stream = brotliDecompressSync(file.subarray(p, p + totalCompressedSize), { maxOutputLength: MAX_OUTPUT });
  const tables = new Map<string, { offset: number; length: number }>();
  let at = 0;
  for (const e of entries) {
    if (wanted.includes(e.tag) && at + e.length <= stream.length) tables.set(e.tag, { offset: at, length: e.length });
    at += e.length;
  }
  return { data: stream, tables };
}
