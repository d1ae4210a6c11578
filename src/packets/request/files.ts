/**
 * The files of a createEtchPacket request (template, upload, HTML, Markdown): their schemas, their
 * types and `parseFile`, which collects every violation with its path (request.ts parses the rest).
 */
import { z } from 'zod';
import { ValidationError, type FieldError } from '../../errors/index.js';
import { collect, formatPath, isPlainObject, parseGenerateRequest } from '../../schema/index.js';
import { packetField, type PacketField } from './field.js';
import { withoutLiteralMarks } from '../../format/index.js';

const fileId = z.string().min(1);
const fields = z.array(packetField);

const templateFile = z.object({
  id: fileId,
  castEid: z.string().min(1),
  /** castpress: the template version to use (as the fill's `versionNumber`); default the latest published. */
  versionNumber: z.number().int().optional(),
  filename: z.string().min(1).optional(),
  title: z.string().optional(),
});

const BASE64 = /^[A-Za-z0-9+/_-]*={0,2}$/;
const base64 = z
  .string()
  .transform((s) => s.replace(/^data:[^,]*;base64,/, '').replace(/\s+/g, ''))
  .refine((s) => s.length > 0 && BASE64.test(s), { error: 'Must be base64-encoded file content' })
  .transform((s) => new Uint8Array(Buffer.from(s, s.includes('-') || s.includes('_') ? 'base64url' : 'base64')));

const bytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.byteLength > 0, {
  error: "Must be the file's bytes",
});

/** The two upload flavours of the spec (a base64 string, `{data, filename, mimetype}`) and raw bytes for library callers. */
const uploadContent = z.union(
  [
    base64.transform((b) => ({ bytes: b, filename: undefined, mimetype: undefined })),
    bytes.transform((b) => ({ bytes: b, filename: undefined, mimetype: undefined })),
    z
      .object({
        data: z.union([base64, bytes]),
        filename: z.string().min(1).optional(),
        mimetype: z.string().min(1).optional(),
      })
      .transform((o) => ({
        bytes: o.data,
        filename: o.filename,
        mimetype: o.mimetype,
      })),
  ],
  { error: 'Must be a base64 string, {data, filename, mimetype} or bytes' },
);

/** castpress only: `false` keeps a file's text tags printed (default: removed from the page content at assembly). */
const hideTextTags = z.boolean().optional();

const uploadFile = z.object({ id: fileId, file: uploadContent, fields, title: z.string().optional(), hideTextTags });

const htmlFile = z.object({
  id: fileId,
  filename: z.string().min(1),
  title: z.string(),
  markup: z.object({ html: z.string(), css: z.string().optional() }),
  fields,
  hideTextTags,
});

const markdownFile = z.object({
  id: fileId,
  filename: z.string().min(1),
  title: z.string(),
  fontSize: z.unknown().optional(),
  textColor: z.unknown().optional(),
  // As in a generate request: the generation time printed on the last page unless false.
  includeTimestamp: z.boolean().optional(),
  fields: z.array(z.record(z.string(), z.unknown())),
  hideTextTags,
});

export interface TemplateFileRef {
  kind: 'template';
  id: string;
  castEid: string;
  /** The version to use; default the latest published. The workflow pins the one a packet was made from. */
  versionNumber?: number;
  filename?: string;
  title?: string;
}

export interface UploadFile {
  kind: 'upload';
  id: string;
  bytes: Uint8Array;
  filename?: string;
  mimetype?: string;
  title?: string;
  fields: PacketField[];
  /** `false`: the file's text tags stay printed. */
  hideTextTags?: boolean;
}

export interface HtmlFile {
  kind: 'html';
  id: string;
  filename: string;
  title: string;
  markup: { html: string; css?: string };
  fields: PacketField[];
  /** `false`: the file's text tags stay printed. */
  hideTextTags?: boolean;
}

export interface MarkdownFile {
  kind: 'markdown';
  id: string;
  filename: string;
  title: string;
  /** The generate request body for the content blocks (already validated; the engine parses it again). */
  generate: {
    type: 'markdown';
    title: string;
    fontSize?: unknown;
    textColor?: unknown;
    includeTimestamp?: boolean;
    data: Record<string, unknown>[];
  };
  /** Index in `fields` of each content block, to name a block's property in errors found while generating. */
  blockIndexes: Array<number | 'title'>;
  fields: PacketField[];
  /** Index in the request's `fields` of each field object (content blocks share that list), for error paths. */
  fieldIndexes: number[];
  /** `false`: the file's text tags stay printed. */
  hideTextTags?: boolean;
}

export type PacketFile = TemplateFileRef | UploadFile | HtmlFile | MarkdownFile;

/** Markdown content blocks and field objects share one list; a field object is the one with a `type`. */
function isFieldObject(v: Record<string, unknown>): boolean {
  return 'type' in v;
}

