/**
 * CSS counters counted in the page, because Chromium shows counters but exposes no value
 * (getComputedStyle gives declarations, innerText omits generated content): target-counter() of
 * a counter other than `page`, and a running element's copy in a margin box, need their own count.
 * The model is CSS Lists 3, §4.4 "Nested counters and scope" and §4.5 "Creating and inheriting
 * counters" (https://drafts.csswg.org/css-lists-3/#nested-counters), with Chromium's choices where
 * they differ: a reset nested in an ancestor's counter of that name stays in the element's subtree
 * (WPT css-lists/counters-scope-00*), ::marker has no counter effects, and reset, increment, set
 * apply in that order. `list-item` counts what the markers show (Chromium's own
 * `counter(list-item)` differs for li `value` and reversed lists). For each wanted element it
 * returns `at` (after the element's own effects: what target-counter() shows, as in WeasyPrint
 * and Prince) and `entry` (what a copy placed elsewhere starts from). One walk of the tree; styles
 * are read only on elements a rule or style attribute could give a counter effect on `names`.
 */
import { select } from '../dom.js';
import type { StyleRuleInfo } from '../state.js';

/** Counter name → values of its instances, outermost first. */
export type CounterStacks = Record<string, number[]>;

export interface CounterValues {
  /** The counters on the element, after its own effects. */
  at: CounterStacks;
  /** The counters it inherits (less an instance its reset replaces). */
  entry: CounterStacks | null;
}

/** [name, value | null] */
type Effect = [string, number | null];

/** One counter instance; `node` created it, `scope` is that node's parent (a pseudo-element's parent is its element). */
interface Instance {
  name: string;
  value: number;
  node: Element | { el: Element; which: string };
  scope: Element | null;
}

const COUNTER_PROPS = ['counter-reset', 'counter-increment', 'counter-set'];
const LIST_OWNERS = new Set(['OL', 'UL', 'MENU', 'DIR']);

/** Computed counter-* value → [name, value|null] pairs ('none' → none; reversed(x) counts as x). */
function counterEffects(v: string): Effect[] {
  const out: Effect[] = [];
  if (!v || v === 'none') return out;
  const re = /(?:reversed\(\s*)?([-\w]+)\)?(?:\s+(-?\d+))?/g;
  let m;
  while ((m = re.exec(v))) out.push([m[1], m[2] === undefined ? null : Number(m[2])]);
  return out;
}

