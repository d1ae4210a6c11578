/**
 * CSS text as the CSSOM gives it back: splitting, unescaping, quoting, the sentinels css-rewrite.ts
 * leaves in values, `@page` selectors. Pure functions of strings (no document), unit-tested in
 * test/html-page-code.test.ts.
 */
import { decodeNth, ELEMENT_SENTINEL, FUNCTION_SENTINEL, NTH_PREFIX, STRING_SENTINEL } from './contract.js';
import type { Declaration, PageSelector } from './state.js';

/** CSS escapes (`\41 `, `\"`) → the characters. */
export function unescapeCss(s: string): string {
  return s
    .replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h: string) => String.fromCodePoint(parseInt(h, 16)))
    .replace(/\\([\s\S])/g, '$1');
}

/** A CSS string token holding s. */
export function cssString(s: string): string {
  return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\A ') + '"';
}

/** Pieces of text separated by sep outside parentheses and strings, trimmed. */
export function splitTop(text: string, sep: string): string[] {
  const out: string[] = [];
  let depth = 0,
    cur = '',
    quote = '';
  for (const c of text) {
    if (quote) {
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    if (c === sep && depth === 0 && !quote) {
      out.push(cur.trim());
      cur = '';
    } else cur += c;
  }
  out.push(cur.trim());
  return out;
}

export function splitArgs(args: string): string[] {
  return splitTop(args, ',');
}

export type SentinelPiece = string | { name: string; args: string };

/** Text with function sentinels in it → plain strings and { name, args } pieces. */
export function splitSentinels(text: string): SentinelPiece[] {
  const out: SentinelPiece[] = [];
  let at = 0;
  const re = new RegExp(`${FUNCTION_SENTINEL}|${STRING_SENTINEL}`, 'g');
  const next = (from: number) => {
    re.lastIndex = from;
    return re.exec(text);
  };
  for (let m = next(0); m; m = next(at)) {
    const k = m.index;
    const open = text.indexOf('(', k);
    if (open < 0) break;
    let depth = 1,
      j = open + 1;
    for (; j < text.length && depth > 0; j++) {
      if (text[j] === '(') depth++;
      else if (text[j] === ')') depth--;
    }
    if (k > at) out.push(text.slice(at, k));
    const args = text.slice(open + 1, j - 1);
    out.push(
      m[0] === STRING_SENTINEL
        ? { name: 'string', args: args.split('|')[0] ?? '' }
        : { name: text.slice(k + m[0].length, open), args },
    );
    at = j;
  }
  if (at < text.length) out.push(text.slice(at));
  return out;
}

export interface SentinelArgs {
  name: string;
  policy: string;
}

/** Sentinel strings carry "name|policy" (css-rewrite.ts). */
function sentinelArgs(s: string, prefix: string): SentinelArgs {
  const [name, policy] = s
    .slice(prefix.length)
    .replace(/^\(|\)$/g, '')
    .split('|');
  return { name: name ?? '', policy: policy || 'first' };
}

export interface ContentToken {
  text?: string;
  counter?: string;
  /** The counter style of counter(name, style); counters() of page/pages are read as counter(). */
  style?: string;
  element?: SentinelArgs;
  string?: SentinelArgs;
}

/** A margin box's `content` → its strings, page counters and element()/string() references. */
export function tokens(content: string): ContentToken[] {
  const out: ContentToken[] = [];
  const re =
    /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|counter\(\s*([-\w]+)\s*(?:,\s*([-\w]+)\s*)?\)|counters\(\s*([-\w]+)[^)]*\)|attr\([^)]*\)|url\([^)]*\)/g;
  let m;
  while ((m = re.exec(content))) {
    if (m[1] !== undefined || m[2] !== undefined) {
      const s = unescapeCss(m[1] !== undefined ? m[1] : (m[2] as string));
      if (s.startsWith(ELEMENT_SENTINEL)) out.push({ element: sentinelArgs(s, ELEMENT_SENTINEL) });
      else if (s.startsWith(STRING_SENTINEL)) out.push({ string: sentinelArgs(s, STRING_SENTINEL) });
      else out.push({ text: s });
    } else if (m[3]) out.push(m[4] ? { counter: m[3], style: m[4] } : { counter: m[3] });
    else if (m[5]) out.push({ counter: m[5] });
  }
  return out;
}

/**
 * Whether the overlay draws `content` as Chromium would: strings and counter(page|pages[, style]) only
 * (and sentinels). url() images, attr(), quotes and other counters are Chromium's alone.
 */
export function overlayDraws(content: string): boolean {
  const rest = content.replace(
    /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|counter\(\s*pages?\s*(?:,\s*[-\w]+\s*)?\)/g,
    '',
  );
  return rest.trim() === '';
}

/** Whether `content` puts text in its box (a non-blank string or a counter). */
export function contentHasText(content: string): boolean {
  return tokens(content).some((t) => (t.text !== undefined && /\S/.test(t.text)) || t.counter !== undefined);
}

/**
 * `@page` selectors (`:first`, `name:left`…) with their specificity (css-page-3); null entries dropped.
 * A name css/page-selectors.ts wrote for `:nth()` comes back as its page name and `nth`, which counts
 * like `:first` (css-gcpm-3 gives it none, w3c/csswg-drafts#3791).
 */
export function parseSelectors(text: string): PageSelector[] {
  return String(text || '')
    .split(',')
    .map((s) => s.trim())
    .map((s): PageSelector | null => {
      const m = /^([-\w]*)((?::[-\w]+)*)$/.exec(s);
      if (!m) return null;
      const pseudos = m[2]
        ? m[2]
            .slice(1)
            .split(':')
            .map((p) => p.toLowerCase())
        : [];
      const nth = m[1] && m[1].startsWith(NTH_PREFIX) ? decodeNth(m[1]) : null;
      const name = nth ? nth.name : (m[1] ?? '');
      let spec = name ? 100 : 0;
      if (nth) spec += 10;
      for (const p of pseudos) spec += p === 'first' || p === 'blank' ? 10 : 1;
      return nth ? { name, pseudos, spec, nth } : { name, pseudos, spec };
    })
    .filter((s): s is PageSelector => s !== null);
}

/** A declaration block's declarations, with shorthands that hold var() taken whole. */
export function declarations(style: CSSStyleDeclaration): Declaration[] {
  const out: Declaration[] = [];
  let pending = false;
  for (let k = 0; k < style.length; k++) {
    const name = style[k] as string;
    const value = style.getPropertyValue(name);
    // The longhands of a shorthand holding var() read as '' (pending substitution): the shorthand is taken below.
    if (value === '') {
      pending = true;
      continue;
    }
    out.push([name, value, style.getPropertyPriority(name) === 'important']);
  }
  if (pending) {
    const have = new Set(out.map(([n]) => n));
    for (const d of splitTop(style.cssText, ';')) {
      const m = /^\s*([-\w]+)\s*:\s*([\s\S]*?)\s*(!important)?\s*$/.exec(d);
      if (m && m[1] && m[2] !== undefined && !have.has(m[1]) && /var\(/.test(m[2])) out.push([m[1], m[2], !!m[3]]);
    }
  }
  return out;
}
