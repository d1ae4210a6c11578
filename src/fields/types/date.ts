import { DEFAULT_DATE_FORMAT, formatDate, parseIsoDate } from '../../fill/normalize/format-date.js';
import type { FieldTypeModule } from '../contract.js';
import { describe, fail, oneText, textWidget } from '../values.js';

/** date: `YYYY-MM-DD` (a time part after it is ignored), shown in the field's `format`. */
export const date: FieldTypeModule = {
  type: 'date',
  format: ({ field, raw, box, style }) => {
    const d = typeof raw === 'string' ? parseIsoDate(raw) : undefined;
    if (!d) return fail(`Expected a date YYYY-MM-DD, received ${describe(raw)}`);
    return oneText(formatDate(d, field.format ?? DEFAULT_DATE_FORMAT), box, style);
  },
  interactive: (input) => textWidget(input),
};
