/**
 * `device-cmyk()` (CSS Color 5 §13) carried through Chromium, which converts it to RGB (or drops it):
 * each colour becomes an RGB value unique in the document before Chromium parses the CSS, and the
 * kernel turns that exact RGB back into the CMYK colour in the printed content streams. The stand-in is
 * the naive conversion CSS Color 5 gives, nudged by a step or two of 1/255 to a value no other colour of
 * the document spells out, so what castpress cannot turn back (gradients, shadows, images) still looks right.
 */
import { findElements, spliceSpans } from './tags.js';

/** Stand-in RGB (`r,g,b`, 0–255) → the CMYK colour it stands for (0–1). */
export type CmykColours = Map<string, [number, number, number, number]>;

const CALL = 'device-cmyk(';
const NUMBER = /^[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?%?$/i;

/** The index of the `)` that closes a group opened before `from` (nested groups skipped), or -1. */
function closeParen(css: string, from: number): number {
  let depth = 1;
  for (let i = from; i < css.length; i++) {
    if (css[i] === '(') depth++;
    else if (css[i] === ')' && --depth === 0) return i;
  }
  return -1;
}

/** Tokens of a function's arguments, split at blanks, commas and `/` (kept as a token); one pass. */
function argumentTokens(inner: string): string[] {
  const out: string[] = [];
  let token = '';
  for (const ch of inner) {
    if (ch === ' ' || ch === '\t' || ch === '\n' || ch === '\r' || ch === '\f' || ch === ',' || ch === '/') {
      if (token) out.push(token);
      token = '';
      if (ch === '/') out.push('/');
    } else token += ch;
  }
  if (token) out.push(token);
  return out;
}

/** `device-cmyk(c m y k [/ a])` (or with commas) → its components and alpha; undefined when malformed. */
function parseCall(inner: string): { cmyk: [number, number, number, number]; alpha?: string } | undefined {
  const t = argumentTokens(inner);
  if (t.length < 4 || !t.slice(0, 4).every((v) => NUMBER.test(v))) return undefined;
  const cmyk = t.slice(0, 4).map(unit) as [number, number, number, number];
  // A fallback colour after the components (an older draft's syntax) is not needed: the stand-in is RGB.
  return t[4] === '/' && t[5] !== undefined && NUMBER.test(t[5]) ? { cmyk, alpha: t[5] } : { cmyk };
}

const HEX = /#([0-9a-f]{3,8})\b/gi;
const RGB_FN = /rgba?\(\s*(\d{1,3})[\s,]+(\d{1,3})[\s,]+(\d{1,3})/gi;

function unit(v: string): number {
  const n = v.endsWith('%') ? Number(v.slice(0, -1)) / 100 : Number(v);
  return Math.min(1, Math.max(0, Number.isFinite(n) ? n : 0));
}

/** Every RGB triple the text spells out (hex and rgb()), as `r,g,b`. */
function spelledColours(text: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(HEX)) {
    const h = m[1]!;
    if (h.length === 3 || h.length === 4) out.add([0, 1, 2].map((i) => parseInt(h[i]! + h[i]!, 16)).join(','));
    else if (h.length === 6 || h.length === 8) out.add([0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)).join(','));
  }
  for (const m of text.matchAll(RGB_FN)) out.add([m[1], m[2], m[3]].map((v) => Math.min(255, Number(v))).join(','));
  return out;
}

/**
 * Small steps around a colour, nearest first: the stand-in stays within 2/255 of the naive conversion
 * and is never the naive value itself, which round colours (black text, `red`) have without being
 * spelled out in the document.
 */
const STEPS: Array<[number, number, number]> = [];
for (let d = 1; d <= 2; d++)
  for (const r of [-d, 0, d])
    for (const g of [-d, 0, d])
      for (const b of [-d, 0, d])
        if (Math.max(Math.abs(r), Math.abs(g), Math.abs(b)) === d && !STEPS.some((s) => s.join() === [r, g, b].join()))
          STEPS.push([r, g, b]);

/**
 * `html` with each `device-cmyk()` in its `<style>` elements and `style` attributes replaced by its
 * stand-in `rgb()`, and the stand-ins found. A colour with no free stand-in nearby keeps the naive
 * conversion and is left out of the map (it prints as RGB).
 */
export function rewriteCmyk(html: string): { html: string; colours: CmykColours } {
  const colours: CmykColours = new Map();
  if (!/device-cmyk\(/i.test(html)) return { html, colours };
  const taken = spelledColours(html);
  const byCmyk = new Map<string, string>();
  const standIn = (cmyk: [number, number, number, number]): string => {
    const id = cmyk.join(' ');
    let key = byCmyk.get(id);
    if (key !== undefined) return key;
    const naive = cmyk.slice(0, 3).map((v) => Math.round(255 * (1 - v) * (1 - cmyk[3])));
    for (const step of STEPS) {
      const rgb = naive.map((v, i) => v + step[i]!);
      const candidate = rgb.join(',');
      if (rgb.every((v) => v >= 0 && v <= 255) && !taken.has(candidate) && !colours.has(candidate)) {
        key = candidate;
        break;
      }
    }
    // No free value nearby (every neighbour spelled out): the naive conversion, printed as RGB.
    if (key === undefined) key = naive.join(',');
    else colours.set(key, cmyk);
    byCmyk.set(id, key);
    return key;
  };
  const replace = (css: string): string => {
    const lower = css.toLowerCase();
    let out = '';
    let last = 0;
    for (let at = lower.indexOf(CALL); at >= 0; at = lower.indexOf(CALL, at + 1)) {
      if (at > 0 && /[-\w]/.test(css[at - 1]!)) continue;
      const close = closeParen(css, at + CALL.length);
      if (close < 0) break;
      const call = parseCall(css.slice(at + CALL.length, close));
      // A malformed call is left whole (Chromium drops it), calls nested in it unread: each byte is scanned once.
      if (!call) {
        at = close;
        continue;
      }
      const alpha = call.alpha === undefined ? '' : ` / ${call.alpha.endsWith('%') ? call.alpha : unit(call.alpha)}`;
      out += `${css.slice(last, at)}rgb(${standIn(call.cmyk).replace(/,/g, ' ')}${alpha})`;
      last = close + 1;
      at = close;
    }
    return out + css.slice(last);
  };
  const styles = findElements(html, 'style').map((e) => ({ start: e.open.end, end: e.close.start }));
  const out = spliceSpans(
    html,
    styles,
    styles.map(({ start, end }) => replace(html.slice(start, end))),
  ).replace(/(\sstyle\s*=\s*)("[^"]*"|'[^']*')/gi, (_m, lead: string, value: string) => lead + replace(value));
  return { html: out, colours };
}
