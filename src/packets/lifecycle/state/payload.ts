/** A packet's payload and request as the store keeps them. Pure. */
import { ValidationError } from '../../../errors/index.js';
import type { AssembledPacket } from '../../assemble/assembled.js';
import type { PacketRecord, TemplateVersionRecord } from '../../store/index.js';

/** A payload replaced, or merged per file and field; a null field value removes the field's data. */
export function mergePayload(
  current: PacketRecord['payload'],
  update: Record<string, unknown>,
  merge: boolean,
): PacketRecord['payload'] {
  const out: PacketRecord['payload'] = merge ? structuredClone(current) : {};
  for (const [fileId, raw] of Object.entries(update)) {
    if (raw === null) {
      delete out[fileId];
      continue;
    }
    if (typeof raw !== 'object' || Array.isArray(raw))
      throw ValidationError.of(`payload.${fileId}`, 'Expected {data, filename?}');
    const p = raw as { data?: unknown; filename?: unknown };
    const data = p.data ?? {};
    if (typeof data !== 'object' || data === null || Array.isArray(data))
      throw ValidationError.of(`payload.${fileId}.data`, 'Expected an object of field values');
    const target = out[fileId] ?? { data: {} };
    const nextData: Record<string, unknown> = merge ? { ...target.data } : {};
    for (const [field, value] of Object.entries(data as Record<string, unknown>)) {
      if (value === null) delete nextData[field];
      else nextData[field] = value;
    }
    out[fileId] = {
      data: nextData,
      ...(typeof p.filename === 'string'
        ? { filename: p.filename }
        : target.filename && merge
          ? { filename: target.filename }
          : {}),
    };
  }
  return out;
}

/** The request as stored: `data` left out (the payload is kept decrypted on its own), bytes kept as bytes. */
export function storableRequest(body: unknown): Record<string, unknown> {
  if (typeof body !== 'object' || body === null) return {};
  const { data: _data, ...rest } = body as Record<string, unknown>;
  return rest;
}

/** The template versions an assembly used, by index in the request's `files`. */
export function templateVersionsOf(assembled: AssembledPacket): TemplateVersionRecord[] {
  return assembled.files.flatMap((f, file) => {
    if (!f.template) return [];
    const asked = assembled.request.files[file];
    const pinned = asked?.kind === 'template' && asked.versionNumber !== undefined;
    return [{ file, ...f.template, ...(pinned ? { pinned: true } : {}) }];
  });
}

/** The stored request with each template file pinned to the version its documents were made from. */
export function pinTemplates(
  stored: Record<string, unknown>,
  templates: readonly TemplateVersionRecord[] | undefined,
): Record<string, unknown> {
  if (!templates || templates.length === 0 || !Array.isArray(stored.files)) return stored;
  const files = (stored.files as unknown[]).map((f, i) => {
    const t = templates.find((x) => x.file === i);
    return t && typeof f === 'object' && f !== null ? { ...f, versionNumber: t.versionNumber } : f;
  });
  return { ...stored, files };
}
