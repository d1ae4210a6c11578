/**
 * The one date formatter of castpress (fill `date` fields, signature dates): moment-style
 * format strings, as the hosted builder writes them (`MM/DD/YYYY`, `dddd, MMMM Do YYYY`,
 * `HH:mm`). A format is compiled once into parts; a letter that is not a known token is an
 * error (moment would print it literally, which hides typos such as `YYY`), literal text goes
 * in [brackets]. Calendar arithmetic is done here on plain fields, so the output does not
 * depend on the machine's time zone.
 */

import { problemOf } from './problem.js';

/** A wall-clock date and time with the UTC offset it was written in. */
export interface DateTimeFields {
  year: number;
  /** 1–12 */
  month: number;
  /** 1–31 */
  day: number;
  hour: number;
  minute: number;
  second: number;
  millisecond: number;
  /** Minutes east of UTC (`+05:30` is 330). */
  offsetMinutes: number;
}

/** Month and weekday names; English unless a locale is given. */
export interface DateNames {
  months: readonly string[];
  monthsShort: readonly string[];
  weekdays: readonly string[];
  weekdaysShort: readonly string[];
  weekdaysMin: readonly string[];
}

export const DEFAULT_DATE_FORMAT = 'MM/DD/YYYY';

/** Longest first: the tokenizer takes the longest token that starts at a position (`MMMM` before `M`, `Do` before `D`). */
const DATE_TOKENS = [
  'YYYY',
  'YY',
  'Q',
  'MMMM',
  'MMM',
  'MM',
  'M',
  'DDDD',
  'DDD',
  'DD',
  'Do',
  'D',
  'dddd',
  'ddd',
  'dd',
  'd',
  'GGGG',
  'WW',
  'Wo',
  'W',
  'HH',
  'H',
  'hh',
  'h',
  'kk',
  'k',
  'mm',
  'm',
  'ss',
  's',
  'SSS',
  'A',
  'a',
  'ZZ',
  'Z',
  'X',
  'x',
] as const;
export type DateToken = (typeof DATE_TOKENS)[number];

const BY_LENGTH = [...DATE_TOKENS].sort((a, b) => b.length - a.length);

export type DatePart = { token: DateToken } | { text: string };

/** A format string that cannot be used: the message names the offending token and its position. */
export class DateFormatError extends Error {
  override readonly name = 'DateFormatError';
}

/** Splits a format into tokens and literal text; throws DateFormatError on an unknown letter or an unclosed `[`. */
export function compileDateFormat(format: string): DatePart[] {
  const parts: DatePart[] = [];
  let literal = '';
  const flush = () => {
    if (literal) parts.push({ text: literal });
    literal = '';
  };
  for (let i = 0; i < format.length;) {
    const c = format[i]!;
    if (c === '[') {
      const end = format.indexOf(']', i + 1);
      if (end < 0) throw new DateFormatError(`Unclosed "[" at position ${i + 1}: literal text goes between [ and ]`);
      literal += format.slice(i + 1, end);
      i = end + 1;
      continue;
    }
    if (!/[A-Za-z]/.test(c)) {
      literal += c;
      i++;
      continue;
    }
    const token = BY_LENGTH.find((t) => format.startsWith(t, i));
    if (!token) {
      let run = i;
      while (run < format.length && format[run] === c) run++;
      throw new DateFormatError(
        `Unknown date token "${format.slice(i, run)}" at position ${i + 1}; known tokens: ${DATE_TOKENS.join(' ')}; write literal text in [brackets]`,
      );
    }
    flush();
    parts.push({ token });
    i += token.length;
  }
  flush();
  return parts;
}

/** The message of the format's first problem, or undefined when it is usable. */
export function dateFormatProblem(format: string): string | undefined {
  return problemOf(() => compileDateFormat(format), DateFormatError);
}

const EN: DateNames = {
  months: [
    'January',
    'February',
    'March',
    'April',
    'May',
    'June',
    'July',
    'August',
    'September',
    'October',
    'November',
    'December',
  ],
  monthsShort: ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'],
  weekdays: ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'],
  weekdaysShort: ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'],
  weekdaysMin: ['Su', 'Mo', 'Tu', 'We', 'Th', 'Fr', 'Sa'],
};

const namesByLocale = new Map<string, DateNames>([
  ['en', EN],
  ['en-US', EN],
]);

