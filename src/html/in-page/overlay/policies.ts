/** GCPM's page policies and named strings: which running element or string a page's margin box shows. */
import type { LayoutState } from '../contract.js';
import { cssString } from '../css-text.js';
import { type PageState } from '../state.js';
import { PAGE_MARK, PAGES_MARK } from '../generated-content/string-values.js';

interface Positioned {
  id: string;
  slack: number;
}

/**
 * GCPM's page policies, for running elements and named strings alike. items are in document
 * order with an id whose page (and offset from the content top, in pt) the state knows.
 * - first: the first one on the page, else the last one before the page (the entry value);
 * - start: the first one on the page if nothing precedes it there (it starts the page), else the entry value;
 * - last: the last one on the page, else the entry value;
 * - first-except: nothing on a page that has one, else the entry value.
 */
export function choose<T extends Positioned>(items: T[], policy: string, i: number, state: LayoutState): T | null {
  let entry: T | null = null;
  const on: T[] = [];
  for (const it of items) {
    const p = state.pages[it.id];
    if (p === undefined) continue;
    if (p < i) entry = it;
    else if (p === i) on.push(it);
  }
  const head = on[0];
  if (policy === 'last') return on.length ? (on[on.length - 1] as T) : entry;
  if (policy === 'first-except') return on.length ? null : entry;
  if (policy === 'start') {
    const top = state.tops && state.tops[head ? head.id : ''];
    return head && top !== undefined && top <= head.slack * 0.75 + 1 ? head : entry;
  }
  return head ? head : entry;
}

/** The named string `name` on page i by `policy`; null when none is set yet. */
export function stringOn(S: PageState, name: string, policy: string, i: number, state: LayoutState): string | null {
  const a = choose(
    S.strings.filter((x) => x.name === name),
    policy,
    i,
    state,
  );
  // counter(page) in a string-set value is the page of the assignment (string-values.ts marks).
  return a
    ? a.value
        .split(PAGE_MARK)
        .join(String((state.pages[a.id] ?? i) + 1))
        .split(PAGES_MARK)
        .join(String(state.total))
    : null;
}

/**
 * string() inside a running element's copy shows the named string of the page the copy is drawn on, as a
 * margin box's own string() does (its `first` value): the copy's pseudo-elements get rules of their own
 * for page i. Pseudo-elements that also show counters or target pages keep the element's rule.
 */
export function pageStrings(S: PageState, copy: Element, i: number, state: LayoutState): string {
  let css = '';
  for (const el of [copy, ...copy.querySelectorAll('[data-castpress-t]')]) {
    const key = el.getAttribute('data-castpress-t');
    const rules = key === null ? [] : S.targets.filter((t) => t.key === key);
    if (!rules.some((t) => t.parts.some((p) => p.string !== undefined))) continue;
    if (!rules.every((t) => t.parts.every((p) => p.raw !== undefined))) continue;
    const own = key + '-p' + i;
    el.setAttribute('data-castpress-t', own);
    for (const t of rules) {
      const content = t.parts
        .map((p) => (p.string !== undefined ? cssString(stringOn(S, p.string, 'first', i, state) ?? '') : p.raw))
        .join(' ');
      css += '[data-castpress-t="' + own + '"]' + t.pseudo + '{content:' + (content || '""') + '!important}';
    }
  }
  return css;
}
