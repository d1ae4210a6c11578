import { dateFormatProblem } from './date.js';
import { numberFormatProblem } from './number.js';

/** Field types whose `format` is a date format (fill `date`, packet `signatureDate`). */
const DATE_TYPES = new Set(['date', 'signatureDate']);
/** Field types whose `format` is a number format. */
const NUMBER_TYPES = new Set(['number', 'decimalNumber', 'integer', 'dollar', 'percent']);

/**
 * Why a field's `format` cannot be used for its type, or undefined. Types that print no
 * formatted value ignore `format` (the hosted builder stores one on other types too).
 */
export function fieldFormatProblem(type: string, format: string | undefined): string | undefined {
  if (format === undefined) return undefined;
  if (DATE_TYPES.has(type)) return dateFormatProblem(format);
  if (NUMBER_TYPES.has(type)) return numberFormatProblem(format);
  return undefined;
}
