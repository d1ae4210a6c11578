/**
 * The dashboard's uploads (multipart): a template (`POST /dashboard/api/templates`: one `file` part
 * and the text parts `name` and `detect`) and the organization's logo (one `file` part), read under
 * the server's multipart limits (a part, the whole body, the number of parts: 413 past any of
 * them), as the API's multipart routes are.
 */
import type { FastifyRequest } from 'fastify';
import { PayloadTooLargeError, ValidationError } from '../../errors/index.js';

export interface UploadLimits {
  totalBytes: number;
  partBytes: number;
  parts: number;
}

export interface TemplateUpload {
  bytes: Uint8Array;
  filename?: string;
  name?: string;
  detect: boolean;
}

const tooLarge = (limits: UploadLimits) =>
  new PayloadTooLargeError(`Multipart body is larger than ${limits.totalBytes} bytes`, 'body');

/** A multipart body's one file part (`file`) and its text parts; a 400 without a non-empty file, `what` naming it. */
export async function readFileParts(
  request: FastifyRequest,
  limits: UploadLimits,
  what: string,
): Promise<{ file: { bytes: Uint8Array; filename?: string }; text: Map<string, string> }> {
  if (!request.isMultipart()) throw ValidationError.of('body', 'Send the file as multipart/form-data (part "file")');
  const declared = Number(request.headers['content-length']);
  if (Number.isFinite(declared) && declared > limits.totalBytes) throw tooLarge(limits);
  let file: { bytes: Uint8Array; filename?: string } | undefined;
  const text = new Map<string, string>();
  let total = 0;
  try {
    for await (const part of request.parts({
      limits: { fieldSize: limits.partBytes, fileSize: limits.partBytes, parts: limits.parts },
    })) {
      if (part.type === 'file') {
        const data = await part.toBuffer();
        total += data.byteLength;
        if (part.file.truncated)
          throw new PayloadTooLargeError(`A file part is larger than ${limits.partBytes} bytes`, part.fieldname);
        if (part.fieldname !== 'file') throw ValidationError.of(part.fieldname, 'Only the part "file" is a file');
        if (file) throw ValidationError.of('file', 'Send one file');
        file = {
          bytes: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
          ...(part.filename ? { filename: part.filename } : {}),
        };
      } else {
        const value = typeof part.value === 'string' ? part.value : String(part.value);
        total += Buffer.byteLength(value);
        if (part.valueTruncated)
          throw new PayloadTooLargeError(`A part is larger than ${limits.partBytes} bytes`, part.fieldname);
        if (text.has(part.fieldname)) throw ValidationError.of(part.fieldname, 'Sent more than once');
        text.set(part.fieldname, value);
      }
      if (total > limits.totalBytes) throw tooLarge(limits);
    }
  } catch (e) {
    const code = e instanceof Error ? (e as Error & { code?: unknown }).code : undefined;
    if (code === 'FST_REQ_FILE_TOO_LARGE')
      throw new PayloadTooLargeError(`A file part is larger than ${limits.partBytes} bytes`, 'file');
    if (code === 'FST_PARTS_LIMIT' || code === 'FST_FILES_LIMIT' || code === 'FST_FIELDS_LIMIT')
      throw new PayloadTooLargeError(`A multipart body may have at most ${limits.parts} parts`, 'body');
    throw e;
  }
  if (!file || file.bytes.byteLength === 0) throw ValidationError.of('file', `Send ${what} as the part "file"`);
  return { file, text };
}

export async function readTemplateUpload(request: FastifyRequest, limits: UploadLimits): Promise<TemplateUpload> {
  const { file, text } = await readFileParts(request, limits, 'the PDF or DOCX file');
  const detect = text.get('detect') ?? 'true';
  if (detect !== 'true' && detect !== 'false') throw ValidationError.of('detect', 'Must be "true" or "false"');
  const name = text.get('name');
  return { ...file, ...(name !== undefined ? { name } : {}), detect: detect === 'true' };
}
