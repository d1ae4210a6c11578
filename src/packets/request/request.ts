/**
 * The createEtchPacket arguments: validated and normalised in one pass, every
 * violation collected into one ValidationError with the property's path
 * (`files[2].fields[0].rect.width`, `signers[1].fields[0].fileId`).
 */
import { z } from 'zod';
import { ValidationError, type FieldError } from '../../errors/index.js';
import {
  collect,
  formatPath,
  isPlainObject,
  NO_PRIVATE_KEY_MESSAGE,
  type DataDecryptor,
  type FillData,
} from '../../schema/index.js';
import { isAttachableType } from './field.js';
import { fieldsOf, parseFile, requestFieldIndex, type PacketFile } from './files.js';
import { cleanTypedText } from '../../format/index.js';
import { httpUrl, signaturePageOptions } from './page-options.js';

/** Default token lifetimes of the spec (minutes). */
const TOKEN_MINUTES_MAX = 86_400;
export const TOKEN_MINUTES_EMAIL = 14 * 24 * 60;
export const TOKEN_MINUTES_EMBEDDED = 2 * 60;

const SIGNER_TYPES = ['email', 'embedded', 'in-person', 'inline', 'in-person-inline'] as const;
/**
 * Signer types whose signing URL the caller generates (generateEtchSignURL, authenticated by its key);
 * only `email` signers are mailed a link. docs/signature-packets.md, "Signer types".
 */
export const CALLER_URL_SIGNER_TYPES: readonly string[] = ['embedded', 'in-person', 'inline', 'in-person-inline'];
/** Signer types who sign on a device the sender hands over: the page asks them to confirm their name first. */
export const IN_PERSON_SIGNER_TYPES: readonly string[] = ['in-person', 'in-person-inline'];
/** Emails a signer's `enableEmails` list may name. */
const SIGNER_EMAILS = ['etchComplete'] as const;

const bool = z.boolean();

/** true/undefined = every email, false/[] = none, a list = only those. Normalised to the list form or `true`. */
type EmailName = (typeof SIGNER_EMAILS)[number];
const enableEmails = z
  .unknown()
  .optional()
  .transform((v, ctx): true | EmailName[] => {
    if (v === undefined || v === true) return true;
    if (v === false) return [];
    if (!Array.isArray(v)) {
      ctx.issues.push({ code: 'custom', message: 'Expected true, false or a list of email names', input: v });
      return [];
    }
    const names: EmailName[] = [];
    v.forEach((n, i) => {
      if ((SIGNER_EMAILS as readonly unknown[]).includes(n)) names.push(n as EmailName);
      else
        ctx.issues.push({
          code: 'custom',
          message: `Unknown email ${JSON.stringify(n)}; supported: ${SIGNER_EMAILS.join(', ')}`,
          input: n,
          path: [i],
        });
    });
    return names;
  });

const signerFieldRef = z.object({ fileId: z.string().min(1), fieldId: z.string().min(1) });

/**
 * A signer's name as it is drawn (name fields, certificate) and mailed: controls, bidi overrides and
 * zero-width characters removed. Emails need no cleaning: the address check admits none of them.
 */
export const signerName = z
  .string()
  .transform(cleanTypedText)
  .pipe(z.string().min(1, 'Must not be empty (control, bidi and zero-width characters do not count)').max(500));

const signerSchema = z.object({
  id: z.string().min(1),
  name: signerName.optional(),
  email: z.email({ error: 'Must be a valid email address' }).optional(),
  signerType: z.enum(SIGNER_TYPES).default('email'),
  signatureMode: z.enum(['draw', 'text']).default('draw'),
  signatureExperience: z.enum(['signWhileReviewing', 'signBeforeReviewing']).default('signWhileReviewing'),
  routingOrder: z.number().int().min(1).optional(),
  acceptEachField: bool.default(true),
  showFinishSigningButton: bool.optional(),
  enableEmails,
  redirectURL: httpUrl.optional(),
  fields: z.array(signerFieldRef).default([]),
  tokenValidForMinutes: z.number().int().min(1).max(TOKEN_MINUTES_MAX).optional(),
  isPending: bool.default(false),
  allowNameChange: bool.optional(),
  allowEmailChange: bool.optional(),
  requireNameOnLoad: bool.optional(),
  requireEmailOnLoad: bool.optional(),
});

type SignerInput = z.output<typeof signerSchema>;

