/**
 * One signer's inputs drawn onto a packet document: their signature and initial
 * marks, the signing date in each field's format and the signer's time zone,
 * their name and email, and values of fill fields they were given. Everything is
 * checked before the document is touched, and drawn as one appended incremental
 * update (src/signing's AppearanceWriter): earlier signers' bytes stay a prefix.
 */
import { z } from 'zod';
import { ValidationError, type FieldError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { formatSignatureDate, type AppearanceWriter, type MarkInput, type SignatureMark } from '../../signing/index.js';
import type { MergedField, PlannedField } from '../assemble/plan.js';
import type { Signer } from '../request/request.js';

export interface SignerInputs {
  /** The signature drawn (strokes), uploaded (PNG/JPEG) or typed; required when the signer has signature fields. */
  signature?: MarkInput;
  /** Initials; default: the signature's kind, typed from the initials of the signer's name. */
  initials?: MarkInput;
  /** Values of fill fields given to this signer, by field id. */
  values?: Record<string, string>;
  /** When the signer signed (the signatureDate fields); default now. */
  signedAt?: Date;
  /** IANA time zone of the signatureDate fields; default UTC. */
  timeZone?: string;
}

const inputsSchema = z.object({
  signature: z.unknown().optional(),
  initials: z.unknown().optional(),
  values: z.record(z.string(), z.string().max(10_000)).optional(),
  signedAt: z.date().optional(),
  timeZone: z.string().max(100).optional(),
});

export interface ApplySignerOptions {
  writer: AppearanceWriter;
  /** The signer as planned (name and email fill their fields). */
  signer: Signer;
  /** The document's fields (a file's `fields` or the merged packet's); only this signer's are drawn. */
  fields: ReadonlyArray<PlannedField | MergedField>;
  /** Field ids the signer submitted for: each must be theirs. */
  submitted?: readonly string[];
}

function idOf(f: PlannedField | MergedField): string {
  return 'mergedFieldId' in f ? f.mergedFieldId : f.fieldId;
}

function pageOf(f: PlannedField | MergedField): number {
  return 'mergedPageNum' in f ? f.mergedPageNum : f.pageNum;
}

function initialsOf(name: string | undefined): string {
  const letters = (name ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => [...w][0]!.toUpperCase());
  return letters.join('') || '—';
}

/** The initials a signer's initial boxes show: theirs, else their name's initials in the signature's kind. */
function initialsInput(inputs: SignerInputs, signer: Signer): MarkInput | undefined {
  return (
    inputs.initials ??
    (inputs.signature
      ? { type: inputs.signature.type === 'text' ? 'text' : 'typed', text: initialsOf(signer.name) }
      : undefined)
  );
}

/**
 * What a signer's signature and initial boxes show (for the certificate of completion): the
 * signature where they had a signature box, the initials where they had an initial box.
 */
export function adoptedMarks(
  inputs: SignerInputs,
  signer: Signer,
  fields: ReadonlyArray<Pick<PlannedField, 'signerId' | 'type'>>,
): { signature?: MarkInput; initials?: MarkInput } {
  const mine = fields.filter((f) => f.signerId === signer.id);
  const initials = mine.some((f) => f.type === 'initial') ? initialsInput(inputs, signer) : undefined;
  return {
    ...(inputs.signature && mine.some((f) => f.type === 'signature') ? { signature: inputs.signature } : {}),
    ...(initials ? { initials } : {}),
  };
}

/** A mark and the planned field it fills (per-signer signatures set it as that field's appearance). */
export interface FieldMarkOf {
  mark: SignatureMark;
  field: PlannedField | MergedField;
}

/** Draws one signer's fields on `pdf`; a typed error and the document unchanged when inputs do not fit the plan. */
export async function applySignerInputs(
  pdf: Uint8Array,
  rawInputs: SignerInputs,
  options: ApplySignerOptions,
): Promise<Uint8Array> {
  const marks = signerMarks(rawInputs, options).map((m) => m.mark);
  return marks.length === 0 ? pdf : options.writer.apply(pdf, marks);
}

/** One signer's marks, each with its field; a typed error when the inputs do not fit the plan. */
export function signerMarks(rawInputs: SignerInputs, options: Omit<ApplySignerOptions, 'writer'>): FieldMarkOf[] {
  const inputs = parseWith(inputsSchema, rawInputs) as SignerInputs;
  const { signer } = options;
  const mine = options.fields.filter((f) => f.signerId === signer.id);
  const errors: FieldError[] = [];
  const ids = new Set(mine.map(idOf));
  for (const [i, id] of (options.submitted ?? []).entries()) {
    if (!ids.has(id)) {
      const other = options.fields.find((f) => idOf(f) === id);
      errors.push({
        property: `fields[${i}]`,
        message: other ? `Field "${id}" is not this signer's to fill` : `No field "${id}" in this document`,
      });
    }
  }
  for (const id of Object.keys(inputs.values ?? {})) {
    const f = mine.find((x) => idOf(x) === id);
    if (!f) errors.push({ property: `values.${id}`, message: `No field "${id}" of this signer` });
  }
  const needsSignature = mine.some((f) => f.type === 'signature');
  if (needsSignature && inputs.signature === undefined)
    errors.push({ property: 'signature', message: 'Required: the signer has signature fields' });
  if (errors.length > 0) throw new ValidationError(errors);

  const signedAt = inputs.signedAt ?? new Date();
  const initials = initialsInput(inputs, signer);
  const marks: FieldMarkOf[] = [];
  const push = (field: PlannedField | MergedField, mark: SignatureMark) => marks.push({ field, mark });
  for (const f of mine) {
    const at = { page: pageOf(f), rect: f.rect };
    switch (f.type) {
      case 'signature':
        push(f, { ...at, role: 'signature', input: inputs.signature as MarkInput });
        break;
      case 'initial':
        if (!initials) throw ValidationError.of('initials', 'Required: the signer has initial fields');
        push(f, { ...at, role: 'initials', input: initials });
        break;
      case 'signatureDate':
        push(f, {
          ...at,
          role: 'field',
          input: {
            type: 'text',
            text: formatSignatureDate(signedAt, {
              ...(f.format ? { format: f.format } : {}),
              ...(inputs.timeZone ? { timeZone: inputs.timeZone } : {}),
            }),
          },
        });
        break;
      case 'fullName':
        if (signer.name) push(f, { ...at, role: 'field', input: { type: 'text', text: signer.name } });
        break;
      case 'email':
        if (signer.email) push(f, { ...at, role: 'field', input: { type: 'text', text: signer.email } });
        break;
      default: {
        const value = inputs.values?.[idOf(f)];
        if (value !== undefined && value !== '')
          push(f, { ...at, role: 'field', input: { type: 'text', text: value } });
      }
    }
  }
  return marks;
}

export { idOf as fieldIdOf };
