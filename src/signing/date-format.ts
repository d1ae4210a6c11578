/**
 * The text of a `signatureDate` field: the signing moment in the signer's time zone, written
 * with the field's `format` (tokens YYYY YY MMMM MMM MM M DD D HH H hh h mm ss A Z; text in
 * [brackets] is kept as is). Intl does the calendar and time-zone work.
 */
import { ValidationError } from '../errors/index.js';

export interface SignatureDateOptions {
  /** Default `MM/DD/YYYY`. */
  format?: string;
  /** IANA time zone (e.g. `Europe/Berlin`); default UTC. */
  timeZone?: string;
  /** Month names; default `en-US`. */
  locale?: string;
}

const TOKENS = /\[([^\]]*)\]|YYYY|YY|MMMM|MMM|MM|M|DD|D|HH|H|hh|h|mm|ss|A|Z/g;

function parts(date: Date, timeZone: string, locale: string): Record<string, string> {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    timeZoneName: 'shortOffset',
  });
  const out: Record<string, string> = {};
  for (const p of fmt.formatToParts(date)) out[p.type] = p.value;
  out.monthLong = new Intl.DateTimeFormat(locale, { timeZone, month: 'long' }).format(date);
  out.monthShort = new Intl.DateTimeFormat(locale, { timeZone, month: 'short' }).format(date);
  return out;
}

const pad = (v: string | number) => String(v).padStart(2, '0');

export function formatSignatureDate(date: Date, options: SignatureDateOptions = {}): string {
  if (!(date instanceof Date) || Number.isNaN(date.getTime())) throw ValidationError.of('date', 'Invalid date');
  const format = options.format ?? 'MM/DD/YYYY';
  if (format.length > 100) throw ValidationError.of('format', 'Must be at most 100 characters long');
  const timeZone = options.timeZone ?? 'UTC';
  try {
    new Intl.DateTimeFormat('en-US', { timeZone });
  } catch {
    throw ValidationError.of('timeZone', `Unknown time zone "${timeZone}"`);
  }
  const locale = options.locale ?? 'en-US';
  try {
    if (Intl.DateTimeFormat.supportedLocalesOf([locale]).length === 0) throw new RangeError(locale);
  } catch {
    throw ValidationError.of('locale', `Unknown locale "${locale}"`);
  }
  const p = parts(date, timeZone, locale);
  const hour = Number(p.hour);
  const offset = (p.timeZoneName ?? 'GMT').replace(/^GMT$/, 'GMT+0').replace(/^GMT/, 'UTC');
  return format.replace(TOKENS, (token, literal: string | undefined) => {
    if (literal !== undefined) return literal;
    switch (token) {
      case 'YYYY':
        return p.year!;
      case 'YY':
        return p.year!.slice(-2);
      case 'MMMM':
        return p.monthLong!;
      case 'MMM':
        return p.monthShort!;
      case 'MM':
        return pad(p.month!);
      case 'M':
        return p.month!;
      case 'DD':
        return pad(p.day!);
      case 'D':
        return p.day!;
      case 'HH':
        return pad(hour);
      case 'H':
        return String(hour);
      case 'hh':
        return pad(hour % 12 || 12);
      case 'h':
        return String(hour % 12 || 12);
      case 'mm':
        return pad(p.minute!);
      case 'ss':
        return pad(p.second!);
      case 'A':
        return hour < 12 ? 'AM' : 'PM';
      default:
        return offset;
    }
  });
}
