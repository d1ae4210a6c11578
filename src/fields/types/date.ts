import { DEFAULT_DATE_FORMAT, dateFormatProblem, formatDateTime, parseIsoDateTime } from '../../format/index.js';
import type { FieldTypeModule } from '../contract.js';
import { describe, fail, oneText, textWidget } from '../values.js';

/** date: `YYYY-MM-DD` (optionally with a time and offset, kept as written), shown in the field's moment-style `format` (src/format). */
export const date: FieldTypeModule = {
  type: 'date',
  formatProblem: dateFormatProblem,
  format: ({ field, raw, box, style }) => {
    const d = typeof raw === 'string' ? parseIsoDateTime(raw) : undefined;
    if (!d) return fail(`Expected a date YYYY-MM-DD, received ${describe(raw)}`);
    return oneText(formatDateTime(d, field.format ?? DEFAULT_DATE_FORMAT), box, style);
  },
  interactive: (input) => textWidget(input),
};
