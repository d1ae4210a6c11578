import { problemOf } from './problem.js';

/**
 * Number formats: the numeral.js-style patterns of the hosted builder (`0,0`, `0,0.00`,
 * `$0,0.00`, `0.[00]%`). The grammar, every part optional but the integer part:
 *
 *   [(] [+] prefix integer [.decimals] suffix [)]
 *
 * - integer: `0` (no grouping) or `0,0` / `#,##0` (groups of three);
 * - decimals: `000` fixed, `[00]` optional (trailing zeros dropped), or both (`0[0]`);
 * - prefix / suffix: currency signs, `%`, spaces and other symbols, printed as they are;
 * - `+`: positive numbers get a `+` too; `( … )` around the whole pattern: negatives in parentheses.
 *
 * `%` is literal: a percent field's value is already in percent (0–100), as the spec says.
 * Anything else (letters such as numeral's `a`, `o`, `b`, `e` units, digits other than 0, a
 * second integer part) is rejected: a format that cannot mean what its author wanted is an error.
 */
export interface NumberPattern {
  prefix: string;
  suffix: string;
  grouping: boolean;
  minDecimals: number;
  maxDecimals: number;
  /** `auto`: `-` for negatives; `always`: `+`/`-`; `parens`: negatives in parentheses. */
  sign: 'auto' | 'always' | 'parens';
}

/** A format that cannot be used; the message says which part and why. */
class NumberFormatError extends Error {
  override readonly name = 'NumberFormatError';
}

/** Literal text around the number: anything but letters, digits and the pattern's own characters. */
const LITERAL = /^[^A-Za-z0-9#.,[\]()+]*$/u;
const BODY = /^(0(?:,0+)?|#(?:,#+)*0?)(?:\.(0*)(?:\[(0+)\])?)?/;

/** Parses a pattern; throws NumberFormatError. */
export function compileNumberFormat(format: string): NumberPattern {
  let rest = format.trim();
  if (rest === '') throw new NumberFormatError('Empty number format');
  let sign: NumberPattern['sign'] = 'auto';
  if (rest.startsWith('(') && rest.endsWith(')')) {
    sign = 'parens';
    rest = rest.slice(1, -1);
  }
  if (rest.startsWith('+')) {
    if (sign === 'parens') throw new NumberFormatError('"+" and parentheses cannot be combined');
    sign = 'always';
    rest = rest.slice(1);
  }
  const start = rest.search(/[0#]/);
  if (start < 0) throw new NumberFormatError(`No number placeholder in "${format}": use 0, 0,0 or 0.00`);
  const prefix = rest.slice(0, start);
  const body = BODY.exec(rest.slice(start));
  if (!body) throw new NumberFormatError(`Cannot read the number part of "${format}"`);
  const suffix = rest.slice(start + body[0].length);
  for (const [where, text] of [
    ['prefix', prefix],
    ['suffix', suffix],
  ] as const) {
    if (!LITERAL.test(text)) {
      const bad = /[A-Za-z0-9#.,[\]()+]/u.exec(text)![0];
      throw new NumberFormatError(
        `Unknown token "${bad}" in the ${where} of number format "${format}"; supported: [(][+]prefix 0 or 0,0 [.00][.[00]] suffix[)], prefix and suffix being symbols such as $ € % (no letters or digits)`,
      );
    }
  }
  const fixed = body[2] ?? '';
  const optional = body[3] ?? '';
  if (fixed.length + optional.length > 20) throw new NumberFormatError('At most 20 decimals');
  return {
    prefix,
    suffix,
    grouping: body[1]!.includes(','),
    minDecimals: fixed.length,
    maxDecimals: fixed.length + optional.length,
    sign,
  };
}

/** The message of the format's problem, or undefined when it is usable. */
export function numberFormatProblem(format: string): string | undefined {
  return problemOf(() => compileNumberFormat(format), NumberFormatError);
}

/** The pattern, or undefined when it cannot be used (callers that validated earlier). */
export function parseNumberPattern(format: string): NumberPattern | undefined {
  try {
    return compileNumberFormat(format);
  } catch {
    return undefined;
  }
}

export const DEFAULT_PATTERNS = {
  /** Up to 10 decimals, no trailing zeros: the number as sent, grouped. */
  number: '0,0.[0000000000]',
  integer: '0,0',
  dollar: '$0,0.00',
  percent: '0,0.[00]%',
} as const;

/** Formats with the pattern; a sign goes before the prefix (`-$5.00`). Rounds half away from zero. */
export function formatNumber(value: number, pattern: NumberPattern): string {
  const body = new Intl.NumberFormat('en-US', {
    useGrouping: pattern.grouping,
    minimumFractionDigits: pattern.minDecimals,
    maximumFractionDigits: pattern.maxDecimals,
  }).format(Math.abs(value));
  // -0.001 at 2 decimals prints 0.00: no sign for a value that rounds to zero.
  const negative = value < 0 && /[1-9]/.test(body);
  const text = `${pattern.prefix}${body}${pattern.suffix}`;
  if (pattern.sign === 'parens') return negative ? `(${text})` : text;
  if (negative) return `-${text}`;
  return pattern.sign === 'always' && /[1-9]/.test(body) ? `+${text}` : text;
}
