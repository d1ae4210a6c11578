/**
 * Text the document gives castpress to show elsewhere: named strings (string-set), bookmark labels,
 * GCPM's content(), and the document information from `<meta>`.
 */
import type { DocumentMeta } from './contract.js';
import { unescapeCss } from './css-text.js';
import { anchorId, candidates, documentOrder, idFor } from './dom.js';
import type { PageState, StyleRuleInfo } from './state.js';

/** A pseudo-element's content as text (strings and attr() only: counters have no value to read). */
function pseudoText(el: Element, pseudo: string): string {
  const v = getComputedStyle(el, pseudo).content;
  if (!v || v === 'none' || v === 'normal') return '';
  let out = '';
  const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|attr\(\s*([-\w]+)[^)]*\)/g;
  let m;
  while ((m = re.exec(v))) out += m[3] ? el.getAttribute(m[3]) || '' : unescapeCss(m[1] !== undefined ? m[1] : m[2]);
  return out;
}

/** content(text | before | after | first-letter) of GCPM, white space collapsed as for white-space: normal. */
export function contentOf(el: Element, which: string): string {
  const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
  if (which === 'before' || which === 'after') return pseudoText(el, '::' + which);
  if (which === 'first-letter') {
    const m = /^\p{P}*[\p{L}\p{N}]\p{P}*/u.exec(text);
    return m ? m[0] : text.slice(0, 1);
  }
  return text;
}

/** A string-set / bookmark-label value: strings, content(...), attr(...), concatenated. */
export function stringValue(el: Element, v: string): string {
  let value = '';
  const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|content\(\s*([-\w]*)\s*\)|attr\(\s*([-\w]+)[^)]*\)/g;
  let t;
  while ((t = re.exec(v))) {
    if (t[1] !== undefined || t[2] !== undefined) value += unescapeCss(t[1] !== undefined ? t[1] : t[2]);
    else if (t[3] !== undefined) value += contentOf(el, t[3] || 'text');
    else if (t[4]) value += el.getAttribute(t[4]) || '';
  }
  return value;
}

/**
 * Bookmarks: h1-h6 at their level unless bookmark-level says otherwise (none drops one), any element
 * with an integer bookmark-level; label from bookmark-label (default its text), bookmark-state closed.
 */
export function prepareBookmarks(S: PageState, styleRules: StyleRuleInfo[]): void {
  const els = new Set<Element>([
    ...document.body.querySelectorAll('h1, h2, h3, h4, h5, h6'),
    ...candidates(styleRules, '--fs-bookmark-level'),
  ]);
  const sorted = [...els].sort(documentOrder);
  for (const el of sorted) {
    if (S.running.some((r) => r.el.contains(el))) continue;
    const cs = getComputedStyle(el);
    const set = cs.getPropertyValue('--fs-bookmark-level').trim();
    const heading = /^H([1-6])$/.exec(el.tagName);
    const level = set ? parseInt(set, 10) : heading ? Number(heading[1]) : NaN;
    if (!(level >= 1) || cs.display === 'none' || el.getClientRects().length === 0) continue;
    const labelSpec = cs.getPropertyValue('--fs-bookmark-label').trim();
    const label = (labelSpec ? stringValue(el, labelSpec) : contentOf(el, 'text')).replace(/\s+/g, ' ').trim();
    if (!label) continue;
    const id = anchorId(S, el, 'h');
    if (id)
      S.bookmarks.push({ level, label, open: cs.getPropertyValue('--fs-bookmark-state').trim() !== 'closed', id });
  }
}

/** Document information WeasyPrint takes from <meta>: author, description (subject), keywords. */
export function readMeta(): DocumentMeta {
  const meta = (name: string) => {
    const m = document.head && document.head.querySelector('meta[name="' + name + '" i]');
    const v = m && m.getAttribute('content');
    return v ? v.trim() : null;
  };
  return { author: meta('author'), subject: meta('description') || meta('subject'), keywords: meta('keywords') };
}

/**
 * string-set (renamed --fs-string-set): each element that sets a named string records its value,
 * evaluated now (content(), attr(), strings; counters are not readable), and gets an id whose
 * destination tells its page.
 */
export function prepareStrings(S: PageState, styleRules: StyleRuleInfo[]): void {
  for (const el of candidates(styleRules, '--fs-string-set')) {
    const v = getComputedStyle(el).getPropertyValue('--fs-string-set').trim();
    if (!v || v === 'none') continue;
    const slack = parseFloat(getComputedStyle(el).marginTop) || 0;
    for (const part of v.split(/,(?=(?:[^"']|"[^"]*"|'[^']*')*$)/)) {
      const m = /^\s*([-\w]+)\s*([\s\S]*)$/.exec(part);
      if (!m) continue;
      S.strings.push({
        el,
        name: m[1],
        value: stringValue(el, m[2]),
        id: anchorId(S, el, 't') || idFor(S, el, 't'),
        slack,
      });
    }
  }
}
