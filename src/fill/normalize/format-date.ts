const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December'];

export interface IsoDate {
  year: number;
  month: number;
  day: number;
}

/** `YYYY-MM-DD` (a time part after it is ignored); undefined when it is not a real calendar date. */
export function parseIsoDate(s: string): IsoDate | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})(?:[T ][0-9:.]+(?:Z|[+-]\d{2}:?\d{2})?)?$/.exec(s.trim());
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1) return undefined;
  const daysInMonth = new Date(Date.UTC(year, month, 0)).getUTCDate();
  if (day > daysInMonth) return undefined;
  return { year, month, day };
}

export const DEFAULT_DATE_FORMAT = 'MM/DD/YYYY';

const TOKEN = /YYYY|YY|MMMM|MMM|MM|M|DD|D|\[[^\]]*\]/g;

/** Tokens: YYYY YY MMMM (January) MMM (Jan) MM M DD D; `[text]` is printed as is; anything else is literal. */
export function formatDate(d: IsoDate, format: string): string {
  const pad = (n: number, w: number) => String(n).padStart(w, '0');
  return format.replace(TOKEN, (t) => {
    switch (t) {
      case 'YYYY':
        return pad(d.year, 4);
      case 'YY':
        return pad(d.year % 100, 2);
      case 'MMMM':
        return MONTHS[d.month - 1]!;
      case 'MMM':
        return MONTHS[d.month - 1]!.slice(0, 3);
      case 'MM':
        return pad(d.month, 2);
      case 'M':
        return String(d.month);
      case 'DD':
        return pad(d.day, 2);
      case 'D':
        return String(d.day);
      default:
        return t.slice(1, -1);
    }
  });
}
