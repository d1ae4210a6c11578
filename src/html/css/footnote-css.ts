import { FOOTNOTE_CALL, FOOTNOTE_MARKER, FOOTNOTE_RULE } from '../in-page/contract.js';
import { closing, mapPageBlocks, stringEnd, topLevelPieces } from './scan.js';

/**
 * css-gcpm-3 footnotes, renamed into forms Chromium keeps (the page code, in-page/footnotes, reads them):
 * - `float: footnote` → `--fs-footnote: footnote`; `footnote-display` and `footnote-policy` →
 *   `--fs-footnote-display`, `--fs-footnote-policy` (registered non-inherited, page-css.ts);
 * - a selector ending in `::footnote-call` → the call castpress writes right after its note,
 *   `:is(<selector>) + castpress-fn-call::before`; one ending in `::footnote-marker` → the marker at the
 *   start of the note's copy, `:is(<selector>) > castpress-fn-marker::before`. Other selectors in the
 *   list are kept; a pseudo-element not at the end stays invalid and Chromium drops the rule, as before;
 * - `@footnote { … }` inside a page rule → `castpress-footnote-rule { … }` right after that page rule:
 *   Chromium drops unknown at-rules inside `@page`, and keeps the declarations of a style rule (the page
 *   code gives each such rule to the page rule just before it).
 */
export function rewriteFootnotes(css: string): string {
  if (!/footnote/i.test(css)) return css;
  return footnotePseudos(footnoteAreas(css))
    .replace(/(?<![-\w])footnote-(display|policy)\s*:/gi, (_m, name: string) => `--fs-footnote-${name.toLowerCase()}:`)
    .replace(/(?<![-\w])float\s*:\s*footnote(?![-\w])/gi, '--fs-footnote: footnote');
}

/** `@footnote` blocks out of each page rule, into a style rule after it. */
function footnoteAreas(css: string): string {
  if (!/@footnote/i.test(css)) return css;
  return mapPageBlocks(css, (prelude, body) => {
    let rest = '';
    let areas = '';
    let last = 0;
    const lower = body.toLowerCase();
    for (let at = lower.indexOf('@footnote'); at >= 0; at = lower.indexOf('@footnote', last)) {
      let open = at + 9;
      while (open < body.length && body[open] !== '{' && body[open] !== ';' && body[open] !== '}') open++;
      if (body[open] !== '{') break;
      const end = closing(body, open + 1, '{', '}');
      const stop = end < 0 ? body.length : end;
      rest += body.slice(last, at);
      areas += `${FOOTNOTE_RULE}{${body.slice(open + 1, end < 0 ? stop : end - 1)}}`;
      last = stop;
    }
    return `@page${prelude}{${rest}${body.slice(last)}}${areas}`;
  });
}

/** Selector lists that name `::footnote-call` or `::footnote-marker`, rewritten as above. */
function footnotePseudos(css: string): string {
  if (!/::footnote-(call|marker)/i.test(css)) return css;
  let out = '';
  let last = 0;
  let start = 0;
  for (let i = 0; i < css.length; i++) {
    const c = css[i]!;
    if (c === '"' || c === "'") i = stringEnd(css, i) - 1;
    else if (c === '/' && css[i + 1] === '*') {
      const end = css.indexOf('*/', i + 2);
      i = end < 0 ? css.length : end + 1;
    } else if (c === ';' || c === '}') start = i + 1;
    else if (c === '{') {
      const prelude = css.slice(start, i);
      if (/::footnote-(call|marker)/i.test(prelude)) {
        out += css.slice(last, start) + topLevelPieces(prelude).map(footnoteSelector).join(',');
        last = i;
      }
      start = i + 1;
    }
  }
  return out + css.slice(last);
}

function footnoteSelector(selector: string): string {
  const m = /::footnote-(call|marker)\s*$/i.exec(selector);
  if (!m) return selector;
  const lead = /^\s*/.exec(selector)![0];
  const base = selector.slice(0, m.index).trim() || '*';
  return m[1]!.toLowerCase() === 'call'
    ? `${lead}:is(${base}) + ${FOOTNOTE_CALL}::before`
    : `${lead}:is(${base}) > ${FOOTNOTE_MARKER}::before`;
}
