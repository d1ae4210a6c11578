/**
 * WOFF2 → plain TrueType (SFNT) bytes. fontkit decodes WOFF2 (Brotli, the transformed `glyf`
 * and `loca` tables) and draws its glyphs, but its subsetter copies glyph bytes by `loca`
 * offsets, which a transformed `glyf` does not have: embedded subsets came out broken or threw
 * a RangeError on composite glyphs. So a WOFF2 file is rebuilt here into the SFNT it encodes,
 * from fontkit's decoded tables and glyphs, and the registry parses that like any TTF.
 *
 * Rebuilt `glyf` keeps every outline point and composite transform; TrueType instructions
 * (hinting) are dropped, as fontkit does not keep them and PDF viewers do not use them.
 * Composite components are written with offsets (ARGS_ARE_XY_VALUES): fontkit does not keep
 * the rare point-matching form either.
 */
import fontkit, { type Font, type FontCollection } from '@cantoo/fontkit';

interface Point {
  onCurve: boolean;
  endContour: boolean;
  x: number;
  y: number;
}

interface Component {
  glyphID: number;
  dx: number;
  dy: number;
  scaleX: number;
  scaleY: number;
  scale01: number;
  scale10: number;
}

interface TransformedGlyph {
  numberOfContours: number;
  points?: Point[];
  components?: Component[];
}

interface TableEntry {
  tag: string;
  offset: number;
  length: number;
  transformed?: boolean;
}

/** The fontkit internals of a WOFF2 font this module reads (fontkit's WOFF2Font). */
interface Woff2Internals {
  type: string;
  numGlyphs: number;
  directory: { tables: Record<string, TableEntry | undefined> };
  stream: { buffer: Uint8Array };
  _decompress(): void;
  _transformGlyfTable(): void;
  _transformedGlyphs?: Array<TransformedGlyph | undefined>;
}

export function isWoff2(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x77 && bytes[1] === 0x4f && bytes[2] === 0x46 && bytes[3] === 0x32; // 'wOF2'
}

const ON_CURVE = 0x01;
const ARG_1_AND_2_ARE_WORDS = 0x0001;
const ARGS_ARE_XY_VALUES = 0x0002;
const WE_HAVE_A_SCALE = 0x0008;
const MORE_COMPONENTS = 0x0020;
const WE_HAVE_AN_X_AND_Y_SCALE = 0x0040;
const WE_HAVE_A_TWO_BY_TWO = 0x0080;

