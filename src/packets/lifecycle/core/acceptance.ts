/**
 * What the signing page must have collected before the service signs: each
 * signature/initials box accepted (`acceptEachField`), and the name/email the
 * signer typed on opening (`requireNameOnLoad` / `requireEmailOnLoad`). Pure.
 */
import { ValidationError, type FieldError } from '../../../errors/index.js';
import type { DocumentField, StoredSigner } from '../../store/index.js';
import { fieldIdOf } from '../state/document-fields.js';

/** A box the signer accepted on the page: the document's index and the field's id in it. */
export interface AcceptedField {
  document: number;
  fieldId: string;
}

/** Kinds of field the signer clicks one by one; the others (date, name, email) are filled without a click. */
const ACCEPTED_TYPES: ReadonlySet<string> = new Set(['signature', 'initial']);

/**
 * The spec: `signWhileReviewing` (default) enables acceptEachField (default true);
 * `signBeforeReviewing` signs everything at once, as acceptEachField false does.
 */
export function acceptsEachField(signer: Pick<StoredSigner, 'acceptEachField' | 'signatureExperience'>): boolean {
  return signer.acceptEachField !== false && signer.signatureExperience !== 'signBeforeReviewing';
}

/** Refuses a submission that skipped one of the signer's boxes, or names a box that is not theirs. */
export function checkAccepted(
  documents: ReadonlyArray<{ index: number; fields: readonly DocumentField[] }>,
  signerId: string,
  accepted: readonly AcceptedField[],
): void {
  const mine = new Set<string>();
  for (const d of documents)
    for (const f of d.fields)
      if (f.signerId === signerId && ACCEPTED_TYPES.has(f.type)) mine.add(`${d.index}:${fieldIdOf(f)}`);
  const given = new Set(accepted.map((a) => `${a.document}:${a.fieldId}`));
  const errors: FieldError[] = [];
  for (const key of given)
    if (!mine.has(key))
      errors.push({
        property: 'accepted',
        message: `Field ${key} is not one of this signer's signature or initials boxes`,
      });
  for (const key of mine)
    if (!given.has(key))
      errors.push({
        property: 'accepted',
        message: `Field ${key} was not accepted: each signature and initials box must be clicked`,
      });
  if (errors.length > 0) throw new ValidationError(errors);
}

/** The accepted boxes that are this signer's (for the audit trail), each once, in the page's order. */
export function acceptedBoxesOf(
  documents: ReadonlyArray<{ index: number; fields: readonly DocumentField[] }>,
  signerId: string,
  accepted: readonly AcceptedField[],
): AcceptedField[] {
  const mine = new Set<string>();
  for (const d of documents)
    for (const f of d.fields)
      if (f.signerId === signerId && ACCEPTED_TYPES.has(f.type)) mine.add(`${d.index}:${fieldIdOf(f)}`);
  const out: AcceptedField[] = [];
  for (const { document, fieldId } of accepted) {
    const key = `${document}:${fieldId}`;
    if (!mine.delete(key)) continue;
    out.push({ document, fieldId });
  }
  return out;
}

/** Still to be entered on opening (requireNameOnLoad / requireEmailOnLoad). */
export function detailsRequired(
  signer: Pick<StoredSigner, 'requireNameOnLoad' | 'requireEmailOnLoad' | 'nameEnteredAt' | 'emailEnteredAt'>,
): { name: boolean; email: boolean } {
  return {
    name: signer.requireNameOnLoad === true && typeof signer.nameEnteredAt !== 'number',
    email: signer.requireEmailOnLoad === true && typeof signer.emailEnteredAt !== 'number',
  };
}
