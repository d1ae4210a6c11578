import { DEFAULT_PATTERNS, formatNumber, numberFormatProblem, parseNumberPattern } from '../../format/index.js';
import type { FieldTypeModule } from '../contract.js';
import { asNumber, describe, fail, oneText, textWidget } from '../values.js';

type Kind = keyof typeof DEFAULT_PATTERNS;

/** The numeric types: a number, or a string holding a plain decimal number, in the field's numeral-style `format` (src/format). */
function numeric(type: 'number' | 'decimalNumber' | 'integer' | 'dollar' | 'percent', kind: Kind): FieldTypeModule {
  return {
    type,
    formatProblem: numberFormatProblem,
    format: ({ field, raw, box, style }) => {
      let n = asNumber(raw);
      if (n === undefined || !Number.isFinite(n)) return fail(`Expected a number, received ${describe(raw)}`);
      if (kind === 'percent' && (n < 0 || n > 100)) return fail(`Expected a percentage from 0 to 100, received ${n}`);
      // Half away from zero: 41.5 → 42, -41.5 → -42.
      if (kind === 'integer') n = Math.sign(n) * Math.round(Math.abs(n));
      const pattern = (field.format && parseNumberPattern(field.format)) || parseNumberPattern(DEFAULT_PATTERNS[kind])!;
      return oneText(
        formatNumber(n, kind === 'integer' ? { ...pattern, minDecimals: 0, maxDecimals: 0 } : pattern),
        box,
        style,
      );
    },
    interactive: (input) => textWidget(input),
  };
}

export const number = numeric('number', 'number');
/** The hosted builder's name for `number`. */
export const decimalNumber = numeric('decimalNumber', 'number');
export const integer = numeric('integer', 'integer');
export const dollar = numeric('dollar', 'dollar');
export const percent = numeric('percent', 'percent');