/**
 * Month and weekday names of a locale, from Intl (cached). The two-letter weekday (`dd`) is
 * the first two letters of the short name, as moment's English `dd` is.
 */
export function dateNames(locale = 'en-US'): DateNames {
  const known = namesByLocale.get(locale);
  if (known) return known;
  const month = (style: 'long' | 'short') =>
    Array.from({ length: 12 }, (_, m) =>
      new Intl.DateTimeFormat(locale, { month: style, timeZone: 'UTC' }).format(Date.UTC(2001, m, 1)),
    );
  // 7 Jan 2001 was a Sunday.
  const weekday = (style: 'long' | 'short') =>
    Array.from({ length: 7 }, (_, d) =>
      new Intl.DateTimeFormat(locale, { weekday: style, timeZone: 'UTC' }).format(Date.UTC(2001, 0, 7 + d)),
    );
  const weekdaysShort = weekday('short');
  const names: DateNames = {
    months: month('long'),
    monthsShort: month('short'),
    weekdays: weekday('long'),
    weekdaysShort,
    weekdaysMin: weekdaysShort.map((s) => [...s].slice(0, 2).join('')),
  };
  if (namesByLocale.size < 64) namesByLocale.set(locale, names);
  return names;
}

/** English ordinal: 1st 2nd 3rd 4th 11th 12th 13th 21st. */
function ordinal(n: number): string {
  const tens = n % 100;
  const suffix = tens >= 11 && tens <= 13 ? 'th' : (['th', 'st', 'nd', 'rd'][n % 10] ?? 'th');
  return `${n}${suffix}`;
}

const pad = (n: number, width: number): string =>
  n < 0 ? '-' + String(-n).padStart(width, '0') : String(n).padStart(width, '0');

