/**
 * A workflow definition (a Weld): its forges (web forms) with ordered, typed fields, and the packet
 * it makes (createEtchPacket's arguments, where `{{forgeSlug.fieldName}}` stands for a submitted value).
 * Parsed with zod when the server starts; problems name the file and the property (errors.ts).
 */
import { z } from 'zod';

/**
 * The fill field types a form can collect: one input each. Types whose value is several parts
 * (fullName, usAddress), an image or a layout of boxes (charList, textWrap) are not offered in forms yet.
 */
const FORM_FIELD_TYPES = [
  'shortText',
  'longText',
  'email',
  'phone',
  'date',
  'number',
  'integer',
  'decimalNumber',
  'dollar',
  'percent',
  'ssn',
  'ein',
  'checkbox',
  'radioGroup',
] as const;

/** Eids and slugs appear in URLs and SQL parameters: short, plain. */
const id = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9][A-Za-z0-9_-]*$/, { error: 'Letters, digits, "_" and "-" only' });

const fieldName = z
  .string()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z_][A-Za-z0-9_]*$/, { error: 'A name: letters, digits and "_", not starting with a digit' });

const formField = z
  .object({
    name: fieldName,
    type: z.enum(FORM_FIELD_TYPES),
    label: z.string().min(1).max(200),
    required: z.boolean().default(false),
    /** The fill type's output format (dates, numbers), as in a template field. */
    format: z.string().optional(),
    /** radioGroup: the choices, in order. */
    options: z
      .array(z.object({ id: fieldName, label: z.string().min(1).max(200) }).strict())
      .min(1)
      .optional(),
    /** Checks beyond the type's own. */
    validation: z
      .object({
        maxLength: z.number().int().positive().max(10_000).optional(),
        /** A regular expression the whole value must match (checked on text values). */
        pattern: z.string().max(500).optional(),
        patternMessage: z.string().max(200).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((f, ctx) => {
    if (f.type === 'radioGroup' && !f.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'A radioGroup needs its options' });
    if (f.type !== 'radioGroup' && f.options)
      ctx.addIssue({ code: 'custom', path: ['options'], message: 'Only a radioGroup has options' });
    if (f.validation?.pattern !== undefined) {
      try {
        new RegExp(f.validation.pattern, 'u');
      } catch {
        ctx.addIssue({ code: 'custom', path: ['validation', 'pattern'], message: 'Not a valid regular expression' });
      }
    }
  });
export type FormField = z.output<typeof formField>;

/**
 * Who fills a forge when it is not whoever filled the one before (parties.ts): `"api"` (the caller's
 * backend asks for the party's link, WorkflowService.partyLink) or `{email}`, mailed the link: a fixed
 * address, or exactly one `{{forge.field}}` of an earlier forge's `email` field.
 */
const assignee = z.union([z.literal('api'), z.object({ email: z.string().min(3).max(320) }).strict()]);

const forge = z
  .object({
    eid: id,
    slug: id,
    name: z.string().min(1).max(200),
    /** A new party fills this forge and the ones after it that name none; absent: the same person as the forge before. */
    assignee: assignee.optional(),
    fields: z.array(formField).min(1).max(200),
  })
  .strict();
export type WorkflowForm = z.output<typeof forge>;

/**
 * A signer of the packet: createEtchPacket's signer, plus the forge its person fills (they may sign
 * right after it) and `emailTrusted`: an `email` signer's address taken from a form is mailed without
 * its owner confirming it first (confirmations.ts). Both are taken off before the packet is made.
 */
const packetSigner = z.looseObject({
  id: z.string().min(1),
  forge: id.optional(),
  emailTrusted: z.boolean().optional(),
});

/** createEtchPacket's arguments; checked in full by the packet workflow when a run makes its packet. */
const packet = z.looseObject({
  name: z.string().min(1),
  files: z.array(z.looseObject({ id: z.string().min(1) })).min(1),
  signers: z.array(packetSigner).min(1),
  isTest: z.boolean().optional(),
  data: z.unknown().optional(),
});

export const workflowDefinition = z
  .object({
    eid: id,
    slug: id,
    title: z.string().min(1).max(200),
    /**
     * The organization the workflow belongs to (as the keys file and `--org` name them; default
     * `default`): its runs' packets, the forms' look, the weldComplete webhook and who may query it.
     */
    organization: z.string().min(1).max(200).optional(),
    /** A run's name in lists; may hold `{{forge.field}}`; default the title. */
    displayTitle: z.string().min(1).max(200).optional(),
    /** Where weldComplete goes; default the organisation's webhook. */
    webhookURL: z.url({ protocol: /^https?$/ }).optional(),
    forges: z.array(forge).min(1).max(50),
    packet,
  })
  .strict();
export type WorkflowDefinition = z.output<typeof workflowDefinition>;

/** A definition as served: its version (from the file name) and where it came from. */
export interface Workflow extends WorkflowDefinition {
  version: number;
  file: string;
}
