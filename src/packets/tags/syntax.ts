/**
 * Text-tag syntax: `{{ type : label : alias : signerId }}`, arguments after the
 * type optional and positional, spaces around the colons allowed. The spec's
 * three forms are `{{ type }}`, `{{ type:::signerId }}` and `{{ type :: alias }}`.
 */
import { PACKET_FIELD_TYPES, type PacketFieldType } from '../request/field.js';

export interface TagSpec {
  type: PacketFieldType;
  label?: string;
  alias?: string;
  signerId?: string;
}

/** What is wrong with a tag's inner text, in words for the caller; undefined when it is well formed. */
export type TagParse = { ok: true; spec: TagSpec } | { ok: false; problem: string };

const TYPES_BY_LOWER = new Map<string, PacketFieldType>(PACKET_FIELD_TYPES.map((t) => [t.toLowerCase(), t]));

/** Parses the text between `{{` and `}}`. Type names match case-insensitively (authors write SIGNATURE). */
export function parseTagText(inner: string): TagParse {
  const parts = inner.split(':').map((p) => p.trim());
  if (parts.length > 4)
    return {
      ok: false,
      problem: `has ${parts.length} colon-separated parts; at most 4 (type : label : alias : signerId)`,
    };
  const [typeText, label, alias, signerId] = parts;
  if (!typeText) return { ok: false, problem: 'has no field type' };
  const type = TYPES_BY_LOWER.get(typeText.toLowerCase());
  if (!type)
    return { ok: false, problem: `unknown field type "${typeText}" (one of ${PACKET_FIELD_TYPES.join(', ')})` };
  for (const [name, value] of [
    ['alias', alias],
    ['signerId', signerId],
  ] as const) {
    if (value && /\s/.test(value)) return { ok: false, problem: `${name} "${value}" contains spaces` };
  }
  const spec: TagSpec = { type };
  if (label) spec.label = label;
  if (alias) spec.alias = alias;
  if (signerId) spec.signerId = signerId;
  return { ok: true, spec };
}
