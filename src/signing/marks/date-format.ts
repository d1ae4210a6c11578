/**
 * The text of a `signatureDate` field: the signing moment in the signer's time zone, written
 * with the field's `format` by the one date formatter (src/format: moment-style tokens, text in
 * [brackets]). Intl does the time-zone work and, for other locales, the month and weekday names.
 */
import { ValidationError } from '../../errors/index.js';
import {
  DEFAULT_DATE_FORMAT,
  compileDateFormat,
  dateNames,
  DateFormatError,
  fieldsInZone,
  formatDateTime,
} from '../../format/index.js';

export interface SignatureDateOptions {
  /** Default `MM/DD/YYYY`. */
  format?: string;
  /** IANA time zone (e.g. `Europe/Berlin`); default UTC. */
  timeZone?: string;
  /** Month and weekday names; default `en-US`. */
  locale?: string;
}

export function formatSignatureDate(date: Date, options: SignatureDateOptions = {}): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw ValidationError.of('date', 'Invalid date');
  const format = options.format ?? DEFAULT_DATE_FORMAT;
  if (format.length > 100) throw ValidationError.of('format', 'Must be at most 100 characters long');
  let parts;
  try {
    parts = compileDateFormat(format);
  } catch (e) {
    if (e instanceof DateFormatError) throw ValidationError.of('format', e.message);
    throw e;
  }
  const timeZone = options.timeZone ?? 'UTC';
  let fields;
  try {
    fields = fieldsInZone(date, timeZone);
  } catch {
    throw ValidationError.of('timeZone', `Unknown time zone "${timeZone}"`);
  }
  const locale = options.locale ?? 'en-US';
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([locale]).length === 0) throw new RangeError(locale);
  } catch {
    throw ValidationError.of('locale', `Unknown locale "${locale}"`);
  }
  return formatDateTime(fields, parts, dateNames(locale));
}
