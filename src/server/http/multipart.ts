import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { parseJson } from './json.js';
import type { JsonBodyParser } from './json-body.js';

/** Caps for multipart bodies: multipart exists for payloads over the 1 MiB JSON limit, but not unbounded ones. */
export interface MultipartLimits {
  /** Whole body (Content-Length when sent, and the sum of the parts read). */
  totalBytes: number;
  /** Any one part, file or field. */
  partBytes: number;
  /** Number of parts: a request body has fewer than 30 top-level properties. */
  parts: number;
}

export const DEFAULT_MULTIPART_LIMITS: MultipartLimits = {
  totalBytes: 32 * 1024 * 1024,
  partBytes: 32 * 1024 * 1024,
  parts: 64,
};

/** One part as read: its text, and whether the sender declared it JSON. */
export interface RawPart {
  name: string;
  text: string;
  /** Already parsed by the multipart plugin (a field sent with Content-Type application/json). */
  parsed?: unknown;
  json: boolean;
}

/** Properties whose value is an object or array, sent as JSON text in a part. */
const STRUCTURED = new Set(['data', 'page', 'logo']);

function parsePart(text: string, property: string): unknown {
  try {
    return parseJson(text);
  } catch {
    throw ValidationError.of(property, 'Must be valid JSON');
  }
}

function looksLikeJson(text: string): boolean {
  const t = text.trimStart();
  return t.startsWith('{') || t.startsWith('[');
}

/**
 * Turns the parts into the same body a JSON request would carry. Every part is
 * text, so structured properties are parsed: `data` unless it is the
 * RSA-encrypted string form, `page` and `logo` (`logo=false` too), `fontSize`
 * as a number. Other strings stay strings; booleans such as
 * `includeTimestamp=false` are read by the request schema.
 */
export function bodyFromParts(parts: RawPart[]): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const part of parts) {
    if (part.name === '__proto__' || part.name === 'constructor' || part.name === 'prototype') continue;
    if (Object.hasOwn(body, part.name)) throw ValidationError.of(part.name, 'Sent more than once');
    body[part.name] = coerce(part);
  }
  return body;
}

/** Whether `coerce` reads the part as JSON: declared so, or a structured property whose text looks like JSON. */
function isJsonPart(part: RawPart): boolean {
  return part.json || (STRUCTURED.has(part.name) && looksLikeJson(part.text));
}

function coerce(part: RawPart): unknown {
  if (part.parsed !== undefined) return part.parsed;
  if (part.json) return parsePart(part.text, part.name);
  const text = part.text;
  if (STRUCTURED.has(part.name)) {
    if (isJsonPart(part)) return parsePart(text, part.name);
    if (part.name === 'logo' && (text === 'false' || text === 'true')) return text === 'true';
    return text;
  }
  if (part.name === 'fontSize' && /^\s*-?\d+(\.\d+)?\s*$/.test(text)) return Number(text);
  return text;
}

/** Reads every part of a multipart request, enforcing the caps, and builds the request body. */
export async function readMultipartBody(
  request: FastifyRequest,
  limits: MultipartLimits,
  parse?: JsonBodyParser,
): Promise<Record<string, unknown>> {
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.totalBytes) throw tooLarge(limits);
  // Bytes are counted as they arrive: a chunked body with no Content-Length is refused as soon
  // as it passes the cap, not after the parser has read (and dropped) the rest of it.
  let received = 0;
  let refuse: (e: Error) => void = () => {};
  const overflow = new Promise<never>((_, reject) => {
    refuse = reject;
  });
  overflow.catch(() => {});
  const count = (chunk: Buffer) => {
    received += chunk.length;
    if (received > limits.totalBytes + 64 * 1024) {
      request.raw.off('data', count);
      request.raw.unpipe();
      request.raw.pause();
      refuse(tooLarge(limits));
    }
  };
  request.raw.on('data', count);
  try {
    return await Promise.race([readParts(request, limits, parse), overflow]);
  } finally {
    request.raw.off('data', count);
  }
}

/**
 * Parts declared JSON come as files (their bytes), not as fields: the multipart plugin would parse a JSON
 * field itself, on the event loop, however large. Busboy's own rule otherwise (a file name, or octet-stream).
 */
export function partIsFile(
  _name: string | undefined,
  contentType: string | undefined,
  fileName: string | undefined,
): boolean {
  return (
    fileName !== undefined ||
    contentType === 'application/octet-stream' ||
    /^application\/json/i.test(contentType ?? '')
  );
}

async function readParts(
  request: FastifyRequest,
  limits: MultipartLimits,
  parse?: JsonBodyParser,
): Promise<Record<string, unknown>> {
  const parts: RawPart[] = [];
  let total = 0;
  const iterator = request.parts({
    limits: { fieldSize: limits.partBytes, fileSize: limits.partBytes, parts: limits.parts },
    isPartAFile: partIsFile,
  });
  for await (const part of iterator) {
    if (part.type === 'file') {
      const bytes = await part.toBuffer();
      total += bytes.byteLength;
      if (total > limits.totalBytes) throw tooLarge(limits);
      parts.push({
        name: part.fieldname,
        text: bytes.toString('utf8'),
        json: part.mimetype.startsWith('application/json'),
      });
    } else {
      if (part.valueTruncated)
        throw new PayloadTooLargeError(`A part is larger than ${limits.partBytes} bytes`, part.fieldname);
      const value: unknown = part.value;
      const isText = typeof value === 'string';
      total += isText ? Buffer.byteLength(value) : 0;
      if (total > limits.totalBytes) throw tooLarge(limits);
      parts.push(
        isText
          ? { name: part.fieldname, text: value, json: false }
          : { name: part.fieldname, text: '', parsed: value, json: true },
      );
    }
  }
  // JSON parts through `parse` (a large one on a pool thread); bodyFromParts parses the rest.
  if (parse)
    await Promise.all(
      parts.map(async (part) => {
        if (part.parsed !== undefined || !isJsonPart(part)) return;
        try {
          part.parsed = await parse(part.text, part.name);
        } catch (e) {
          // The same 400 as a part parsed here; a 413 (too many values) stays one.
          if (e instanceof ValidationError) throw ValidationError.of(part.name, 'Must be valid JSON');
          throw e;
        }
      }),
    );
  return bodyFromParts(parts);
}

function tooLarge(limits: MultipartLimits): PayloadTooLargeError {
  return new PayloadTooLargeError(`Multipart body is larger than ${limits.totalBytes} bytes`, 'body');
}
