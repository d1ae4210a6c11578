/**
 * Finding tags in the caller's HTML in time linear in its length. The patterns these replace
 * (`/<meta\b[^>]*>/gi`, `/(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi`, …) scan to the end of the text
 * once per opening that never closes: 20,000 unclosed `<head ` took 11 s, and the scan is synchronous,
 * so no deadline could stop it. Here a search that finds no end stops the whole search: no later
 * opening can find one either. Matching is ASCII case-insensitive on the tag name, followed by a
 * character that cannot continue a name (as `\b` did).
 */

/** The value of attribute `name` in the text of one tag, as written (character references not decoded). */
export function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

export interface TagSpan {
  /** Index of `<`. */
  start: number;
  /** Index after the tag's `>`. */
  end: number;
}

const NAME_CHAR = /[A-Za-z0-9_]/;

function opensTag(html: string, i: number, name: string): boolean {
  if (html.charCodeAt(i) !== 60 /* < */) return false;
  for (let k = 0; k < name.length; k++) {
    const c = html.charCodeAt(i + 1 + k);
    // ASCII letters only: `| 32` folds A-Z onto a-z.
    if ((c | 32) !== name.charCodeAt(k)) return false;
  }
  const next = html[i + 1 + name.length];
  return next !== undefined && !NAME_CHAR.test(next);
}

/** Every `<name …>` tag (lowercase `name`), in order; an opening without its `>` ends the search. */
export function findTags(html: string, name: string): TagSpan[] {
  const out: TagSpan[] = [];
  for (let tag = firstTag(html, name); tag; tag = firstTag(html, name, tag.end)) out.push(tag);
  return out;
}

/** The first `<name …>` tag at or after `from`, if any. */
export function firstTag(html: string, name: string, from = 0): TagSpan | undefined {
  for (let i = html.indexOf('<', from); i >= 0; i = html.indexOf('<', i + 1)) {
    if (!opensTag(html, i, name)) continue;
    const close = html.indexOf('>', i);
    return close < 0 ? undefined : { start: i, end: close + 1 };
  }
  return undefined;
}

/** The first `</name>` (white space allowed before `>`) at or after `from`. */
export function closingTag(html: string, name: string, from = 0): TagSpan | undefined {
  for (let i = html.indexOf('</', from); i >= 0; i = html.indexOf('</', i + 2)) {
    let k = 0;
    while (k < name.length && (html.charCodeAt(i + 2 + k) | 32) === name.charCodeAt(k)) k++;
    if (k < name.length) continue;
    let j = i + 2 + name.length;
    while (j < html.length && /\s/.test(html[j]!)) j++;
    if (html[j] === '>') return { start: i, end: j + 1 };
  }
  return undefined;
}

export interface ElementSpan {
  open: TagSpan;
  close: TagSpan;
}

/** Every `<name …>…</name>` element whose end tag is there (for raw-text elements such as style: no nesting). */
export function findElements(html: string, name: string): ElementSpan[] {
  const out: ElementSpan[] = [];
  for (let open = firstTag(html, name); open;) {
    const close = closingTag(html, name, open.end);
    if (!close) break;
    out.push({ open, close });
    open = firstTag(html, name, close.end);
  }
  return out;
}

/** `text` with each span replaced by what `replace` gives for it (spans in order, not overlapping). */
export function spliceSpans<T extends { start: number; end: number }>(
  text: string,
  spans: T[],
  replacements: string[],
): string {
  let out = '';
  let last = 0;
  spans.forEach((s, k) => {
    out += text.slice(last, s.start) + replacements[k];
    last = s.end;
  });
  return out + text.slice(last);
}
