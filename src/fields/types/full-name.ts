import type { FieldTypeModule } from '../contract.js';
import { fail, ok, partWidgets, stringParts, text, withParts } from '../values.js';

const NAME_KEYS = ['firstName', 'mi', 'lastName'] as const;

/** fullName: {firstName, mi, lastName} (or a plain string without parts), each part in its box or `First M Last`. */
export const fullName: FieldTypeModule = {
  type: 'fullName',
  format: ({ field, raw, box, at, style }) => {
    if (typeof raw === 'string' && !field.parts) return ok({ '': raw }, [text(box, raw, style)]);
    const parts = stringParts(raw, NAME_KEYS);
    if (typeof parts === 'string') return fail(parts);
    const whole = NAME_KEYS.map((k) => parts[k]?.trim())
      .filter((s): s is string => !!s)
      .join(' ');
    return withParts(field, parts, whole, box, at, style, false);
  },
  interactive: (input) => partWidgets(input, false),
};
