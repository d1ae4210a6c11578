import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import isoWeek from 'dayjs/plugin/isoWeek.js';
import utc from 'dayjs/plugin/utc.js';
import { describe, expect, it } from 'vitest';
import { fieldType } from '../src/fields/index.js';
import { packetField } from '../src/packets/request/field.js';
import {
  compileDateFormat,
  compileNumberFormat,
  dateFormatProblem,
  fieldsInZone,
  formatDateTime,
  formatNumber,
  numberFormatProblem,
  parseIsoDateTime,
  type DateTimeFields,
} from '../src/format/index.js';

dayjs.extend(utc);
dayjs.extend(advancedFormat);
dayjs.extend(isoWeek);

// Formats the hosted builder and its users write, and every token on its own (dayjs knows them all).
const FORMATS = [
  'MM/DD/YYYY',
  'M/D/YY',
  'DD.MM.YYYY',
  'YYYY-MM-DD',
  'D MMMM YYYY',
  'MMMM D, YYYY',
  'MMM D, YYYY',
  'dddd, MMMM Do YYYY',
  'ddd, MMM Do',
  'dd D',
  'd',
  'Q[Q] YYYY',
  'HH:mm',
  'H:m:s',
  'hh:mm A',
  'h:mm a',
  'k:mm kk',
  'YYYY-MM-DD[T]HH:mm:ss.SSSZ',
  'YYYYMMDD[T]HHmmssZZ',
  '[Week] W, WW [of] GGGG',
  '[Today is] dddd',
  'DD/MM/YYYY HH:mm:ss',
  'MMMM YYYY',
];

// Leap days, year ends, ISO week edges (1 Jan 2021 is in week 53 of 2020), single-digit parts, noon and midnight.
const INSTANTS = [
  '2024-02-29T00:00:00.000Z',
  '2024-03-05T14:30:09.007Z',
  '2020-12-31T23:59:59.999Z',
  '2021-01-01T12:00:00.000Z',
  '2021-01-03T00:05:00.000Z',
  '1999-07-11T09:08:07.000Z',
  '2026-11-22T11:22:33.444Z',
  '2000-01-01T00:00:00.000Z',
  '1985-10-26T01:21:00.000Z',
  '2015-06-13T12:00:00.000Z',
];

const OFFSETS = [0, 330, -300, 60, -570];

function fieldsOf(instant: string, offsetMinutes: number): DateTimeFields {
  const d = new Date(Date.parse(instant) + offsetMinutes * 60_000);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
    millisecond: d.getUTCMilliseconds(),
    offsetMinutes,
  };
}

