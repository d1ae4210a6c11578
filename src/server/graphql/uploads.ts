/**
 * GraphQL multipart requests (the `operations`, `map`, file parts convention
 * the Node client sends): every file part is put into the operation's variables
 * at the paths `map` names, as `{data: bytes, filename, mimetype}`, the shape
 * the packet request's upload accepts.
 */
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';
import { partIsFile, type MultipartLimits } from '../http/multipart.js';
import type { JsonBodyParser } from '../http/json-body.js';
import type { GraphQLRequestBody } from './resolvers/index.js';

interface UploadedFile {
  data: Uint8Array;
  filename?: string;
  mimetype?: string;
}

async function json(text: string | undefined, property: string, parse?: JsonBodyParser): Promise<unknown> {
  if (text === undefined) throw ValidationError.of(property, `The multipart body has no "${property}" part`);
  // A large `operations` part is parsed off the event loop like a large JSON body.
  if (parse) return parse(text, property);
  try {
    return JSON.parse(text);
  } catch {
    throw ValidationError.of(property, `The "${property}" part is not valid JSON`);
  }
}

/** Sets `value` at a dotted path (`variables.files.0.file`) inside `root`, refusing paths that lead nowhere. */
function place(root: Record<string, unknown>, dotted: string, value: unknown, property: string): void {
  const keys = dotted.split('.');
  let at: unknown = root;
  for (const [i, key] of keys.entries()) {
    if (key === '__proto__' || key === 'constructor' || key === 'prototype')
      throw ValidationError.of(property, `Invalid path "${dotted}"`);
    if (at === null || typeof at !== 'object')
      throw ValidationError.of(property, `Path "${dotted}" does not lead into the operation`);
    const container = at as Record<string, unknown>;
    if (i === keys.length - 1) container[key] = value;
    else at = container[key];
  }
}

/** Every part name once: a second `operations` or `map`, or a second file under one name, would silently replace the first. */
function once(name: string, fields: ReadonlyMap<string, string>, files: ReadonlyMap<string, UploadedFile>): void {
  if (fields.has(name) || files.has(name))
    throw ValidationError.of(name, `The multipart body has more than one "${name}" part`);
}

export async function readGraphQLMultipart(
  request: FastifyRequest,
  limits: MultipartLimits,
  parse?: JsonBodyParser,
): Promise<GraphQLRequestBody> {
  const fields = new Map<string, string>();
  const files = new Map<string, UploadedFile>();
  let total = 0;
  try {
    for await (const part of request.parts({
      limits: { fieldSize: limits.partBytes, fileSize: limits.partBytes, parts: limits.parts },
      isPartAFile: partIsFile,
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        total += data.byteLength;
        once(part.fieldname, fields, files);
        if (part.file.truncated)
          throw new PayloadTooLargeError(`A file part is larger than ${limits.partBytes} bytes`, part.fieldname);
        // A field declared JSON (no file name) comes as bytes (`partIsFile`), for `parse` to read off the event loop.
        if (!part.filename && /^application\/json/i.test(part.mimetype))
          fields.set(part.fieldname, data.toString('utf8'));
        else
          files.set(part.fieldname, {
            data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
            filename: part.filename || undefined,
            mimetype: part.mimetype || undefined,
          });
      } else {
        const value = typeof part.value === 'string' ? part.value : JSON.stringify(part.value);
        total += Buffer.byteLength(value);
        if (part.valueTruncated)
          throw new PayloadTooLargeError(`A part is larger than ${limits.partBytes} bytes`, part.fieldname);
        once(part.fieldname, fields, files);
        fields.set(part.fieldname, value);
      }
      if (total > limits.totalBytes)
        throw new PayloadTooLargeError(`Multipart body is larger than ${limits.totalBytes} bytes`, 'body');
    }
  } catch (e) {
    const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new PayloadTooLargeError(`A file part is larger than ${limits.partBytes} bytes`, 'body');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT') {
      throw new PayloadTooLargeError(`A multipart body may have at most ${limits.parts} parts`, 'body');
    }
    throw e;
  }
  const operations = await json(fields.get('operations'), 'operations', parse);
  if (operations === null || typeof operations !== 'object' || Array.isArray(operations)) {
    throw ValidationError.of(
      'operations',
      'The "operations" part must be one GraphQL request object (batches are not served)',
    );
  }
  const map = fields.has('map') ? await json(fields.get('map'), 'map', parse) : {};
  if (map === null || typeof map !== 'object' || Array.isArray(map))
    throw ValidationError.of('map', 'The "map" part must be an object of part name → paths');
  for (const [name, paths] of Object.entries(map as Record<string, unknown>)) {
    const file = files.get(name);
    if (!file) throw ValidationError.of(`map.${name}`, `No file part named "${name}"`);
    if (!Array.isArray(paths) || !paths.every((p) => typeof p === 'string'))
      throw ValidationError.of(`map.${name}`, 'Must be a list of paths');
    // One part is one file: placed at several paths, 1.8 MB of upload would become 30 files and 3,510 pages.
    if (paths.length > 1)
      throw ValidationError.of(
        `map.${name}`,
        `A file part may be placed at one path only; "${name}" is mapped to ${paths.length}`,
      );
    for (const p of paths as string[]) place(operations as Record<string, unknown>, p, file, `map.${name}`);
  }
  return operations as GraphQLRequestBody;
}
