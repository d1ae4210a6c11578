import { closeSync, openSync, readSync } from 'node:fs';
import { woffTables } from './woff-tables.js';

/** What the catalogue needs to know about one face, read from its name/OS/2 tables. */
export interface FaceInfo {
  path: string;
  /** Set for faces inside a collection (.ttc): what the registry selects the face by. */
  postscriptName?: string;
  /** The face's PostScript name (name ID 6), for every file: engine faces are checked against it. */
  nameId6?: string;
  /** Typographic family (name ID 16) when present, else the legacy family (ID 1). */
  family: string;
  /** Legacy family (name ID 1); differs from `family` for e.g. "Noto Sans CJK SC Light". */
  legacyFamily: string;
  weightClass: number;
  italic: boolean;
}

/**
 * Reads only the table directory and the name, OS/2 and head tables, so a scan of
 * /usr/share/fonts costs a few kilobytes per file instead of parsing 20 MB
 * collections with fontkit.
 */
export function readFaceInfos(path: string): FaceInfo[] {
  const fd = openSync(path, 'r');
  try {
    const read = (offset: number, length: number): Buffer => {
      const buf = Buffer.alloc(length);
      const n = readSync(fd, buf, 0, length, offset);
      if (n < length) throw new Error('truncated font file');
      return buf;
    };
    const head = read(0, 12);
    const tag = head.toString('latin1', 0, 4);
    if (tag === 'ttcf') {
      const numFonts = Math.min(head.readUInt32BE(8), 256);
      const offsets = read(12, 4 * numFonts);
      const infos: FaceInfo[] = [];
      for (let i = 0; i < numFonts; i++) {
        const info = readFace(read, offsets.readUInt32BE(4 * i), path);
        if (info) infos.push({ ...info, postscriptName: info.postscriptName });
      }
      return infos;
    }
    if (tag === '\x00\x01\x00\x00' || tag === 'OTTO' || tag === 'true') {
      const info = readFace(read, 0, path);
      if (!info) return [];
      const { postscriptName: _ignored, ...single } = info;
      return [single];
    }
    if (tag === 'wOFF' || tag === 'wOF2') {
      // Web fonts: the three tables come out of the compressed file (woff-tables.ts), no glyph is decoded.
      const found = woffTables(path, ['name', 'OS/2', 'head']);
      if (!found) return [];
      const read: Reader = (offset, length) => {
        if (offset + length > found.data.length) throw new Error('truncated font file');
        return found.data.subarray(offset, offset + length);
      };
      const info = faceFromTables(found.tables, read, path);
      if (!info) return [];
      const { postscriptName: _ignored, ...single } = info;
      return [single];
    }
    return [];
  } finally {
    closeSync(fd);
  }
}

type Reader = (offset: number, length: number) => Buffer;

type TableMap = Map<string, { offset: number; length: number }>;

function readFace(read: Reader, offset: number, path: string): FaceInfo | undefined {
  const dir = read(offset, 12);
  const numTables = Math.min(dir.readUInt16BE(4), 512);
  const records = read(offset + 12, 16 * numTables);
  const tables: TableMap = new Map();
  for (let i = 0; i < numTables; i++) {
    const r = i * 16;
    tables.set(records.toString('latin1', r, r + 4), { offset: records.readUInt32BE(r + 8), length: records.readUInt32BE(r + 12) });
  }
  return faceFromTables(tables, read, path);
}

function faceFromTables(tables: TableMap, read: Reader, path: string): FaceInfo | undefined {
  const name = tables.get('name');
  if (!name) return undefined;
  const names = readNames(read(name.offset, name.length));
  const legacyFamily = names.get(1);
  if (!legacyFamily) return undefined;
  const family = names.get(16) ?? legacyFamily;
  let weightClass = 400;
  let italic = false;
  const os2 = tables.get('OS/2');
  if (os2 && os2.length >= 64) {
    const t = read(os2.offset, 64);
    weightClass = t.readUInt16BE(4);
    const fsSelection = t.readUInt16BE(62);
    italic = (fsSelection & 0x1) !== 0 || (fsSelection & 0x200) !== 0;
  } else {
    const headTable = tables.get('head');
    if (headTable && headTable.length >= 46) {
      const macStyle = read(headTable.offset, 46).readUInt16BE(44);
      weightClass = macStyle & 1 ? 700 : 400;
      italic = (macStyle & 2) !== 0;
    }
  }
  return { path, postscriptName: names.get(6), nameId6: names.get(6), family, legacyFamily, weightClass, italic };
}

/** name ID → string, preferring Windows Unicode English, then any Unicode, then Mac Roman. */
function readNames(table: Buffer): Map<number, string> {
  const count = table.readUInt16BE(2);
  const stringOffset = table.readUInt16BE(4);
  const best = new Map<number, { rank: number; value: string }>();
  for (let i = 0; i < count; i++) {
    const r = 6 + i * 12;
    if (r + 12 > table.length) break;
    const platform = table.readUInt16BE(r);
    const encoding = table.readUInt16BE(r + 2);
    const language = table.readUInt16BE(r + 4);
    const nameId = table.readUInt16BE(r + 6);
    if (nameId !== 1 && nameId !== 2 && nameId !== 6 && nameId !== 16) continue;
    const length = table.readUInt16BE(r + 8);
    const start = stringOffset + table.readUInt16BE(r + 10);
    if (start + length > table.length) continue;
    const raw = table.subarray(start, start + length);
    let rank: number;
    let value: string;
    if (platform === 3 && (encoding === 1 || encoding === 10)) {
      rank = language === 0x409 ? 0 : 1;
      value = utf16be(raw);
    } else if (platform === 0) {
      rank = 2;
      value = utf16be(raw);
    } else if (platform === 1 && encoding === 0) {
      rank = language === 0 ? 3 : 4;
      value = raw.toString('latin1');
    } else continue;
    const prev = best.get(nameId);
    if (!prev || rank < prev.rank) best.set(nameId, { rank, value });
  }
  return new Map([...best].map(([id, v]) => [id, v.value.trim()]));
}

function utf16be(raw: Buffer): string {
  const swapped = Buffer.from(raw);
  if (swapped.length % 2 === 1) return '';
  swapped.swap16();
  return swapped.toString('utf16le');
}
