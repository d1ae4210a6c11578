import type { Font } from '@cantoo/fontkit';

/** What this reads of a fontkit font: its kind, its table directory and the bytes it was parsed from (fontkit's own fields). */
interface SfntInternals {
  type?: string;
  directory?: { tables?: Record<string, { offset: number; length: number } | undefined> };
  stream?: { buffer?: Uint8Array };
}

/**
 * fontkit answers `italicAngle` from the `post` table, which it decodes whole the first time: a
 * version-2 table names every glyph, so Noto Sans's costs thousands of strings (9 ms of a cold W-9
 * fill in a CPU profile, issue 29) for the one number pdf-lib writes in the FontDescriptor. For a
 * TrueType or OpenType file read as it is (fontkit's "TTF" kind, collections' faces included: their
 * table offsets count from the file's start too; not WOFF, whose tables are compressed) the angle is
 * read from the table's header instead: the 16.16 fixed number at byte 4, as fontkit decodes it.
 * Every other `post` field is read by fontkit as before, when something reads it. A font without a
 * `post` table, or with one too short to hold the angle, keeps fontkit's answer.
 */
export function readItalicAngleFromHeader(font: Font): void {
  const internals = font as unknown as SfntInternals;
  const post = internals.directory?.tables?.post;
  const bytes = internals.stream?.buffer;
  if (internals.type !== 'TTF' || !post || !bytes || post.length < 8 || post.offset + 8 > bytes.byteLength) return;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  Object.defineProperty(font, 'italicAngle', { value: view.getInt32(post.offset + 4) / 65536, configurable: true });
}
