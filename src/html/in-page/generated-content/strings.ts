/**
 * Text the document gives castpress to show elsewhere: named strings (string-set), bookmark labels,
 * GCPM's content(), and the document information from `<meta>`.
 */
import type { DocumentMeta } from '../contract.js';
import { anchorId, candidates, documentOrder, followingId, idFor } from '../dom.js';
import { withoutSoftHyphens } from '../hyphenation.js';
import type { PageState, StyleRuleInfo } from '../state.js';
import { joinParts, PAGE_MARK, PAGES_MARK, valueParts, type ValuePart } from './string-values.js';

/** A pseudo-element's content as parts (strings, attr(), counters; its own counter effects count). */
function pseudoParts(el: Element, pseudo: string): ValuePart[] {
  const cs = getComputedStyle(el, pseudo);
  const v = cs.content;
  if (!v || v === 'none' || v === 'normal' || cs.display === 'none') return [];
  return valueParts(el, v, pseudo, () => []);
}

/** content(text | before | after | first-letter) of GCPM as parts, white space collapsed as for white-space: normal. */
function contentParts(el: Element, which: string): ValuePart[] {
  if (which === 'before' || which === 'after') return pseudoParts(el, '::' + which);
  const text = withoutSoftHyphens(el.textContent || '')
    .replace(/\s+/g, ' ')
    .trim();
  if (which === 'first-letter') {
    // css-pseudo-4's first letter: leading punctuation, the letter or digit, and punctuation right after it.
    const m = /^\p{P}*[\p{L}\p{N}]\p{P}*/u.exec(text);
    return [m ? m[0] : text.slice(0, 1)];
  }
  return [text];
}

/** content(...) as text (counters other than page/pages as the counter model has not run: 0). */
export function contentOf(el: Element, which: string): string {
  return joinParts(contentParts(el, which), null).replace(PAGE_MARK, '').replace(PAGES_MARK, '');
}

/** A bookmark-label value: strings, content(...), attr(...), concatenated. */
export function stringValue(el: Element, v: string): string {
  return joinParts(valueParts(el, v, null, contentParts), null)
    .replace(PAGE_MARK, '')
    .replace(PAGES_MARK, '');
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
 * string-set (renamed --fs-string-set): each assignment records its value as parts (strings, content(),
 * attr(), counters: those the counter model fills in, countCounters), and an id whose destination tells
 * its page. An element without a box (display: none, or inside such a subtree) still assigns (css-gcpm-3
 * names no exception): its place is where the next rendered element starts, and it is never the `start`
 * of a page (nothing of it is at the page's top).
 */
export function prepareStrings(S: PageState, styleRules: StyleRuleInfo[]): void {
  for (const el of candidates(styleRules, '--fs-string-set')) {
    const v = getComputedStyle(el).getPropertyValue('--fs-string-set').trim();
    if (!v || v === 'none') continue;
    const boxless = el.getClientRects().length === 0 && getComputedStyle(el).display !== 'contents';
    const id = boxless ? followingId(S, el) || precedingId(S, el) : anchorId(S, el, 't') || idFor(S, el, 't');
    if (!id) continue;
    const slack = boxless ? Number.NEGATIVE_INFINITY : startSlack(el);
    // Commas separate assignments, except inside strings and function arguments (counters(x, ".")).
    for (const part of splitTop(v)) {
      const m = /^\s*([-\w]+)\s*([\s\S]*)$/.exec(part);
      if (!m) continue;
      const parts = valueParts(el, m[2], null, contentParts);
      S.strings.push({ el, name: m[1], value: joinParts(parts, null), parts, id, slack });
    }
  }
}

/** Nothing rendered follows a box-less assignment: the last rendered element before it places it. */
export function precedingId(S: PageState, el: Element): string | null {
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_ELEMENT);
  walker.currentNode = el;
  for (let n = walker.previousNode(); n; n = walker.previousNode()) {
    const e = n as Element;
    if (e.contains(el) || e.getClientRects().length === 0) continue;
    const pos = getComputedStyle(e).position;
    if (pos !== 'absolute' && pos !== 'fixed') return idFor(S, e, 't');
  }
  return null;
}

/** Top-level comma-separated pieces of a value (commas in strings and parentheses do not split). */
function splitTop(v: string): string[] {
  const out: string[] = [];
  let depth = 0,
    quote = '',
    cur = '';
  for (let i = 0; i < v.length; i++) {
    const c = v[i] as string;
    if (quote) {
      if (c === '\\') {
        cur += c + (v[i + 1] ?? '');
        i++;
        continue;
      }
      if (c === quote) quote = '';
    } else if (c === '"' || c === "'") quote = c;
    else if (c === '(') depth++;
    else if (c === ')') depth--;
    else if (c === ',' && depth === 0) {
      out.push(cur);
      cur = '';
      continue;
    }
    cur += c;
  }
  out.push(cur);
  return out;
}

/**
 * How far below the page's content top (CSS px) an element's destination may be and still be the first
 * thing on the page (the `start` policy): its own margin, border and padding and those of the ancestors
 * it starts (it is their first rendered child), and for an inline box the half-leading above its text.
 */
export function startSlack(el: Element): number {
  const extra = (e: Element) => {
    const cs = getComputedStyle(e);
    return (parseFloat(cs.marginTop) || 0) + (parseFloat(cs.borderTopWidth) || 0) + (parseFloat(cs.paddingTop) || 0);
  };
  const cs = getComputedStyle(el);
  let slack = extra(el);
  if (cs.display.startsWith('inline') && afterOnItsLine(el)) return Number.NEGATIVE_INFINITY;
  if (cs.display.startsWith('inline')) {
    const size = parseFloat(cs.fontSize) || 16;
    const lh = parseFloat(cs.lineHeight) || size * 1.2;
    slack += Math.max(0, (lh - size) / 2) + size * 0.25;
  }
  for (
    let e: Element = el, up = el.parentElement;
    up && up !== document.documentElement;
    e = up, up = up.parentElement
  ) {
    if (!firstRendered(up, e)) break;
    slack += extra(up);
  }
  return slack;
}

/**
 * Whether an inline element has text or boxes before it on its own line (in the screen layout, which has
 * the print's content width): whatever page that line is on, it does not start it.
 */
function afterOnItsLine(el: Element): boolean {
  let block = el.parentElement;
  while (block && /^(inline|contents)/.test(getComputedStyle(block).display)) block = block.parentElement;
  const own = el.getClientRects()[0];
  if (!block || !own) return false;
  const range = document.createRange();
  range.setStart(block, 0);
  range.setEndBefore(el);
  for (const r of range.getClientRects())
    if (r.width > 0.5 && r.bottom > own.top + 0.5 && r.top < own.bottom - 0.5) return true;
  return false;
}

/** Whether nothing rendered precedes `child` inside `parent` (text or a box). */
function firstRendered(parent: Element, child: Element): boolean {
  for (let n = parent.firstChild; n && n !== child; n = n.nextSibling) {
    if (n.nodeType === Node.TEXT_NODE && (n.textContent || '').trim()) return false;
    if (n instanceof Element) {
      const cs = getComputedStyle(n);
      if (cs.display !== 'none' && cs.position !== 'absolute' && cs.position !== 'fixed' && n.getClientRects().length)
        return false;
    }
  }
  return true;
}
