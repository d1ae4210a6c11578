/** Helpers of assembly (assemble.ts): ids for tagged fields, fields as placed, fill fields made from plan fields, errors renamed to the packet file. */
import { CastpressError, InvalidPdfError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { FillSignatureField } from '../../fill/index.js';
import { formatPath } from '../../schema/index.js';
import type { Template, TemplateInput } from '../../template/index.js';
import { isSigningType, type PacketField } from '../request/field.js';
import { type FoundTag } from '../tags/find.js';
import type { PlacedField } from './plan.js';
import type { PacketEngine } from './port.js';
import { type PacketFile } from '../request/files.js';
import { type Payload } from '../request/request.js';

/** A tag's id: its alias when free, else `<type><n>` (signature1, signature2...). */
export function tagFieldId(tag: FoundTag, taken: Set<string>, counters: Map<string, number>): string {
  if (tag.alias && !taken.has(tag.alias)) return tag.alias;
  for (;;) {
    const n = (counters.get(tag.type) ?? 0) + 1;
    counters.set(tag.type, n);
    const id = `${tag.alias ?? tag.type}${n}`;
    if (!taken.has(id)) return id;
  }
}

/** The fill engine's field object for a fill-type field; undefined for the signing kinds. */
export function asFillField(
  f: Pick<PacketField, 'id' | 'type' | 'pageNum' | 'rect'> & Partial<PacketField>,
): TemplateInput['fields'][number] | undefined {
  if (isSigningType(f.type)) return undefined;
  return { ...f, type: f.type } as TemplateInput['fields'][number];
}

export async function fillInto(
  engine: PacketEngine,
  template: TemplateInput | Template,
  payload: Payload | undefined,
  title: string | undefined,
  signatureFields: readonly FillSignatureField[],
  file: PacketFile,
  i: number,
): Promise<Uint8Array> {
  const call = signatureFields.length > 0 ? { signatureFields } : {};
  return remapErrors(
    () => engine.fill(template, { data: payload?.data ?? {}, ...(title !== undefined ? { title } : {}) }, call),
    file,
    i,
  );
}

/** The fill engine names `data.x`, `castEid`, `template.pdf`; in the packet these are under the file and its payload. */
export async function remapErrors<T>(fn: () => Promise<T>, file: PacketFile, i: number): Promise<T> {
  try {
    return await fn();
  } catch (e) {
    if (!(e instanceof CastpressError)) throw e;
    const at = formatPath(['files', i]);
    const payloadAt = formatPath(['data', 'payloads', file.id, 'data']);
    const move = (p: string) =>
      p === 'data'
        ? payloadAt
        : p.startsWith('data.') || p.startsWith('data[')
          ? payloadAt + p.slice(4)
          : p === 'castEid'
            ? `${at}.castEid`
            : p.startsWith('template')
              ? `${at}${p.slice(8) ? `.${p.slice(9)}` : ''}`
              : p;
    if (e instanceof ValidationError)
      throw new ValidationError(e.fields.map((f) => ({ ...f, property: move(f.property) })));
    if (e instanceof NotFoundError) throw new NotFoundError(e.message, `${at}.castEid`);
    if (e instanceof InvalidPdfError)
      throw new InvalidPdfError(e.message, file.kind === 'upload' ? `${at}.file` : at, { cause: e });
    throw e;
  }
}

/** Field types whose value is loaded from where it points (a URL or a data: URL). */
const LOADED_TYPES = new Set(['imageFile']);

/**
 * `payload` without its text-only values (`textOnly`, typed by people) that would fill a field that
 * loads its value (an image field): those are left out, named in `dropped` (property paths).
 */
export function withoutLoadedText(
  payload: Payload | undefined,
  fields: ReadonlyArray<{ id: string; alias?: string; type: string }>,
  fileId: string,
): { payload: Payload | undefined; dropped: string[] } {
  if (!payload?.textOnly?.length) return { payload, dropped: [] };
  const loaded = new Set(
    fields.filter((f) => LOADED_TYPES.has(f.type)).flatMap((f) => (f.alias ? [f.alias, f.id] : [f.id])),
  );
  const dropped = payload.textOnly.filter((key) => loaded.has(key) && key in payload.data);
  if (dropped.length === 0) return { payload, dropped: [] };
  const data = Object.fromEntries(Object.entries(payload.data).filter(([key]) => !dropped.includes(key)));
  return {
    payload: { ...payload, data },
    dropped: dropped.map((key) => formatPath(['data', 'payloads', fileId, 'data', key])),
  };
}

/** A template's or the request's field as placed on a packet file (the same shape from either source). */
export function placedField(
  fileId: string,
  f: {
    id: string;
    type: PlacedField['type'];
    pageNum: number;
    rect: PlacedField['rect'];
    alias?: string;
    format?: string;
  },
  source: PlacedField['source'],
): PlacedField {
  return {
    fileId,
    fieldId: f.id,
    type: f.type,
    pageNum: f.pageNum,
    rect: f.rect,
    alias: f.alias,
    ...(f.format ? { format: f.format } : {}),
    source,
  };
}
