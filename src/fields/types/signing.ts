import { dateFormatProblem } from '../../format/index.js';
import type { FieldTypeModule } from '../contract.js';
import { fail, textWidget } from '../values.js';

/** What a fill value for a signing field would be told (fill skips them before asking: see `signedAs`). */
const SIGNED_NOT_FILLED = 'Signing fields are signed, not filled';

/**
 * signature: the box a signer signs in a packet. A fill leaves it undrawn; interactive output
 * writes an empty signature field there (src/acroform's signature writer, not `interactive`).
 * A fillable PDF's unsigned signature field imports as one.
 */
export const signature: FieldTypeModule = {
  type: 'signature',
  signedAs: 'signature',
  format: () => fail(SIGNED_NOT_FILLED),
  interactive: () => [],
  importAcro: (facts) => (facts.kind === 'signature' ? {} : undefined),
};

/**
 * initial: the box a signer initials in a packet. A fill leaves it undrawn; interactive output
 * writes an empty text field, where a reader of the form types initials in any viewer (a
 * signature field would ask them for a digital ID for each initial).
 */
export const initial: FieldTypeModule = {
  type: 'initial',
  signedAs: 'text',
  format: () => fail(SIGNED_NOT_FILLED),
  interactive: (input) => textWidget(input),
};

/**
 * signatureDate: the date a signer signs, shown in the field's moment-style `format` (src/format)
 * when a packet's signer signs. A fill leaves it undrawn; interactive output writes an empty text field.
 */
export const signatureDate: FieldTypeModule = {
  type: 'signatureDate',
  signedAs: 'text',
  formatProblem: dateFormatProblem,
  format: () => fail(SIGNED_NOT_FILLED),
  interactive: (input) => textWidget(input),
};