export function parseFile(raw: unknown, i: number, errors: FieldError[]): PacketFile | undefined {
  const at: PropertyKey[] = ['files', i];
  if (!isPlainObject(raw)) {
    errors.push({ property: formatPath(at), message: 'Expected a file object' });
    return undefined;
  }
  if ('castEid' in raw) {
    const f = collect(templateFile, raw, at, errors);
    return f && { kind: 'template', ...f };
  }
  if ('file' in raw) {
    const f = collect(uploadFile, raw, at, errors);
    return (
      f && {
        kind: 'upload',
        id: f.id,
        bytes: f.file.bytes,
        filename: f.file.filename,
        mimetype: f.file.mimetype,
        title: f.title,
        fields: f.fields,
        ...(f.hideTextTags !== undefined ? { hideTextTags: f.hideTextTags } : {}),
      }
    );
  }
  if ('markup' in raw) {
    const f = collect(htmlFile, raw, at, errors);
    return f && { kind: 'html', ...f };
  }
  if ('fields' in raw) return parseMarkdownFile(raw, at, errors);
  errors.push({
    property: formatPath(at),
    message: 'A file needs `castEid` (template), `file` (upload), `markup` (HTML) or `fields` (Markdown)',
  });
  return undefined;
}

function parseMarkdownFile(
  raw: Record<string, unknown>,
  at: PropertyKey[],
  errors: FieldError[],
): MarkdownFile | undefined {
  const f = collect(markdownFile, raw, at, errors);
  if (!f) return undefined;
  // The spec: a generated file's `title` is also its page header, drawn as the first heading block.
  const titled = f.title.trim() !== '';
  const blocks: Record<string, unknown>[] = titled ? [{ heading: f.title }] : [];
  const blockIndexes: Array<number | 'title'> = titled ? ['title'] : [];
  const placed: PacketField[] = [];
  const fieldIndexes: number[] = [];
  let ok = true;
  f.fields.forEach((item, j) => {
    if (isFieldObject(item)) {
      const field = collect(packetField, item, [...at, 'fields', j], errors);
      if (field) {
        placed.push(field);
        fieldIndexes.push(j);
      } else ok = false;
    } else {
      blocks.push(item);
      blockIndexes.push(j);
    }
  });
  const generate = {
    type: 'markdown' as const,
    title: f.title,
    fontSize: f.fontSize,
    textColor: f.textColor,
    ...(f.includeTimestamp !== undefined ? { includeTimestamp: f.includeTimestamp } : {}),
    data: blocks,
  };
  if (blocks.length === (titled ? 1 : 0)) {
    errors.push({
      property: formatPath([...at, 'fields']),
      message: 'A Markdown file needs at least one content block (heading, label, content or table)',
    });
    return undefined;
  }
  try {
    parseGenerateRequest(generate);
  } catch (e) {
    if (!(e instanceof ValidationError)) throw e;
    errors.push(...remapMarkdownErrors(e.fields, at, blockIndexes));
    return undefined;
  }
  return ok
    ? {
        kind: 'markdown',
        id: f.id,
        filename: f.filename,
        // The heading block keeps the title's literal spans (values drawn as text); names and metadata show it plain.
        title: withoutLiteralMarks(f.title),
        generate,
        blockIndexes,
        fields: placed,
        fieldIndexes,
        ...(f.hideTextTags !== undefined ? { hideTextTags: f.hideTextTags } : {}),
      }
    : undefined;
}

/** A generate error names `data[3].fontSize`; in the packet that block is `files[i].fields[7].fontSize`. */
export function remapMarkdownErrors(
  found: FieldError[],
  at: ReadonlyArray<PropertyKey>,
  blockIndexes: ReadonlyArray<number | 'title'>,
): FieldError[] {
  const base = formatPath(at);
  return found.map((f) => {
    const m = /^data\[(\d+)\](.*)$/.exec(f.property);
    const j = m ? (blockIndexes[Number(m[1])] ?? m[1]) : undefined;
    if (m && j === 'title') return { ...f, property: `${base}.title` };
    if (m) return { ...f, property: `${base}.fields[${j}]${m[2]}` };
    return { ...f, property: f.property === '(body)' ? base : `${base}.${f.property}` };
  });
}

/**
 * Where the `j`-th of `fieldsOf(file)` stands in the request's `files[i].fields`: the same index but in a
 * Markdown file, whose list holds content blocks too (a field after three blocks is `fields[3]`, not `fields[0]`).
 */
export function requestFieldIndex(file: PacketFile, j: number): number {
  return file.kind === 'markdown' ? (file.fieldIndexes[j] ?? j) : j;
}

export function fieldsOf(file: PacketFile): PacketField[] {
  return file.kind === 'template' ? [] : file.fields;
}
