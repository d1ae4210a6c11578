/** Field objects of a packet's files: the template's field shape with the signing types added. */
import { z } from 'zod';
import { fieldType } from '../../fields/index.js';
import { dateFormatProblem } from '../../format/index.js';
import { FIELD_TYPES, templateSchema } from '../../template/index.js';

/** Types a signer fills in while signing; written as /Sig (or signer-filled) widgets by the kernel. */
const SIGNING_TYPES = ['signature', 'initial', 'signatureDate'] as const;
export type SigningType = (typeof SIGNING_TYPES)[number];

/** Kinds a signer's `fields` list may name (the spec's "attachable kinds"). */
const ATTACHABLE_TYPES = ['signature', 'initial', 'signatureDate', 'fullName', 'email'] as const;
export type AttachableType = (typeof ATTACHABLE_TYPES)[number];

export const PACKET_FIELD_TYPES = [...SIGNING_TYPES, ...FIELD_TYPES] as const;
export type PacketFieldType = (typeof PACKET_FIELD_TYPES)[number];

export function isSigningType(type: string): type is SigningType {
  return (SIGNING_TYPES as readonly string[]).includes(type);
}

export function isAttachableType(type: string): type is AttachableType {
  return (ATTACHABLE_TYPES as readonly string[]).includes(type);
}

// The template's field object, reached through the template door (its index exports the whole
// template schema only): a packet field is the same object with a wider `type`.
const templateField = templateSchema.shape.fields.element;

// The template's own format check runs on the template as a whole; a packet field checks its own
// (signatureDate formats are date formats).
export const packetField = templateField.extend({ type: z.enum(PACKET_FIELD_TYPES) }).superRefine((f, ctx) => {
  if (f.format === undefined) return;
  const problem =
    f.type === 'signatureDate'
      ? dateFormatProblem(f.format)
      : isSigningType(f.type)
        ? undefined
        : fieldType(f.type).formatProblem?.(f.format);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['format'] });
});

export type PacketField = z.output<typeof packetField>;
