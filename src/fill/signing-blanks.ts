import { fieldType, type FilledField } from '../fields/index.js';
import { formatPath, type FillRequest } from '../schema/index.js';
import type { Template } from '../template/index.js';
import { pickStyling, resolveStyle } from './normalize/styles.js';
import type { FillSignatureField } from './signature-fields.js';

/**
 * The template's signing fields (signature, initial, signatureDate) as interactive output writes
 * them: empty, once, on the first output page made from their page. Flat output leaves them
 * undrawn. A fillable PDF's own signature field (acroFieldName) stays as the PDF has it.
 */
export interface SigningBlanks {
  /** Empty text fields (the types' `signedAs: 'text'`): filled fields without a value, each with its template page. */
  text: Array<{ filled: FilledField; templatePage: number }>;
  /** Empty signature fields (`signedAs: 'signature'`), named as the field (a name the form uses gets a suffix). */
  signatures: FillSignatureField[];
}

/** A /Sig field's name from a template field's: no period (no hierarchy), within the writer's 512 characters. */
function signatureName(name: string): string {
  return name.replaceAll('.', '_').trim().slice(0, 480) || 'signature';
}

export function signingBlanks(template: Template, request: FillRequest, pageCount: number): SigningBlanks {
  const blanks: SigningBlanks = { text: [], signatures: [] };
  const requestStyle = pickStyling(request);
  for (const field of template.fields) {
    const signedAs = fieldType(field.type).signedAs;
    if (signedAs === undefined || field.acroFieldName !== undefined || field.pageNum >= pageCount) continue;
    const name = field.name ?? field.alias ?? field.id;
    if (signedAs === 'signature') {
      blanks.signatures.push({
        name: signatureName(name),
        kind: 'signature',
        pageNum: field.pageNum,
        rect: field.rect,
      });
      continue;
    }
    blanks.text.push({
      templatePage: field.pageNum,
      filled: {
        field,
        property: formatPath(['data', field.alias ?? field.id]),
        style: resolveStyle(field, { request: requestStyle, template: template.style }),
        // There for the form's reader to complete: defaultReadOnly locks values, not empty boxes.
        readOnly: field.readOnly ?? false,
        values: { '': '' },
        box: field.rect,
        contents: [],
      },
    });
  }
  return blanks;
}