function offsetText(minutes: number, colon: boolean): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${pad(Math.floor(abs / 60), 2)}${colon ? ':' : ''}${pad(abs % 60, 2)}`;
}

/** Days since 1970-01-01 of a calendar date (proleptic Gregorian). */
function dayNumber(year: number, month: number, day: number): number {
  const d = new Date(0);
  d.setUTCFullYear(year, month - 1, day);
  return Math.floor(d.getTime() / 86_400_000);
}

/** ISO 8601 week and week-year: weeks start on Monday, week 1 holds the year's first Thursday. */
function isoWeek(f: DateTimeFields): { week: number; year: number } {
  const days = dayNumber(f.year, f.month, f.day);
  const isoWeekday = (((days + 3) % 7) + 7) % 7; // 0 = Monday (1970-01-01 was a Thursday)
  const thursday = days - isoWeekday + 3;
  const thursdayDate = new Date(thursday * 86_400_000);
  const year = thursdayDate.getUTCFullYear();
  const week = Math.floor((thursday - dayNumber(year, 1, 1)) / 7) + 1;
  return { week, year };
}

/** Writes `fields` with a compiled (or string) format. */
export function formatDateTime(
  fields: DateTimeFields,
  format: string | readonly DatePart[],
  names: DateNames = EN,
): string {
  const parts = typeof format === 'string' ? compileDateFormat(format) : format;
  const f = fields;
  const days = dayNumber(f.year, f.month, f.day);
  const weekday = (((days + 4) % 7) + 7) % 7; // 0 = Sunday
  const epochMs =
    days * 86_400_000 + ((f.hour * 60 + f.minute - f.offsetMinutes) * 60 + f.second) * 1000 + f.millisecond;
  const value = (token: DateToken): string => {
    switch (token) {
      case 'YYYY':
        return pad(f.year, 4);
      case 'YY':
        return pad(Math.abs(f.year) % 100, 2);
      case 'Q':
        return String(Math.ceil(f.month / 3));
      case 'MMMM':
        return names.months[f.month - 1]!;
      case 'MMM':
        return names.monthsShort[f.month - 1]!;
      case 'MM':
        return pad(f.month, 2);
      case 'M':
        return String(f.month);
      case 'DDDD':
        return pad(days - dayNumber(f.year, 1, 1) + 1, 3);
      case 'DDD':
        return String(days - dayNumber(f.year, 1, 1) + 1);
      case 'DD':
        return pad(f.day, 2);
      case 'Do':
        return ordinal(f.day);
      case 'D':
        return String(f.day);
      case 'dddd':
        return names.weekdays[weekday]!;
      case 'ddd':
        return names.weekdaysShort[weekday]!;
      case 'dd':
        return names.weekdaysMin[weekday]!;
      case 'd':
        return String(weekday);
      case 'GGGG':
        return pad(isoWeek(f).year, 4);
      case 'WW':
        return pad(isoWeek(f).week, 2);
      case 'Wo':
        return ordinal(isoWeek(f).week);
      case 'W':
        return String(isoWeek(f).week);
      case 'HH':
        return pad(f.hour, 2);
      case 'H':
        return String(f.hour);
      case 'hh':
        return pad(f.hour % 12 || 12, 2);
      case 'h':
        return String(f.hour % 12 || 12);
      case 'kk':
        return pad(f.hour || 24, 2);
      case 'k':
        return String(f.hour || 24);
      case 'mm':
        return pad(f.minute, 2);
      case 'm':
        return String(f.minute);
      case 'ss':
        return pad(f.second, 2);
      case 's':
        return String(f.second);
      case 'SSS':
        return pad(f.millisecond, 3);
      case 'A':
        return f.hour < 12 ? 'AM' : 'PM';
      case 'a':
        return f.hour < 12 ? 'am' : 'pm';
      case 'ZZ':
        return offsetText(f.offsetMinutes, false);
      case 'Z':
        return offsetText(f.offsetMinutes, true);
      case 'X':
        return String(Math.floor(epochMs / 1000));
      case 'x':
        return String(epochMs);
    }
  };
  return parts.map((p) => ('text' in p ? p.text : value(p.token))).join('');
}

/**
 * A fill `date` value: `YYYY-MM-DD`, optionally with a time (`THH:mm[:ss[.sss]]`) and an offset
 * (`Z`, `+02:00`). The time and offset are kept as written (moment's parseZone): `HH:mm` prints
 * the time the caller wrote, not one moved into the server's zone. Without them: midnight, UTC.
 * Undefined when it is not a real calendar date and time.
 */
export function parseIsoDateTime(s: string): DateTimeFields | undefined {
  const m =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?\s*(Z|[+-]\d{2}:?\d{2})?)?$/.exec(
      s.trim(),
    );
  if (!m) return undefined;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (month < 1 || month > 12 || day < 1) return undefined;
  if (day > new Date(Date.UTC(2000, month, 0)).getUTCDate() || (month === 2 && day === 29 && !isLeap(year)))
    return undefined;
  const hour = Number(m[4] ?? 0);
  const minute = Number(m[5] ?? 0);
  const second = Number(m[6] ?? 0);
  if (hour > 23 || minute > 59 || second > 59) return undefined;
  const millisecond = m[7] ? Math.floor(Number(`0.${m[7]}`) * 1000) : 0;
  let offsetMinutes = 0;
  const zone = m[8];
  if (zone && zone !== 'Z') {
    const z = /^([+-])(\d{2}):?(\d{2})$/.exec(zone)!;
    const h = Number(z[2]);
    const mm = Number(z[3]);
    if (h > 23 || mm > 59) return undefined;
    offsetMinutes = (z[1] === '-' ? -1 : 1) * (h * 60 + mm);
  }
  return { year, month, day, hour, minute, second, millisecond, offsetMinutes };
}

function isLeap(y: number): boolean {
  return (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0;
}

/** The wall-clock fields of an instant in an IANA time zone (Intl does the zone rules). Throws RangeError for an unknown zone. */
export function fieldsInZone(date: Date, timeZone: string): DateTimeFields {
  const fmt = new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: 'numeric',
    day: 'numeric',
    hour: 'numeric',
    minute: 'numeric',
    second: 'numeric',
    timeZoneName: 'longOffset',
  });
  const p: Record<string, string> = {};
  for (const part of fmt.formatToParts(date)) p[part.type] = part.value;
  const zone = /^GMT([+-])(\d{2}):(\d{2})$/.exec(p.timeZoneName ?? '');
  const offsetMinutes = zone ? (zone[1] === '-' ? -1 : 1) * (Number(zone[2]) * 60 + Number(zone[3])) : 0;
  return {
    year: Number(p.year) * (p.era === 'BC' ? -1 : 1),
    month: Number(p.month),
    day: Number(p.day),
    hour: Number(p.hour),
    minute: Number(p.minute),
    second: Number(p.second),
    millisecond: date.getUTCMilliseconds(),
    offsetMinutes,
  };
}
