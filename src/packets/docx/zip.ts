/**
 * The zip side of a DOCX, with bounded work: the central directory is read by
 * hand (fflate's unzip trusts the sizes an entry declares and has no output cap),
 * each entry is inflated on the libuv pool with `maxOutputLength` set to what is
 * left of the budget, so a zip bomb ends as a 413 after at most the budget's bytes
 * of output, never as memory exhaustion or a blocked event loop.
 */
import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';
import { zipSync, type ZipOptions } from 'fflate';
import { ConversionError } from '../request/errors.js';

const inflateRawAsync = promisify(inflateRaw);

export interface ZipLimits {
  /** Entries in the zip; default 2,000 (a large Word document has a few hundred). */
  maxEntries?: number;
  /** Bytes of all entries once inflated; default 200 MiB. */
  maxInflatedBytes?: number;
}

const ZIP_LIMIT_DEFAULTS = { maxEntries: 2_000, maxInflatedBytes: 200 * 1024 * 1024 } as const;

export interface ZipEntry {
  name: string;
  data: Uint8Array;
}

const EOCD = 0x06054b50;
const CENTRAL = 0x02014b50;
const LOCAL = 0x04034b50;

/** 422: not a zip this reader accepts (LibreOffice would get what we parsed, so nothing we cannot parse is passed on). */
function unreadable(property: string, why: string): ConversionError {
  return new ConversionError(`The DOCX file cannot be read: ${why}`, 422, property);
}

function tooLarge(property: string, why: string): ConversionError {
  return new ConversionError(`The DOCX file is too large to convert: ${why}`, 413, property);
}

function findEnd(view: DataView): number {
  // The end record is 22 bytes plus a comment of at most 65,535.
  const lowest = Math.max(0, view.byteLength - 22 - 0xffff);
  for (let at = view.byteLength - 22; at >= lowest; at--) {
    if (view.getUint32(at, true) === EOCD) return at;
  }
  return -1;
}

export async function readZip(bytes: Uint8Array, property: string, limits: ZipLimits = {}): Promise<ZipEntry[]> {
  const maxEntries = limits.maxEntries ?? ZIP_LIMIT_DEFAULTS.maxEntries;
  const maxBytes = limits.maxInflatedBytes ?? ZIP_LIMIT_DEFAULTS.maxInflatedBytes;
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const end = bytes.byteLength >= 22 ? findEnd(view) : -1;
  if (end < 0) throw unreadable(property, 'no zip directory');
  const count = view.getUint16(end + 10, true);
  const dirOffset = view.getUint32(end + 16, true);
  if (view.getUint16(end + 4, true) !== 0 || count === 0xffff || dirOffset === 0xffffffff)
    throw unreadable(property, 'multi-disk and zip64 archives are not supported');
  if (count > maxEntries) throw tooLarge(property, `${count} zip entries (at most ${maxEntries})`);

  // First pass: the directory alone, so declared sizes over the budget are refused before any inflating.
  const found: Array<{ name: string; method: number; size: number; start: number }> = [];
  const names = new Set<string>();
  let declared = 0;
  let at = dirOffset;
  for (let i = 0; i < count; i++) {
    if (at + 46 > bytes.byteLength || view.getUint32(at, true) !== CENTRAL)
      throw unreadable(property, 'a damaged zip directory');
    const flags = view.getUint16(at + 8, true);
    const method = view.getUint16(at + 10, true);
    const size = view.getUint32(at + 20, true);
    const nameLen = view.getUint16(at + 28, true);
    const skip = nameLen + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
    const local = view.getUint32(at + 42, true);
    if (at + 46 + nameLen > bytes.byteLength) throw unreadable(property, 'a damaged zip directory');
    const name = Buffer.from(bytes.subarray(at + 46, at + 46 + nameLen)).toString(
      (flags & 0x800) !== 0 ? 'utf8' : 'latin1',
    );
    if ((flags & 1) !== 0) throw unreadable(property, `entry "${name}" is encrypted`);
    if (method !== 0 && method !== 8) throw unreadable(property, `entry "${name}" uses compression method ${method}`);
    if (names.has(name)) throw unreadable(property, `entry "${name}" appears twice`);
    names.add(name);
    declared += view.getUint32(at + 24, true);
    if (declared > maxBytes) throw tooLarge(property, `its entries declare more than ${maxBytes} bytes`);
    if (local + 30 > bytes.byteLength || view.getUint32(local, true) !== LOCAL)
      throw unreadable(property, `entry "${name}" has no local header`);
    const start = local + 30 + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
    if (start + size > bytes.byteLength) throw unreadable(property, `entry "${name}" runs past the end of the file`);
    found.push({ name, method, size, start });
    at += 46 + skip;
  }

  // Second pass: inflate, with the output capped by what is left (declared sizes can lie).
  const entries: ZipEntry[] = [];
  let total = 0;
  for (const e of found) {
    const raw = bytes.subarray(e.start, e.start + e.size);
    let data: Uint8Array;
    if (e.method === 0) data = raw;
    else {
      const left = maxBytes - total;
      try {
        data = await inflateRawAsync(raw, { maxOutputLength: Math.max(1, left) });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
          throw tooLarge(property, `its entries inflate to more than ${maxBytes} bytes`);
        throw unreadable(property, `entry "${e.name}" cannot be inflated`);
      }
    }
    total += data.byteLength;
    if (total > maxBytes) throw tooLarge(property, `its entries inflate to more than ${maxBytes} bytes`);
    entries.push({ name: e.name, data });
  }
  return entries;
}

/**
 * Writes the entries back, stored (not compressed): the result is a temporary file
 * for LibreOffice, and deflating it again would only cost time on this thread.
 */
export function writeZip(entries: ZipEntry[]): Uint8Array {
  const files: Record<string, [Uint8Array, ZipOptions]> = {};
  for (const e of entries) files[e.name] = [e.data, { level: 0, mtime: new Date(1980, 0, 1) }];
  return zipSync(files);
}
