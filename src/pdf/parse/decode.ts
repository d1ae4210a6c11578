import { constants, inflateRawSync, inflateSync } from 'node:zlib';
import { decodePDFRawStream, PDFArray, PDFDict, PDFName, PDFRawStream, type PDFObject } from '@cantoo/pdf-lib';

/** A stream decodes to more bytes than the load's budget allows (a compression bomb). */
export class DecodeBudgetError extends Error {
  constructor(readonly limit: number) {
    super(`a stream decodes to more than ${limit} bytes`);
  }
}

const FLATE = PDFName.of('FlateDecode');
const FILTER = PDFName.of('Filter');
const DECODE_PARMS = PDFName.of('DecodeParms');

/**
 * The decoded bytes of a stream the parser itself must read (object streams,
 * cross-reference streams), never more than `limit` bytes. Flate goes through
 * zlib with `maxOutputLength`: pdf-lib's own inflater decodes a whole deflate
 * block at once, and one block can hold a gigabyte. The other filters of
 * pdf-lib decode in small blocks, so asking them for `limit + 1` bytes is a
 * real bound. Predictors are ignored, as pdf-lib ignores them.
 */
export function decodeCapped(stream: PDFRawStream, limit: number): Uint8Array {
  const filters = listOf(stream.dict, FILTER);
  let data = stream.getContents();
  for (const filter of filters) {
    if (!(filter instanceof PDFName)) throw new Error('a stream filter is not a name');
    data = filter === FLATE ? inflateCapped(data, limit) : otherFilter(stream, filter, data, limit);
    if (data.length > limit) throw new DecodeBudgetError(limit);
  }
  return data;
}

function listOf(dict: PDFDict, key: PDFName): PDFObject[] {
  const obj = dict.lookup(key);
  if (obj === undefined) return [];
  return obj instanceof PDFArray ? obj.asArray().map((o) => dict.context.lookup(o) ?? o) : [obj];
}

function inflateCapped(data: Uint8Array, limit: number): Uint8Array {
  const options = { maxOutputLength: limit + 1, finishFlush: constants.Z_SYNC_FLUSH };
  try {
    return new Uint8Array(inflateSync(data, options));
  } catch (e) {
    if (isTooLarge(e)) throw new DecodeBudgetError(limit);
  }
  // A bad checksum or a missing zlib header: pdf-lib's inflater reads such streams, so read the deflate data raw.
  try {
    return new Uint8Array(inflateRawSync(data.subarray(2), options));
  } catch (e) {
    if (isTooLarge(e)) throw new DecodeBudgetError(limit);
    throw e;
  }
}

function isTooLarge(e: unknown): boolean {
  return e instanceof RangeError || (e as { code?: string } | undefined)?.code === 'ERR_BUFFER_TOO_LARGE';
}

function otherFilter(stream: PDFRawStream, filter: PDFName, data: Uint8Array, limit: number): Uint8Array {
  const ctx = stream.dict.context;
  const dict = PDFDict.fromMapWithContext(new Map<PDFName, PDFObject>([[FILTER, filter]]), ctx);
  const parms = stream.dict.lookup(DECODE_PARMS);
  if (parms instanceof PDFDict) dict.set(DECODE_PARMS, parms);
  const decoder = decodePDFRawStream(PDFRawStream.of(dict, data));
  return new Uint8Array(decoder.getBytes(limit + 1));
}