describe('date formatter against dayjs', () => {
  it(`prints ${FORMATS.length} formats × ${INSTANTS.length} instants × ${OFFSETS.length} offsets as dayjs does`, () => {
    let compared = 0;
    for (const format of FORMATS) {
      const parts = compileDateFormat(format);
      for (const instant of INSTANTS) {
        for (const offset of OFFSETS) {
          const expected = dayjs.utc(instant).utcOffset(offset).format(format);
          expect(formatDateTime(fieldsOf(instant, offset), parts), `${format} at ${instant} ${offset}`).toBe(expected);
          compared++;
        }
      }
    }
    expect(compared).toBe(FORMATS.length * INSTANTS.length * OFFSETS.length);
  });

  // dayjs's utcOffset() moves its valueOf(), so X and x are checked against the instant itself.
  it('X and x are the Unix seconds and milliseconds of the instant, whatever the offset', () => {
    for (const instant of INSTANTS) {
      for (const offset of OFFSETS) {
        const ms = Date.parse(instant);
        expect(formatDateTime(fieldsOf(instant, offset), 'X x')).toBe(`${Math.floor(ms / 1000)} ${ms}`);
      }
    }
  });

  it('every day of a leap year and a common year, with the weekday, ordinal and ISO week tokens', () => {
    const format = 'dddd ddd dd d Do DD D MMMM MMM MM M Q W WW GGGG YYYY YY';
    for (const year of [2023, 2024]) {
      for (let t = Date.UTC(year, 0, 1); t < Date.UTC(year + 1, 0, 1); t += 86_400_000) {
        const iso = new Date(t).toISOString();
        expect(formatDateTime(fieldsOf(iso, 0), format)).toBe(dayjs.utc(iso).format(format));
      }
    }
  });

  it('fieldsInZone gives the wall clock and offset of an IANA zone, as dayjs computes it from the offset', () => {
    const at = new Date('2026-12-31T23:30:05Z');
    const kolkata = fieldsInZone(at, 'Asia/Kolkata');
    expect(kolkata.offsetMinutes).toBe(330);
    expect(formatDateTime(kolkata, 'YYYY-MM-DD HH:mm:ss Z')).toBe(
      dayjs.utc(at).utcOffset(330).format('YYYY-MM-DD HH:mm:ss Z'),
    );
    const ny = fieldsInZone(at, 'America/New_York');
    expect(formatDateTime(ny, 'YYYY-MM-DD HH:mm ZZ')).toBe(dayjs.utc(at).utcOffset(-300).format('YYYY-MM-DD HH:mm ZZ'));
    expect(formatDateTime(ny, 'X')).toBe(String(dayjs(at).unix()));
    expect(() => fieldsInZone(at, 'Mars/Olympus')).toThrow(RangeError);
  });

  it('Wo is the ordinal ISO week (moment; dayjs prints "52o" with the en locale)', () => {
    expect(formatDateTime(fieldsOf('2023-01-01T00:00:00Z', 0), 'Wo GGGG')).toBe('52nd 2022');
    expect(formatDateTime(fieldsOf('2021-01-01T00:00:00Z', 0), 'Wo GGGG')).toBe('53rd 2020');
    expect(formatDateTime(fieldsOf('2024-01-01T00:00:00Z', 0), 'Wo GGGG')).toBe('1st 2024');
  });

  it('DDD and DDDD are the day of the year (moment; dayjs has no such token)', () => {
    expect(formatDateTime(fieldsOf('2024-12-31T00:00:00Z', 0), 'DDD DDDD')).toBe('366 366');
    expect(formatDateTime(fieldsOf('2023-02-01T00:00:00Z', 0), 'DDD DDDD')).toBe('32 032');
  });
});

describe('date formats: unknown tokens are errors', () => {
  it('names the token and its position; [brackets] make letters literal', () => {
    expect(dateFormatProblem('YYYY-MM-DDTHH:mm')).toMatch(/Unknown date token "T" at position 11/);
    expect(dateFormatProblem('YYY')).toMatch(/Unknown date token "Y"/);
    expect(dateFormatProblem('L')).toMatch(/"L"/);
    expect(dateFormatProblem('DD [of] MMMM')).toBeUndefined();
    expect(dateFormatProblem('DD [of MMMM')).toMatch(/Unclosed "\["/);
    expect(dateFormatProblem('dddd, MMMM Do YYYY')).toBeUndefined();
    expect(formatDateTime(fieldsOf('2024-03-05T00:00:00Z', 0), 'dddd, MMMM Do YYYY')).toBe('Tuesday, March 5th 2024');
  });
});

describe('fill date values', () => {
  it('keeps the time and offset as written, midnight UTC without them; rejects impossible dates and times', () => {
    expect(parseIsoDateTime('2024-03-05')).toEqual({
      year: 2024,
      month: 3,
      day: 5,
      hour: 0,
      minute: 0,
      second: 0,
      millisecond: 0,
      offsetMinutes: 0,
    });
    const f = parseIsoDateTime('2024-03-05T14:07:09.25+05:30')!;
    expect(formatDateTime(f, 'HH:mm:ss.SSS Z')).toBe('14:07:09.250 +05:30');
    expect(formatDateTime(f, 'X')).toBe(String(dayjs('2024-03-05T14:07:09.25+05:30').unix()));
    expect(formatDateTime(parseIsoDateTime('2024-03-05 09:30Z')!, 'h:mm A')).toBe('9:30 AM');
    for (const bad of [
      '2023-02-29',
      '2024-13-01',
      '2024-04-31',
      '2024-03-05T24:00',
      '2024-03-05T10:60',
      '05/03/2024',
      '2024-3-5',
    ]) {
      expect(parseIsoDateTime(bad), bad).toBeUndefined();
    }
    expect(parseIsoDateTime('2000-02-29')).toBeDefined();
    expect(parseIsoDateTime('1900-02-29')).toBeUndefined();
  });
});