/** The parts of a signer the cross-checks need, read from a signer that failed validation elsewhere. */
const signerLeniently = z.object({
  id: z.string().min(1).optional().catch(undefined),
  // Present counts as present: whether it is well formed is the schema's message.
  name: z.unknown().optional(),
  email: z.unknown().optional(),
  isPending: z.boolean().catch(false).default(false),
  signerType: z.string().catch('email').default('email'),
  requireEmailOnLoad: z.boolean().catch(false).default(false),
  requireNameOnLoad: z.boolean().catch(false).default(false),
  fields: z.array(signerFieldRef.optional().catch(undefined)).catch([]).default([]),
});

export interface Signer extends Omit<SignerInput, 'routingOrder' | 'tokenValidForMinutes'> {
  /** 1-based; the signer's position in the list when the request leaves it out. */
  routingOrder: number;
  tokenValidForMinutes: number;
}

const packetOptions = z.object({
  name: z.string().trim().min(1),
  isDraft: bool.default(false),
  isTest: bool.default(false),
  mergePDFs: bool.default(false),
  duplicateCasts: bool.default(false),
  allowUpdates: bool.default(false),
  signatureEmailSubject: z.string().optional(),
  signatureEmailBody: z.string().optional(),
  replyToName: z.string().optional(),
  replyToEmail: z.email({ error: 'Must be a valid email address' }).optional(),
  signaturePageOptions: signaturePageOptions.optional(),
  webhookURL: httpUrl.optional(),
  enableEmails: enableEmails,
  organizationEid: z.string().optional(),
  signatureProvider: z.string().optional(),
  createCastTemplatesFromUploads: bool.optional(),
});

export type PacketOptions = z.output<typeof packetOptions>;

export interface Payload {
  data: FillData;
  filename?: string;
  /**
   * Keys of `data` whose values people typed (a workflow's forms): text only. Such a value never fills an
   * image field (it would be loaded as an image's URL): it is left out, with a warning. castpress only.
   */
  textOnly?: string[];
}

export interface PacketRequest extends PacketOptions {
  files: PacketFile[];
  signers: Signer[];
  /** Fill data per file id (decrypted when the request sent a string). */
  payloads: Record<string, Payload>;
}

export interface PacketParseOptions {
  decrypt?: DataDecryptor;
}

function parsePayloads(
  raw: unknown,
  decrypt: DataDecryptor | undefined,
  errors: FieldError[],
): Record<string, Payload> {
  if (raw === undefined || raw === null) return {};
  let data: unknown = raw;
  if (typeof raw === 'string') {
    if (!decrypt) {
      errors.push({
        property: 'data',
        // The fill's wording: read by API callers and library users alike (not "pass privateKey to assemblePacket").
        message: NO_PRIVATE_KEY_MESSAGE,
      });
      return {};
    }
    try {
      data = JSON.parse(decrypt(raw)) as unknown;
    } catch (e) {
      errors.push({ property: 'data', message: `Cannot decrypt data: ${e instanceof Error ? e.message : String(e)}` });
      return {};
    }
  }
  const shape = z.object({
    payloads: z
      .record(
        z.string(),
        z.object({
          data: z.record(z.string(), z.unknown()),
          filename: z.string().min(1).optional(),
          textOnly: z.array(z.string()).optional(),
        }),
      )
      .default({}),
  });
  const parsed = collect(shape, data, ['data'], errors);
  // Values are checked against each file's fields by the fill engine, which names them under data.payloads.<id>.data.
  return (parsed?.payloads ?? {}) as Record<string, Payload>;
}

/**
 * Validates a createEtchPacket body. Cross-checks that need only the request
 * (unique ids, references to files, explicit fields' kinds) are made here; the
 * ones that need the documents (fields supplied by text tags or templates,
 * page numbers) are made while assembling.
 */
