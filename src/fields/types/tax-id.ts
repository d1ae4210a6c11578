import type { FieldTypeModule } from '../contract.js';
import { asText, describe, fail, oneText, textWidget } from '../values.js';

/** ssn and ein: nine digits (spaces and dashes removed first), shown 123-45-6789 / 12-3456789. */
function taxId(type: 'ssn' | 'ein', show: (digits: string) => string): FieldTypeModule {
  return {
    type,
    format: ({ raw, box, style }) => {
      const digits = asText(raw)?.replace(/[\s-]/g, '');
      if (!digits || !/^\d{9}$/.test(digits)) return fail(`Expected nine digits, received ${describe(raw)}`);
      return oneText(show(digits), box, style);
    },
    interactive: (input) => textWidget(input),
  };
}

export const ssn = taxId('ssn', (d) => `${d.slice(0, 3)}-${d.slice(3, 5)}-${d.slice(5)}`);
export const ein = taxId('ein', (d) => `${d.slice(0, 2)}-${d.slice(2)}`);