describe('number formats', () => {
  const fmt = (format: string, value: number) => formatNumber(value, compileNumberFormat(format));

  it('supports the numeral-style patterns: grouping, fixed and optional decimals, currency and percent signs, + and parentheses', () => {
    const cases: Array<[string, number, string]> = [
      ['0,0', 1234567.891, '1,234,568'],
      ['0', 1234567.891, '1234568'],
      ['0,0.00', 1234.5, '1,234.50'],
      ['0.000', 3.14159, '3.142'],
      ['0.[00]', 2.5, '2.5'],
      ['0.[00]', 2, '2'],
      ['0.0[0]', 2, '2.0'],
      ['0.0[0]', 2.345, '2.35'],
      ['$0,0.00', -5, '-$5.00'],
      ['$0,0.00', 1234.5, '$1,234.50'],
      ['0,0.00 €', 1234.5, '1,234.50 €'],
      ['£0,0', 99.5, '£100'],
      ['0.[00]%', 12.5, '12.5%'],
      ['0%', 42, '42%'],
      ['#,##0.00', 1234.5, '1,234.50'],
      ['+0,0', 5, '+5'],
      ['+0,0', -5, '-5'],
      ['+0,0', 0, '0'],
      ['(0,0.00)', -1234.5, '(1,234.50)'],
      ['($0,0.00)', -1234.5, '($1,234.50)'],
      ['($0,0.00)', 1234.5, '$1,234.50'],
      ['0,0.00', -0.001, '0.00'],
    ];
    for (const [format, value, expected] of cases) expect(fmt(format, value), `${format} ${value}`).toBe(expected);
  });

  it('rejects what it cannot honour', () => {
    for (const bad of ['0a', '0o', '0.0b', '0e+0', 'USD 0,0', '00:00:00', '', 'abc', '0,0.00.00', '(+0)']) {
      expect(numberFormatProblem(bad), bad).toBeDefined();
    }
    expect(numberFormatProblem('0a')).toMatch(/Unknown token "a" in the suffix/);
  });

  it('the field types declare the check: date formats on date fields, number formats on numeric ones, nothing on others', () => {
    const problem = (type: Parameters<typeof fieldType>[0], format: string) => fieldType(type).formatProblem?.(format);
    expect(problem('date', 'HH:mm')).toBeUndefined();
    expect(problem('date', 'YYYY-MM-DDTHH')).toBeDefined();
    for (const t of ['number', 'decimalNumber', 'integer', 'dollar', 'percent'] as const)
      expect(problem(t, '0k'), t).toBeDefined();
    expect(problem('dollar', '$0,0.00')).toBeUndefined();
    expect(problem('shortText', 'anything')).toBeUndefined();
  });

  it('packet fields: signatureDate formats are date formats (a 400 on the field’s format)', () => {
    const base = { id: 'd', pageNum: 0, rect: { x: 0, y: 0, width: 10, height: 10 } };
    expect(packetField.safeParse({ ...base, type: 'signatureDate', format: 'MMMM Do' }).success).toBe(true);
    const bad = packetField.safeParse({ ...base, type: 'signatureDate', format: 'LLL' });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues.map((i) => i.path.join('.'))).toEqual(['format']);
    expect(packetField.safeParse({ ...base, type: 'signature', format: 'whatever' }).success).toBe(true);
    expect(packetField.safeParse({ ...base, type: 'dollar', format: 'USD 0' }).success).toBe(false);
  });
});

describe('escapeHtml (one function for the HTML the engine, mails and packet titles write)', () => {
  it('escapes the five characters that end element content or a quoted attribute', async () => {
    const { escapeHtml } = await import('../src/format/index.js');
    expect(escapeHtml(`<b a="1" b='2'>&amp;</b>`)).toBe('&lt;b a=&quot;1&quot; b=&#39;2&#39;&gt;&amp;amp;&lt;/b&gt;');
    expect(escapeHtml('Plain text, ünïcode')).toBe('Plain text, ünïcode');
  });
});
