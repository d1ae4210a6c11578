import type { FieldTypeModule } from '../contract.js';
import { fail, partWidgets, stringParts, withParts } from '../values.js';

const ADDRESS_KEYS = ['street1', 'street2', 'city', 'state', 'zip', 'country'] as const;

/** usAddress: each part in its box; without parts `street1` / `city, state zip` as a block from the top. */
export const usAddress: FieldTypeModule = {
  type: 'usAddress',
  format: ({ field, raw, box, at, style }) => {
    const parts = stringParts(raw, ADDRESS_KEYS);
    if (typeof parts === 'string') return fail(parts);
    // Spec: street2 and country only where the template has a box for them.
    const cityLine = [[parts.city, parts.state].filter(Boolean).join(', '), parts.zip].filter(Boolean).join(' ');
    const whole = [parts.street1, cityLine].filter(Boolean).join('\n');
    return withParts(field, parts, whole, box, at, style, true);
  },
  verticalAlignment: (field) => (field.parts ? 'middle' : 'top'),
  interactive: (input) => partWidgets(input, true),
};
