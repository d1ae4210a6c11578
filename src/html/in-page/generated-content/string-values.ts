/**
 * The values GCPM's string-set (and bookmark-label) compute: strings, content(text|before|after|
 * first-letter), attr(), counter() and counters(). Counters other than page/pages come from the
 * counter model once it has run (they are left as parts until then); page and pages depend on
 * where the element is printed, so they stay placeholders the overlay fills per page.
 */
import { unescapeCss } from '../css-text.js';
import type { CounterPart, ValuePart } from '../state.js';

export type { CounterPart, ValuePart };

/** Placeholders for counter(page) / counter(pages) inside a named string's value (private-use code points). */
export const PAGE_MARK = '\uE000';
export const PAGES_MARK = '\uE001';

const ROMAN: Array<[number, string]> = [
  [1000, 'm'],
  [900, 'cm'],
  [500, 'd'],
  [400, 'cd'],
  [100, 'c'],
  [90, 'xc'],
  [50, 'l'],
  [40, 'xl'],
  [10, 'x'],
  [9, 'ix'],
  [5, 'v'],
  [4, 'iv'],
  [1, 'i'],
];

function alpha(n: number): string {
  let s = '';
  for (let k = n; k > 0; k = Math.floor((k - 1) / 26)) s = String.fromCharCode(97 + ((k - 1) % 26)) + s;
  return s;
}

/** A counter value in the common counter styles (css-counter-styles-3's predefined ones; others as decimal). */
export function formatCounter(n: number, style: string): string {
  const s = style.trim().toLowerCase();
  if (s === 'none') return '';
  if (s === 'decimal-leading-zero') return (n < 0 ? '-' : '') + String(Math.abs(n)).padStart(2, '0');
  if ((s === 'lower-roman' || s === 'upper-roman') && n > 0 && n < 4000) {
    let out = '';
    let k = n;
    for (const [v, r] of ROMAN) for (; k >= v; k -= v) out += r;
    return s === 'upper-roman' ? out.toUpperCase() : out;
  }
  if (/^(lower|upper)-(alpha|latin)$/.test(s) && n > 0)
    return s.startsWith('upper') ? alpha(n).toUpperCase() : alpha(n);
  return String(n);
}

/** The text of a counter part from the counter values on its element (outermost first). */
function counterText(p: CounterPart, stack: number[] | undefined): string {
  const values = stack && stack.length ? stack.slice() : [0];
  const last = values.length - 1;
  values[last] = p.set !== null ? p.set : (values[last] as number) + p.add;
  const shown = p.all ? values : values.slice(-1);
  return shown.map((v) => formatCounter(v, p.style)).join(p.sep);
}

const TOKEN =
  /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|content\(\s*([-\w]*)\s*\)|attr\(\s*([-\w]+)[^)]*\)|counter\(\s*([-\w]+)\s*(?:,\s*([-\w]+)\s*)?\)|counters\(\s*([-\w]+)\s*,\s*("(?:[^"\\]|\\[\s\S])*"|'(?:[^'\\]|\\[\s\S])*')\s*(?:,\s*([-\w]+)\s*)?\)/g;

/** Effects of a pseudo-element's own counter-increment / counter-set on `name`. */
function pseudoEffects(el: Element, pseudo: string | null, name: string): { add: number; set: number | null } {
  if (!pseudo) return { add: 0, set: null };
  const cs = getComputedStyle(el, pseudo);
  const find = (v: string) => {
    const m = new RegExp('(?:^|\\s)' + name.replace(/[-]/g, '\\-') + '(?:\\s+(-?\\d+))?(?:\\s|$)').exec(v || '');
    return m ? (m[1] === undefined ? 1 : Number(m[1])) : null;
  };
  const inc = cs.counterIncrement && cs.counterIncrement !== 'none' ? find(cs.counterIncrement) : null;
  const set = cs.counterSet && cs.counterSet !== 'none' ? find(cs.counterSet) : null;
  return { add: inc === null ? 0 : inc, set: set === null ? null : set };
}

/**
 * A value as parts: text and counters. `pseudo` is the pseudo-element whose computed `content` this
 * is (its own counter effects then count), `contentOf` gives GCPM's content(...) of the element.
 */
export function valueParts(
  el: Element,
  v: string,
  pseudo: string | null,
  contentOf: (el: Element, which: string) => ValuePart[],
): ValuePart[] {
  const out: ValuePart[] = [];
  TOKEN.lastIndex = 0;
  const re = new RegExp(TOKEN.source, 'g');
  let t;
  while ((t = re.exec(v))) {
    if (t[1] !== undefined || t[2] !== undefined) out.push(unescapeCss(t[1] !== undefined ? t[1] : t[2]));
    else if (t[3] !== undefined) out.push(...contentOf(el, t[3] || 'text'));
    else if (t[4]) out.push(el.getAttribute(t[4]) || '');
    else if (t[5] || t[7]) {
      const name = (t[5] || t[7]) as string;
      const style = (t[5] ? t[6] : t[9]) || 'decimal';
      if (name === 'page' || name === 'pages') {
        out.push(name === 'page' ? PAGE_MARK : PAGES_MARK);
        continue;
      }
      const sep = t[8] ? unescapeCss(t[8].slice(1, -1)) : '';
      out.push({ name, all: !!t[7], sep, style, ...pseudoEffects(el, pseudo, name) });
    }
  }
  return out;
}

/** Parts as text, counters from `stacks` (the counter model's values on the element; none: 0). */
export function joinParts(parts: ValuePart[], stacks: Record<string, number[]> | null): string {
  return parts.map((p) => (typeof p === 'string' ? p : counterText(p, stacks ? stacks[p.name] : undefined))).join('');
}