/** A growable big-endian byte writer. */
class Writer {
  #bytes: number[] = [];
  u8(v: number): void {
    this.#bytes.push(v & 0xff);
  }
  u16(v: number): void {
    this.u8(v >> 8);
    this.u8(v);
  }
  i16(v: number): void {
    this.u16(v < 0 ? v + 0x10000 : v);
  }
  f2dot14(v: number): void {
    this.i16(Math.round(v * 16384));
  }
  get length(): number {
    return this.#bytes.length;
  }
  done(): Uint8Array {
    return Uint8Array.from(this.#bytes);
  }
}

const clamp16 = (v: number): number => Math.max(-32768, Math.min(32767, Math.round(v)));

function encodeGlyph(glyph: TransformedGlyph | undefined, bbox: { minX: number; minY: number; maxX: number; maxY: number }): Uint8Array {
  if (!glyph || glyph.numberOfContours === 0) return new Uint8Array(0);
  const w = new Writer();
  w.i16(glyph.numberOfContours);
  const finite = [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY].every(Number.isFinite);
  for (const v of finite ? [bbox.minX, bbox.minY, bbox.maxX, bbox.maxY] : [0, 0, 0, 0]) w.i16(clamp16(v));
  if (glyph.numberOfContours > 0) {
    const points = glyph.points ?? [];
    points.forEach((p, i) => {
      if (p.endContour) w.u16(i);
    });
    w.u16(0); // no instructions
    for (const p of points) w.u8(p.onCurve ? ON_CURVE : 0); // every coordinate as a signed 16-bit delta
    let x = 0;
    for (const p of points) {
      w.i16(clamp16(p.x - x));
      x = p.x;
    }
    let y = 0;
    for (const p of points) {
      w.i16(clamp16(p.y - y));
      y = p.y;
    }
  } else {
    const components = glyph.components ?? [];
    components.forEach((c, i) => {
      let flags = ARG_1_AND_2_ARE_WORDS | ARGS_ARE_XY_VALUES;
      if (i < components.length - 1) flags |= MORE_COMPONENTS;
      if (c.scale01 !== 0 || c.scale10 !== 0) flags |= WE_HAVE_A_TWO_BY_TWO;
      else if (c.scaleX !== c.scaleY) flags |= WE_HAVE_AN_X_AND_Y_SCALE;
      else if (c.scaleX !== 1) flags |= WE_HAVE_A_SCALE;
      w.u16(flags);
      w.u16(c.glyphID);
      w.i16(clamp16(c.dx));
      w.i16(clamp16(c.dy));
      if (flags & WE_HAVE_A_TWO_BY_TWO) {
        w.f2dot14(c.scaleX);
        w.f2dot14(c.scale01);
        w.f2dot14(c.scale10);
        w.f2dot14(c.scaleY);
      } else if (flags & WE_HAVE_AN_X_AND_Y_SCALE) {
        w.f2dot14(c.scaleX);
        w.f2dot14(c.scaleY);
      } else if (flags & WE_HAVE_A_SCALE) w.f2dot14(c.scaleX);
    });
  }
  // Glyphs start on 4-byte boundaries (long loca offsets).
  while (w.length % 4 !== 0) w.u8(0);
  return w.done();
}

function checksum(data: Uint8Array): number {
  let sum = 0;
  for (let i = 0; i < data.length; i += 4) {
    const word = ((data[i] ?? 0) << 24) | ((data[i + 1] ?? 0) << 16) | ((data[i + 2] ?? 0) << 8) | (data[i + 3] ?? 0);
    sum = (sum + (word >>> 0)) >>> 0;
  }
  return sum;
}

/** A WOFF2 font as fontkit decodes it (its WOFF2Font, whose members this module reads). */
function isWoff2Font(font: Font | FontCollection): font is Font & Woff2Internals {
  return font.type === 'WOFF2' && typeof Reflect.get(font, '_decompress') === 'function';
}

function bboxOf(font: Font, gid: number): { minX: number; minY: number; maxX: number; maxY: number } {
  const glyph = font.getGlyph(gid);
  if (!glyph) throw new Error(`WOFF2 glyph ${gid} cannot be read`);
  return glyph.bbox;
}

/** The SFNT a WOFF2 file encodes; throws when it is not a TrueType-flavoured WOFF2 fontkit can read. */
export function woff2ToSfnt(bytes: Uint8Array): Uint8Array {
  const font = fontkit.create(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  if (!isWoff2Font(font)) throw new Error('not a WOFF2 font');
  font._decompress();
  const tables = font.directory.tables;
  const glyfEntry = tables.glyf;
  if (!glyfEntry) throw new Error('WOFF2 without a glyf table (CFF flavour) is not supported');
  for (const entry of Object.values(tables)) {
    if (entry && entry.tag !== 'glyf' && entry.tag !== 'loca' && entry.transformed) throw new Error(`WOFF2 with a transformed ${entry.tag} table is not supported`);
  }
  const data = font.stream.buffer;
  const out = new Map<string, Uint8Array>();
  for (const [tag, entry] of Object.entries(tables)) {
    if (!entry || tag === 'glyf' || tag === 'loca' || tag === 'DSIG') continue;
    out.set(tag, Uint8Array.from(data.subarray(entry.offset, entry.offset + entry.length)));
  }

  if (glyfEntry.transformed) {
    font._transformGlyfTable();
    const glyphs = font._transformedGlyphs ?? [];
    const parts: Uint8Array[] = [];
    const loca = new DataView(new ArrayBuffer(4 * (font.numGlyphs + 1)));
    let offset = 0;
    for (let gid = 0; gid < font.numGlyphs; gid++) {
      loca.setUint32(4 * gid, offset);
      const glyph = glyphs[gid];
      const encoded = encodeGlyph(glyph, glyph && glyph.numberOfContours !== 0 ? bboxOf(font, gid) : { minX: 0, minY: 0, maxX: 0, maxY: 0 });
      parts.push(encoded);
      offset += encoded.length;
    }
    loca.setUint32(4 * font.numGlyphs, offset);
    const glyf = new Uint8Array(offset);
    let at = 0;
    for (const p of parts) {
      glyf.set(p, at);
      at += p.length;
    }
    out.set('glyf', glyf);
    out.set('loca', new Uint8Array(loca.buffer));
    // head.indexToLocFormat = 1: the loca written above has 32-bit offsets.
    const head = out.get('head');
    if (!head || head.length < 54) throw new Error('WOFF2 without a head table');
    new DataView(head.buffer, head.byteOffset, head.byteLength).setInt16(50, 1);
  } else {
    const loca = tables.loca;
    out.set('glyf', Uint8Array.from(data.subarray(glyfEntry.offset, glyfEntry.offset + glyfEntry.length)));
    if (loca) out.set('loca', Uint8Array.from(data.subarray(loca.offset, loca.offset + loca.length)));
  }
  const head = out.get('head');
  if (head && head.length >= 12) new DataView(head.buffer, head.byteOffset, head.byteLength).setUint32(8, 0); // checkSumAdjustment, recomputed below

  const tags = [...out.keys()].sort();
  const numTables = tags.length;
  let entrySelector = 0;
  while (1 << (entrySelector + 1) <= numTables) entrySelector++;
  const searchRange = (1 << entrySelector) * 16;
  let size = 12 + 16 * numTables;
  const offsets = new Map<string, number>();
  for (const tag of tags) {
    offsets.set(tag, size);
    size += Math.ceil(out.get(tag)!.length / 4) * 4;
  }
  const sfnt = new Uint8Array(size);
  const view = new DataView(sfnt.buffer);
  view.setUint32(0, 0x00010000);
  view.setUint16(4, numTables);
  view.setUint16(6, searchRange);
  view.setUint16(8, entrySelector);
  view.setUint16(10, numTables * 16 - searchRange);
  tags.forEach((tag, i) => {
    const table = out.get(tag)!;
    const r = 12 + 16 * i;
    for (let k = 0; k < 4; k++) view.setUint8(r + k, tag.charCodeAt(k));
    view.setUint32(r + 4, checksum(table));
    view.setUint32(r + 8, offsets.get(tag)!);
    view.setUint32(r + 12, table.length);
    sfnt.set(table, offsets.get(tag)!);
  });
  const headAt = offsets.get('head');
  if (headAt !== undefined) view.setUint32(headAt + 8, (0xb1b0afba - checksum(sfnt)) >>> 0);
  return sfnt;
}
