import { describe, expect, it } from 'vitest';
import { ValidationError } from '../src/errors/index.js';
import { formatSignatureDate } from '../src/signing/index.js';

// 23:30 UTC on 31 Dec 2026 is already 1 Jan 2027 in Tokyo and still 31 Dec in New York.
const AT = new Date('2026-12-31T23:30:05Z');

describe('formatSignatureDate', () => {
  it('writes the signing moment in the signer time zone with the field format', () => {
    expect(formatSignatureDate(AT)).toBe('12/31/2026');
    expect(formatSignatureDate(AT, { timeZone: 'Asia/Tokyo' })).toBe('01/01/2027');
    expect(formatSignatureDate(AT, { timeZone: 'America/New_York', format: 'YYYY-MM-DD HH:mm:ss Z' })).toBe(
      '2026-12-31 18:30:05 -05:00',
    );
    expect(formatSignatureDate(AT, { timeZone: 'Asia/Kolkata', format: 'D MMMM YYYY, h:mm A Z' })).toBe(
      '1 January 2027, 5:00 AM +05:30',
    );
    expect(formatSignatureDate(AT, { format: 'MMM D, YY [at] HH[h]' })).toBe('Dec 31, 26 at 23h');
    expect(formatSignatureDate(AT, { format: 'D. MMMM YYYY', locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe(
      '1. Januar 2027',
    );
    expect(formatSignatureDate(AT, { format: 'dddd, MMMM Do YYYY [at] h:mm a', timeZone: 'Asia/Tokyo' })).toBe(
      'Friday, January 1st 2027 at 8:30 am',
    );
    expect(formatSignatureDate(AT, { format: 'dddd', locale: 'de-DE', timeZone: 'Europe/Berlin' })).toBe('Freitag');
  });

  it('bad time zones, locales and dates are ValidationErrors', () => {
    const of = (fn: () => unknown) => {
      try {
        fn();
      } catch (e) {
        expect(e).toBeInstanceOf(ValidationError);
        return (e as ValidationError).fields[0]?.property;
      }
      throw new Error('expected an error');
    };
    expect(of(() => formatSignatureDate(AT, { timeZone: 'Mars/Olympus' }))).toBe('timeZone');
    expect(of(() => formatSignatureDate(AT, { locale: 'not a locale!' }))).toBe('locale');
    expect(of(() => formatSignatureDate(new Date('nope')))).toBe('date');
    expect(of(() => formatSignatureDate(AT, { format: 'Y'.repeat(101) }))).toBe('format');
    expect(of(() => formatSignatureDate(AT, { format: 'YYYY-MM-DDTHH:mm' }))).toBe('format');
  });
});
