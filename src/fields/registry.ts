import type { FieldType, TemplateField } from './model.js';
import type { AcroFieldFacts, FieldTypeModule } from './contract.js';
import { charList } from './types/char-list.js';
import { checkbox } from './types/checkbox.js';
import { date } from './types/date.js';
import { fullName } from './types/full-name.js';
import { imageFile } from './types/image-file.js';
import { decimalNumber, dollar, integer, number, percent } from './types/number.js';
import { phone } from './types/phone.js';
import { radioGroup } from './types/radio-group.js';
import { initial, signature, signatureDate } from './types/signing.js';
import { ein, ssn } from './types/tax-id.js';
import { email, longText, shortText } from './types/text.js';
import { textWrap } from './types/text-wrap.js';
import { usAddress } from './types/us-address.js';

/**
 * Every field type, by name: one line each. The record is typed by the template model's
 * FIELD_TYPES, so a type named there without a module here does not compile.
 */
export const FIELD_TYPE_MODULES: Readonly<Record<FieldType, FieldTypeModule>> = {
  shortText,
  longText,
  email,
  ssn,
  ein,
  date,
  radioGroup,
  imageFile,
  checkbox,
  number,
  decimalNumber,
  dollar,
  integer,
  percent,
  charList,
  textWrap,
  fullName,
  usAddress,
  phone,
  signature,
  initial,
  signatureDate,
};

/** The module of a field's type. */
export function fieldType(type: FieldType): FieldTypeModule {
  return FIELD_TYPE_MODULES[type];
}

/** Which type claims a fillable PDF's widget first: the most specific text kinds before plain text. */
const IMPORT_ORDER: readonly FieldTypeModule[] = [charList, longText, checkbox, radioGroup, signature, shortText];

/** The type (and its type-specific properties) a fillable PDF's field imports as; undefined when no type takes it. */
export function importedType(facts: AcroFieldFacts): { type: FieldType; props: Partial<TemplateField> } | undefined {
  for (const m of IMPORT_ORDER) {
    const props = m.importAcro?.(facts);
    if (props) return { type: m.type, props };
  }
  return undefined;
}