export function counterModel(
  styleRules: StyleRuleInfo[],
  names: Set<string>,
  wanted: Set<Element>,
): Map<Element, CounterValues> {
  const result = new Map<Element, CounterValues>();
  if (names.size === 0 || wanted.size === 0) return result;
  const listItem = names.has('list-item');
  const mentions = (v: string) => v.includes('var(') || counterEffects(v).some(([n]) => names.has(n));
  const own = new Set<Element>(),
    pseudo = new Set<Element>();
  for (const r of styleRules) {
    if (!COUNTER_PROPS.some((p) => mentions(r.style.getPropertyValue(p)))) continue;
    const hasPseudo = /::?(before|after)\b/.test(r.selectorText);
    for (const el of select(r.selectorText.replace(/::?(before|after|marker)\b/g, ''))) {
      own.add(el);
      if (hasPseudo) pseudo.add(el);
    }
  }
  for (const el of document.querySelectorAll<HTMLElement>('[style]'))
    if (el.style && COUNTER_PROPS.some((p) => mentions(el.style.getPropertyValue(p)))) own.add(el);
  if (listItem) {
    for (const el of select('li, summary, ol, ul, menu, dir')) own.add(el);
    for (const r of styleRules)
      if (/list-item/.test(r.style.getPropertyValue('display')))
        for (const el of select(r.selectorText.replace(/::?(before|after|marker)\b/g, ''))) own.add(el);
    for (const el of document.querySelectorAll<HTMLElement>('[style]'))
      if (/list-item/.test(el.style.getPropertyValue('display'))) own.add(el);
  }
  // display:none of an element or any ancestor, read once per element.
  const hiddenMemo = new Map<Element, boolean>();
  const hidden = (el: Element | null): boolean => {
    if (!el) return false;
    let h = hiddenMemo.get(el);
    if (h === undefined) {
      h = getComputedStyle(el).display === 'none' || hidden(el.parentElement);
      hiddenMemo.set(el, h);
    }
    return h;
  };
  // A counter set is an array of instances from the outermost; arrays are shared until an element
  // changes them (copy on write). An instance with the element's scope came from a previous sibling.
  const instantiate = (
    set: Instance[],
    name: string,
    value: number,
    node: Instance['node'],
    scope: Element | null,
  ): Instance[] => {
    let k = set.length - 1;
    while (k >= 0 && (set[k] as Instance).name !== name) k--;
    const found = set[k];
    const out = found && (found.node === node || found.scope === scope) ? set.filter((_, j) => j !== k) : set.slice();
    out.push({ name, value, node, scope });
    return out;
  };
  const innermost = (set: Instance[], name: string): Instance | null => {
    for (let k = set.length - 1; k >= 0; k--) if ((set[k] as Instance).name === name) return set[k] as Instance;
    return null;
  };
  const stacks = (set: Instance[]): CounterStacks => {
    const out: CounterStacks = {};
    for (const c of set) if (names.has(c.name)) (out[c.name] = out[c.name] || []).push(c.value);
    return out;
  };
  /** Applies one element's (or pseudo-element's) reset, increment and set; returns its counter set. */
  const apply = (
    set: Instance[],
    node: Instance['node'],
    scope: Element | null,
    reset: Effect[],
    inc: Effect[],
    put: Effect[],
  ): Instance[] => {
    for (const [n, v] of reset) if (names.has(n)) set = instantiate(set, n, v === null ? 0 : v, node, scope);
    for (const [ops, isSet] of [
      [inc, false],
      [put, true],
    ] as const) {
      for (const [n, v] of ops) {
        if (!names.has(n)) continue;
        let c = innermost(set, n);
        if (!c) {
          set = instantiate(set, n, 0, node, scope);
          c = set[set.length - 1] as Instance;
        }
        c.value = isSet ? (v === null ? 0 : v) : c.value + (v === null ? 1 : v);
      }
    }
    return set;
  };
  const pseudoEffects = (set: Instance[], el: Element, which: string): Instance[] => {
    const ps = getComputedStyle(el, which);
    if (!ps.content || ps.content === 'none' || ps.content === 'normal' || ps.display === 'none') return set;
    return apply(
      set,
      { el, which },
      el,
      counterEffects(ps.counterReset),
      counterEffects(ps.counterIncrement),
      counterEffects(ps.counterSet),
    );
  };
  /**
   * What a child inherits: its parent's counters (set) and, from its previous sibling's (sib, which starts
   * with set), those of names the parent has none of.
   */
  const fromSibling = (set: Instance[], sib: Instance[]): Instance[] => {
    if (sib.length === set.length) return sib;
    const extras = sib.slice(set.length).filter((c) => !set.some((p) => p.name === c.name));
    return extras.length === sib.length - set.length ? sib : set.concat(extras);
  };
  let left = wanted.size;
  /** Returns the counter set el passes to its following sibling (its own, not its children's). */
  const visit = (el: Element, inherited: Instance[]): Instance[] => {
    let set = inherited;
    const isOwn = own.has(el),
      isWanted = wanted.has(el);
    const cs = isOwn ? getComputedStyle(el) : null;
    if (cs && cs.display === 'none') {
      hiddenMemo.set(el, true);
      return inherited;
    }
    if (isOwn ? hidden(el.parentElement) : isWanted && hidden(el)) return inherited;
    const entry = isWanted ? stacks(set) : null;
    if (cs) {
      const reset = counterEffects(cs.counterReset),
        inc = counterEffects(cs.counterIncrement),
        put = counterEffects(cs.counterSet);
      if (listItem) {
        const named = (ops: Effect[]) => ops.some(([n]) => n === 'list-item');
        if (LIST_OWNERS.has(el.tagName) && !named(reset)) {
          const start =
            el.tagName === 'OL' && el.hasAttribute('start') ? parseInt(el.getAttribute('start') as string, 10) : NaN;
          const reversed = el.tagName === 'OL' && el.hasAttribute('reversed');
          const first = !Number.isNaN(start) ? start : reversed ? el.querySelectorAll(':scope > li').length : 1;
          reset.push(['list-item', reversed ? first + 1 : first - 1]);
        }
        if (cs.display.includes('list-item') && !named(inc)) {
          const owner = el.parentElement && el.parentElement.closest('ol, ul, menu, dir');
          inc.push(['list-item', owner && owner.tagName === 'OL' && owner.hasAttribute('reversed') ? -1 : 1]);
        }
        if (el.tagName === 'LI' && el.hasAttribute('value') && !named(put)) {
          const v = parseInt(el.getAttribute('value') as string, 10);
          if (!Number.isNaN(v)) put.push(['list-item', v]);
        }
      }
      if (entry) {
        // A reset replaces the innermost instance a previous sibling created: the copy must not start with it.
        for (const n of new Set(reset.map(([name]) => name))) {
          const c = innermost(set, n);
          const values = entry[n];
          if (c && c.scope === el.parentElement && values) entry[n] = values.slice(0, -1);
        }
      }
      set = apply(set, el, el.parentElement, reset, inc, put);
    }
    if (isWanted) {
      result.set(el, { at: stacks(set), entry });
      left--;
    }
    let cur = set;
    if (pseudo.has(el)) cur = fromSibling(set, pseudoEffects(cur, el, '::before'));
    for (let c = el.firstElementChild; c && left > 0; c = c.nextElementSibling) cur = fromSibling(set, visit(c, cur));
    if (pseudo.has(el) && left > 0) pseudoEffects(cur, el, '::after');
    return set;
  };
  // The root's own effects reach <body> (<head> is display:none; the castpress-* helpers have no counters).
  const root = document.documentElement;
  let top: Instance[] = [];
  if (own.has(root)) {
    const cs = getComputedStyle(root);
    top = apply(
      [],
      root,
      null,
      counterEffects(cs.counterReset),
      counterEffects(cs.counterIncrement),
      counterEffects(cs.counterSet),
    );
  }
  if (document.body) visit(document.body, top);
  return result;
}
