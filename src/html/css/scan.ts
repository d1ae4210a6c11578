/**
 * Hand-written scans of CSS text, linear in its length (the CSS comes from the caller: a backtracking
 * pattern took 16 s on 120 KB once): groups, strings, `@page` blocks.
 */

/**
 * The index just after the `close` that ends a group opened right before `from` (nested groups and
 * quoted strings skipped), or -1 when the text ends first.
 */
export function closing(css: string, from: number, open: string, close: string): number {
  let depth = 1;
  let quote = '';
  for (let i = from; i < css.length; i++) {
    const c = css[i]!;
    if (quote) {
      if (c === '\\') i++;
      else if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === open) depth++;
    else if (c === close && --depth === 0) return i + 1;
  }
  return -1;
}

/** The index after the string starting at `i` (its closing quote), or the end of the text. */
export function stringEnd(text: string, i: number): number {
  const quote = text[i];
  for (let j = i + 1; j < text.length; j++) {
    if (text[j] === '\\') j++;
    else if (text[j] === quote) return j + 1;
  }
  return text.length;
}

/**
 * Every `@page` block, replaced by what `each` makes of it: `prelude` is the text between `@page` and
 * `{` (the selectors), `body` the text inside the braces. A block the text ends in is closed.
 */
export function mapPageBlocks(css: string, each: (prelude: string, body: string) => string): string {
  const lower = css.toLowerCase();
  let out = '';
  let last = 0;
  let from = 0;
  for (;;) {
    const at = lower.indexOf('@page', from);
    if (at < 0) break;
    let open = at + 5;
    while (open < css.length && css[open] !== '{' && css[open] !== ';') open++;
    if (open >= css.length) break;
    if (css[open] === ';') {
      from = open + 1;
      continue;
    }
    const end = closing(css, open + 1, '{', '}');
    const stop = end < 0 ? css.length : end;
    out += css.slice(last, at) + each(css.slice(at + 5, open), css.slice(open + 1, end < 0 ? stop : end - 1));
    last = stop;
    from = stop;
  }
  return out + css.slice(last);
}

/** Pieces of a selector list or argument list split at top-level commas (strings and parentheses kept whole). */
export function topLevelPieces(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === '"' || c === "'") i = stringEnd(text, i) - 1;
    else if (c === '(' || c === '[') depth++;
    else if (c === ')' || c === ']') depth = Math.max(0, depth - 1);
    else if (c === ',' && depth === 0) {
      out.push(text.slice(start, i));
      start = i + 1;
    }
  }
  out.push(text.slice(start));
  return out;
}
