/**
 * Sample fill data for the preview: one value per key of `data` (a field's alias, else its id; fields
 * sharing an alias share one key) in the format the spec's table gives for the type. Signing fields
 * have no key: a fill does not draw them.
 */
import { isSigningType } from './field-kinds.js';
import type { TemplateField } from './types.js';

/** A 1 × 1 dark grey PNG: a valid image small enough for the data-URL budget. */
const SAMPLE_IMAGE =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAAAAAA6fptVAAAACklEQVR4nGNwAAAAQgBBKTf07wAAAABJRU5ErkJggg==';

const LETTERS = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';

export function sampleValue(f: TemplateField): unknown {
  switch (f.type) {
    case 'shortText':
      return `Sample ${f.alias ?? f.id}`;
    case 'longText':
      return 'A longer sample text that wraps over more than one line when the box is narrow.';
    case 'email':
      return 'ada@example.com';
    case 'ssn':
      return '123456789';
    case 'ein':
      return '987654321';
    case 'date':
      return '2024-03-15';
    case 'radioGroup':
      return f.options?.[0]?.id ?? '';
    case 'imageFile':
      return SAMPLE_IMAGE;
    case 'checkbox':
      return true;
    case 'number':
    case 'decimalNumber':
      return 1234.5;
    case 'dollar':
      return 1234.56;
    case 'integer':
      return 42;
    case 'percent':
      return 50;
    case 'charList':
      return LETTERS.slice(0, Math.min(f.cells ?? f.maxLength ?? 6, LETTERS.length));
    case 'textWrap':
      return Array.from({ length: Math.max(1, f.lines?.length ?? 1) }, (_, i) => `Line ${i + 1}`);
    case 'fullName':
      return { firstName: 'Ada', mi: 'K', lastName: 'Lovelace' };
    case 'usAddress':
      return { street1: '123 Main St', street2: 'Apt 4', city: 'Springfield', state: 'IL', zip: '62701' };
    case 'phone':
      return { num: '5555550123', region: 'US' };
    case 'signature':
    case 'initial':
    case 'signatureDate':
      return undefined;
  }
}

/** The sample `data` object for the fields, keys in the fields' order. */
export function sampleData(fields: readonly TemplateField[]): Record<string, unknown> {
  const data: Record<string, unknown> = {};
  for (const f of fields) {
    if (isSigningType(f.type)) continue;
    const key = f.alias ?? f.id;
    if (key in data) continue;
    data[key] = sampleValue(f);
  }
  return data;
}