export function parsePacketRequest(body: unknown, options: PacketParseOptions = {}): PacketRequest {
  if (!isPlainObject(body)) throw ValidationError.of('(body)', 'Expected a JSON object');
  const errors: FieldError[] = [];
  const opts = collect(packetOptions, body, [], errors);

  const files: PacketFile[] = [];
  if (!Array.isArray(body.files) || body.files.length === 0) {
    errors.push(emptyListError(body.files, 'files'));
  } else {
    const seen = new Map<string, number>();
    body.files.forEach((raw, i) => {
      const f = parseFile(raw, i, errors);
      if (!f) return;
      if (seen.has(f.id))
        errors.push({
          property: `files[${i}].id`,
          message: `Duplicate file id "${f.id}" (also files[${seen.get(f.id)}])`,
        });
      else seen.set(f.id, i);
      const ids = new Set<string>();
      fieldsOf(f).forEach((field, j) => {
        if (ids.has(field.id))
          errors.push({
            property: `files[${i}].fields[${requestFieldIndex(f, j)}].id`,
            message: `Duplicate field id "${field.id}"`,
          });
        ids.add(field.id);
      });
      files.push(f);
    });
  }

  // Every id a file object names, valid or not.
  const namedFileIds = new Set(
    (Array.isArray(body.files) ? body.files : []).flatMap((f: unknown) =>
      isPlainObject(f) && typeof f.id === 'string' && f.id !== '' ? [f.id] : [],
    ),
  );

  const signerInputs = Array.isArray(body.signers) ? body.signers : undefined;
  const signers: Signer[] = [];
  if (!signerInputs || signerInputs.length === 0) {
    errors.push(emptyListError(body.signers, 'signers'));
  } else {
    const seen = new Map<string, number>();
    signerInputs.forEach((raw, i) => {
      const at = `signers[${i}]`;
      const s = collect(signerSchema, raw, ['signers', i], errors);
      // The cross-checks read the raw signer leniently, so a signer with a bad email still has its
      // references and its pending state checked: one response lists every problem.
      const lenient = signerLeniently.safeParse(raw);
      if (!lenient.success) return;
      const l = lenient.data;
      if (l.id !== undefined && seen.has(l.id))
        errors.push({
          property: `${at}.id`,
          message: `Duplicate signer id "${l.id}" (also signers[${seen.get(l.id)}])`,
        });
      else if (l.id !== undefined) seen.set(l.id, i);
      if (!l.isPending) {
        if (l.name === undefined)
          errors.push({ property: `${at}.name`, message: 'Required (only a pending signer may omit it)' });
        if (l.email === undefined)
          errors.push({ property: `${at}.email`, message: 'Required (only a pending signer may omit it)' });
      } else if (body.allowUpdates !== true) {
        errors.push({
          property: `${at}.isPending`,
          message: 'A pending signer requires allowUpdates: true on the packet',
        });
      }
      if (l.requireNameOnLoad && IN_PERSON_SIGNER_TYPES.includes(l.signerType)) {
        // The hand-over compares the name typed with the name given here: a name the signer enters
        // instead would leave nothing to confirm, so the packet could not be signed as asked.
        errors.push({
          property: `${at}.requireNameOnLoad`,
          message: `Not available for signerType "${l.signerType}": the signer confirms the name given here when the device is handed over`,
        });
      }
      if (l.requireEmailOnLoad && ['email', 'in-person', 'in-person-inline'].includes(l.signerType)) {
        errors.push({
          property: `${at}.requireEmailOnLoad`,
          message: `Not available for signerType "${l.signerType}"`,
        });
      }
      l.fields.forEach((ref, j) => ref && checkSignerRef(ref, files, namedFileIds, `${at}.fields[${j}]`, errors));
      if (!s) return;
      signers.push({
        ...s,
        routingOrder: s.routingOrder ?? i + 1,
        tokenValidForMinutes:
          s.tokenValidForMinutes ??
          (CALLER_URL_SIGNER_TYPES.includes(s.signerType) ? TOKEN_MINUTES_EMBEDDED : TOKEN_MINUTES_EMAIL),
      });
    });
  }

  const payloads = parsePayloads(body.data, options.decrypt, errors);
  for (const key of Object.keys(payloads)) {
    if (namedFileIds.size > 0 && !namedFileIds.has(key))
      errors.push({ property: formatPath(['data', 'payloads', key]), message: `No file with id "${key}"` });
  }

  if (errors.length > 0 || !opts) throw new ValidationError(errors);
  return { ...opts, files, signers, payloads };
}

/** The error of a list the request must hold at least one of (`files`, `signers`), worded as zod words it. */
function emptyListError(value: unknown, property: string): FieldError {
  return {
    property,
    message: Array.isArray(value)
      ? 'Must contain at least 1 item'
      : value === undefined
        ? 'Required'
        : 'Expected array',
  };
}

function checkSignerRef(
  ref: { fileId: string; fieldId: string },
  files: PacketFile[],
  namedFileIds: Set<string>,
  at: string,
  errors: FieldError[],
): void {
  const file = files.find((f) => f.id === ref.fileId);
  if (!file) {
    // A file that is named but invalid has its own errors; a reference to it is not one more.
    if (!namedFileIds.has(ref.fileId))
      errors.push({ property: `${at}.fileId`, message: `No file with id "${ref.fileId}"` });
    return;
  }
  // Fields of templates and text tags are known only once the documents are read: checked by assembly.
  const field = fieldsOf(file).find((f) => f.id === ref.fieldId);
  if (field && !isAttachableType(field.type)) {
    errors.push({
      property: `${at}.fieldId`,
      message: `Field "${ref.fieldId}" is a ${field.type} field; signers take only signature, initial, signatureDate, fullName and email fields`,
    });
  }
}
