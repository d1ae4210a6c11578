/** Field objects of a packet's files: the template's field object, whose types include the signing kinds. */
import type { z } from 'zod';
import { fieldType, SIGNING_FIELD_TYPES } from '../../fields/index.js';
import { FIELD_TYPES, templateSchema } from '../../template/index.js';

/** Types a signer fills in while signing; written as /Sig (or signer-filled) widgets by the kernel. */
export const SIGNING_TYPES = SIGNING_FIELD_TYPES;
export type SigningType = (typeof SIGNING_TYPES)[number];

/** Kinds a signer's `fields` list may name (the spec's "attachable kinds"). */
export const ATTACHABLE_TYPES = ['signature', 'initial', 'signatureDate', 'fullName', 'email'] as const;
export type AttachableType = (typeof ATTACHABLE_TYPES)[number];

/** A packet's field types are the template's: the fill types and the signing kinds. */
export const PACKET_FIELD_TYPES = FIELD_TYPES;
export type PacketFieldType = (typeof PACKET_FIELD_TYPES)[number];

export function isSigningType(type: string): type is SigningType {
  return (SIGNING_TYPES as readonly string[]).includes(type);
}

export function isAttachableType(type: string): type is AttachableType {
  return (ATTACHABLE_TYPES as readonly string[]).includes(type);
}

// The template's field object, reached through the template door (its index exports the whole
// template schema only).
const templateField = templateSchema.shape.fields.element;

// The template's own format check runs on the template as a whole; a packet field checks its own
// (signatureDate formats are date formats, as the type declares).
export const packetField = templateField.superRefine((f, ctx) => {
  const problem = f.format === undefined ? undefined : fieldType(f.type).formatProblem?.(f.format);
  if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['format'] });
});

export type PacketField = z.output<typeof packetField>;
