import { encodeNth } from '../in-page/contract.js';
import { mapPageBlocks, topLevelPieces } from './scan.js';

/** `An+B` (css-syntax-3 §6: `odd`, `even`, `3`, `-n+2`, `2n + 1`…) → [A, B]; null when it is none. */
export function parseAnB(text: string): [number, number] | null {
  const t = text.replace(/\s+/g, '').toLowerCase();
  if (t === 'odd') return [2, 1];
  if (t === 'even') return [2, 0];
  const m = /^([+-]?\d*)n([+-]\d+)?$/.exec(t);
  if (m) {
    const a = m[1] === '' || m[1] === '+' ? 1 : m[1] === '-' ? -1 : Number(m[1]);
    return [a, m[2] ? Number(m[2]) : 0];
  }
  return /^[+-]?\d+$/.test(t) ? [0, Number(t)] : null;
}

/**
 * css-gcpm-3 §4's `:nth(An+B)` and `:nth(An+B of <name>)` page selectors. Chromium drops a page rule
 * that has one, so each such selector becomes a page name no element has (contract.ts `encodeNth`),
 * which Chromium keeps and never applies; the page code reads it back and matches it itself. Other
 * pseudo-classes after it (`:left`) are kept; a selector that does not parse is left for Chromium to drop.
 */
export function rewriteNthPages(css: string): string {
  if (!/:nth\(/i.test(css)) return css;
  return mapPageBlocks(css, (prelude, body) => {
    if (!/:nth\(/i.test(prelude)) return `@page${prelude}{${body}}`;
    return `@page${topLevelPieces(prelude).map(nthSelector).join(',')}{${body}}`;
  });
}

function nthSelector(selector: string): string {
  const m = /^(\s*)([-\w]*)((?::[-\w]+)*):nth\(([^()]*?)(?:\s+of\s+([-\w]+))?\s*\)((?::[-\w]+)*)(\s*)$/i.exec(selector);
  if (!m) return selector;
  const ab = parseAnB(m[4]!);
  if (!ab) return selector;
  const name = encodeNth({ a: ab[0], b: ab[1], group: m[5] ?? null, name: m[2]! });
  return `${m[1]} ${name}${m[3]}${m[6]}${m[7]}`;
}
