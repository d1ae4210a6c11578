import type { Font } from '@cantoo/fontkit';

/** What this reads of a fontkit font: its kind, its table directory and the bytes it was parsed from (fontkit's own fields). */
interface SfntInternals {
  type?: string;
  directory?: { tables?: Record<string, { offset: number; length: number } | undefined> };
  stream?: { buffer?: Uint8Array };
}

/** The fields at the top of every `post` table version, as fontkit names and decodes them: [offset, read]. */
const HEADER: Record<string, [number, (view: DataView, at: number) => number]> = {
  version: [0, (v, at) => v.getInt32(at) / 65536],
  italicAngle: [4, (v, at) => v.getInt32(at) / 65536],
  underlinePosition: [8, (v, at) => v.getInt16(at)],
  underlineThickness: [10, (v, at) => v.getInt16(at)],
  isFixedPitch: [12, (v, at) => v.getUint32(at)],
  minMemType42: [16, (v, at) => v.getUint32(at)],
  maxMemType42: [20, (v, at) => v.getUint32(at)],
  minMemType1: [24, (v, at) => v.getUint32(at)],
  maxMemType1: [28, (v, at) => v.getUint32(at)],
};
const HEADER_LENGTH = 32;

/**
 * fontkit decodes the `post` table whole the first time anything reads it: a version-2 table names
 * every glyph, so Noto Sans's costs thousands of strings (12 ms of a cold W-9 fill in a CPU profile)
 * for the two numbers pdf-lib writes in the FontDescriptor (`italicAngle`, and
 * `isFixedPitch` in its flags). For a TrueType or OpenType file read as it is (fontkit's "TTF" kind,
 * collections' faces included: their table offsets count from the file's start too; not WOFF, whose
 * tables are compressed), the font's `post` becomes a view that answers the header's fields from the
 * table's first 32 bytes, as fontkit decodes them, and anything else (the glyph names) from fontkit's
 * own decoding of the whole table, done on that first read as before. A font without a `post`
 * table, or with one too short for the header, is left as it is.
 */
export function readPostHeaderLazily(font: Font): void {
  const internals: SfntInternals = font;
  const post = internals.directory?.tables?.post;
  const bytes = internals.stream?.buffer;
  const decodeWhole = Object.getOwnPropertyDescriptor(font, 'post')?.get;
  if (internals.type !== 'TTF' || !post || !bytes || !decodeWhole) return;
  if (post.length < HEADER_LENGTH || post.offset + HEADER_LENGTH > bytes.byteLength) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset + post.offset, HEADER_LENGTH);
  const header: Record<string, number> = {};
  for (const [name, [at, read]] of Object.entries(HEADER)) header[name] = read(view, at);
  const whole = (): Record<PropertyKey, unknown> => decodeWhole.call(font) as Record<PropertyKey, unknown>;
  const lazy = new Proxy(header, {
    get: (target, key) => (typeof key === 'string' && key in HEADER ? target[key] : whole()[key]),
    has: (_, key) => key in HEADER || key in whole(),
  });
  Object.defineProperty(font, 'post', { get: () => lazy, configurable: true });
}
