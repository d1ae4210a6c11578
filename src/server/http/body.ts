import type { FastifyRequest } from 'fastify';
import {
  PayloadTooLargeError,
  UnsupportedMediaTypeError,
  ValidationError,
  isCastpressError,
} from '../../errors/index.js';
import { readMultipartBody, type MultipartLimits } from './multipart.js';
import type { JsonBodyParser } from './json-body.js';

export function isJsonContentType(header: string | undefined): boolean {
  return /^application\/json\s*(;|$)/i.test(header ?? '');
}

export function isMultipartContentType(header: string | undefined): boolean {
  return /^multipart\/form-data\s*(;|$)/i.test(header ?? '');
}

/** The request body as the engine takes it, from JSON (already parsed, size-checked) or multipart (JSON parts through `parse`). */
export async function requestBody(
  request: FastifyRequest,
  multipart: MultipartLimits,
  parse?: JsonBodyParser,
): Promise<unknown> {
  if (request.isMultipart()) {
    try {
      return await readMultipartBody(request, multipart, parse);
    } catch (e) {
      throw multipartError(e, multipart);
    }
  }
  if (isJsonContentType(request.headers['content-type'])) return request.body ?? {};
  throw new UnsupportedMediaTypeError();
}

/** Busboy and the multipart plugin throw their own errors; the caller gets the spec's. */
function multipartError(e: unknown, limits: MultipartLimits): unknown {
  if (isCastpressError(e)) return e;
  const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
  switch (code) {
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new PayloadTooLargeError(`A multipart body may have at most ${limits.parts} parts`, 'body');
    case 'FST_REQ_FILE_TOO_LARGE':
      return new PayloadTooLargeError(`A part is larger than ${limits.partBytes} bytes`, 'body');
    case 'FST_INVALID_JSON_FIELD_ERROR':
      return ValidationError.of('body', 'A part declared as application/json is not valid JSON');
  }
  return ValidationError.of('body', `Malformed multipart body: ${e instanceof Error ? e.message : String(e)}`);
}
