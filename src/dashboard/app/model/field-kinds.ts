/**
 * What the editor knows of each field type: its name in the interface, the size a new one gets, and
 * which of the template field's properties apply to it (src/fields/types: the options each type reads).
 */
import { FILL_TYPES, SIGNING_TYPES, type FieldType, type Rect } from './types.js';

/** Groups of properties the properties panel shows for a type. */
export type Section = 'format' | 'cells' | 'lines' | 'options' | 'square' | 'parts' | 'rows' | 'style' | 'rotation';

export interface FieldKind {
  label: string;
  /** Width and height, in points, of a field added without drawing it. */
  size: { width: number; height: number };
  sections: readonly Section[];
  /** The parts a field of the type may place separately, in order. */
  parts?: readonly string[];
  /** What `format` takes, shown beside the input. */
  formatHint?: string;
}

const TEXT: readonly Section[] = ['style', 'rows', 'rotation'];
const NUMERIC: readonly Section[] = ['format', 'style', 'rows'];
export const NAME_PARTS = ['firstName', 'mi', 'lastName'] as const;
export const ADDRESS_PARTS = ['street1', 'street2', 'city', 'state', 'zip', 'country'] as const;
const NUMBER_HINT = 'A numeral pattern such as 0,0.00 or $0,0.00';
const DATE_HINT = 'Tokens such as MM/DD/YYYY, D MMMM YYYY (default MM/DD/YYYY)';

export const FIELD_KINDS: Readonly<Record<FieldType, FieldKind>> = {
  shortText: { label: 'Short text', size: { width: 160, height: 20 }, sections: TEXT },
  longText: { label: 'Long text', size: { width: 240, height: 60 }, sections: ['style', 'rows'] },
  email: { label: 'Email', size: { width: 160, height: 20 }, sections: TEXT },
  ssn: { label: 'SSN', size: { width: 100, height: 20 }, sections: TEXT },
  ein: { label: 'EIN', size: { width: 100, height: 20 }, sections: TEXT },
  date: { label: 'Date', size: { width: 100, height: 20 }, sections: ['format', ...TEXT], formatHint: DATE_HINT },
  radioGroup: { label: 'Radio group', size: { width: 60, height: 16 }, sections: ['options', 'style'] },
  imageFile: { label: 'Image', size: { width: 120, height: 80 }, sections: [] },
  checkbox: { label: 'Checkbox', size: { width: 14, height: 14 }, sections: ['square', 'style', 'rotation'] },
  number: { label: 'Number', size: { width: 80, height: 20 }, sections: NUMERIC, formatHint: NUMBER_HINT },
  decimalNumber: {
    label: 'Decimal number',
    size: { width: 80, height: 20 },
    sections: NUMERIC,
    formatHint: NUMBER_HINT,
  },
  dollar: { label: 'Dollar', size: { width: 80, height: 20 }, sections: NUMERIC, formatHint: NUMBER_HINT },
  integer: { label: 'Integer', size: { width: 60, height: 20 }, sections: NUMERIC, formatHint: NUMBER_HINT },
  percent: { label: 'Percent', size: { width: 60, height: 20 }, sections: NUMERIC, formatHint: NUMBER_HINT },
  charList: {
    label: 'Boxes per letter',
    size: { width: 120, height: 20 },
    sections: ['cells', 'style', 'rotation'],
  },
  textWrap: { label: 'Boxes per line', size: { width: 240, height: 48 }, sections: ['lines', 'style'] },
  fullName: { label: 'Full name', size: { width: 200, height: 20 }, sections: ['parts', 'style'], parts: NAME_PARTS },
  usAddress: {
    label: 'US address',
    size: { width: 240, height: 48 },
    sections: ['parts', 'style'],
    parts: ADDRESS_PARTS,
  },
  phone: { label: 'Phone', size: { width: 120, height: 20 }, sections: TEXT },
  signature: { label: 'Signature', size: { width: 160, height: 36 }, sections: [] },
  initial: { label: 'Initials', size: { width: 48, height: 28 }, sections: [] },
  signatureDate: {
    label: 'Signature date',
    size: { width: 100, height: 20 },
    sections: ['format'],
    formatHint: DATE_HINT,
  },
};

export function isSigningType(type: FieldType): boolean {
  return (SIGNING_TYPES as readonly FieldType[]).includes(type);
}

/** The types in the order the type menus list them: fill types, then what a signer fills. */
export const TYPE_GROUPS: ReadonlyArray<{ label: string; types: readonly FieldType[] }> = [
  { label: 'Filled with data', types: FILL_TYPES },
  { label: 'Filled by a signer', types: SIGNING_TYPES },
];

/** A type's default rect at (x, y), kept on a page of the given size. */
export function defaultRect(type: FieldType, x: number, y: number): Rect {
  return { x, y, ...FIELD_KINDS[type].size };
}

/** Shares of the field's width each part takes when its boxes are laid out in one row. */
export const PART_SHARES: Readonly<Record<string, number>> = {
  firstName: 4,
  mi: 1,
  lastName: 4,
  street1: 6,
  street2: 3,
  city: 4,
  state: 1,
  zip: 2,
  country: 2,
};
