/**
 * Number formats: a small subset of the numeral.js patterns the hosted builder
 * shows (`0,0.00`, `$0,0.00`, `0.[00]%`). Pattern = [prefix] 0 or 0,0
 * [.000 fixed decimals | .[00] optional decimals | .0[0] mixed] [suffix].
 */
export interface NumberPattern {
  prefix: string;
  suffix: string;
  grouping: boolean;
  minDecimals: number;
  maxDecimals: number;
}

const PATTERN = /^([^0#]*)(0(?:,0+)?|#(?:,#+)?0?)(?:\.(0*)(?:\[(0+)\])?)?([^0]*)$/;

export function parseNumberPattern(format: string): NumberPattern | undefined {
  const m = PATTERN.exec(format.trim());
  if (!m) return undefined;
  const fixed = m[3] ?? '';
  const optional = m[4] ?? '';
  return {
    prefix: m[1] ?? '',
    suffix: m[5] ?? '',
    grouping: m[2]!.includes(','),
    minDecimals: fixed.length,
    maxDecimals: fixed.length + optional.length,
  };
}

export const DEFAULT_PATTERNS = {
  /** Up to 10 decimals, no trailing zeros: the number as sent, grouped. */
  number: '0,0.[0000000000]',
  integer: '0,0',
  dollar: '$0,0.00',
  percent: '0,0.[00]%',
} as const;

/** Formats with the pattern; a negative sign goes before the prefix (`-$5.00`). Rounds half away from zero. */
export function formatNumber(value: number, pattern: NumberPattern): string {
  const body = new Intl.NumberFormat('en-US', {
    useGrouping: pattern.grouping,
    minimumFractionDigits: pattern.minDecimals,
    maximumFractionDigits: pattern.maxDecimals,
  }).format(Math.abs(value));
  // -0.001 at 2 decimals prints 0.00: no sign for a value that rounds to zero.
  const negative = value < 0 && /[1-9]/.test(body);
  return `${negative ? '-' : ''}${pattern.prefix}${body}${pattern.suffix}`;
}
