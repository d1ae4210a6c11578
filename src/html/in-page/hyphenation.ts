/**
 * `hyphens: auto` in the page: Chromium on Debian ships no hyphenation dictionaries, so it breaks
 * words only at soft hyphens. The page lists the words under `hyphens: auto` per language and
 * `hyphenate-limit-chars`; Node hyphenates them with TeX patterns and the page writes them back
 * with U+00AD, which Chromium breaks at (drawing a hyphen) and otherwise does not draw. Text that
 * castpress reads back out of the page (bookmarks, named strings) drops the soft hyphens again.
 */
import type { HyphenationGroup } from './contract.js';
import type { PageState } from './state.js';

/** A word: letters and the marks that combine with them. */
const WORD = /\p{L}[\p{L}\p{M}]*/gu;
/** Elements whose text is not laid out as prose. */
const SKIP = new Set(['SCRIPT', 'STYLE', 'TEXTAREA', 'TITLE', 'SVG', 'MATH', 'CODE', 'KBD', 'SAMP']);
/** Chromium's `auto` values of hyphenate-limit-chars. */
const AUTO = [5, 2, 2] as const;

/** hyphenate-limit-chars as [word, before, after] (CSS Text 4: an omitted third value equals the second). */
function limits(style: CSSStyleDeclaration): [number, number, number] {
  const parts = style.getPropertyValue('hyphenate-limit-chars').trim().split(/\s+/);
  const value = (s: string | undefined, fallback: number): number => {
    const n = s === undefined || s === 'auto' ? NaN : parseInt(s, 10);
    return Number.isFinite(n) && n > 0 ? n : fallback;
  };
  const before = value(parts[1], AUTO[1]);
  return [value(parts[0], AUTO[0]), before, parts.length > 2 ? value(parts[2], AUTO[2]) : before];
}

function languageOf(el: Element): string {
  const owner = el.closest('[lang]');
  return (owner ? owner.getAttribute('lang') || '' : '').trim().toLowerCase();
}

/** The words of the text under `hyphens: auto`, grouped; remembers their text nodes for `applyHyphenation`. */
export function hyphenationWords(S: PageState): HyphenationGroup[] {
  S.hyphenNodes = [];
  if (!document.body) return [];
  const groups: HyphenationGroup[] = [];
  const keys = new Map<string, number>();
  const words: Array<Set<string>> = [];
  const groupOf = new Map<Element, number>();
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n = walker.nextNode(); n; n = walker.nextNode()) {
    const text = n as Text;
    const parent = text.parentElement;
    if (!parent || !/\p{L}{2}/u.test(text.data)) continue;
    let group = groupOf.get(parent);
    if (group === undefined) {
      group = -1;
      const style = getComputedStyle(parent);
      const lang = languageOf(parent);
      if (style.hyphens === 'auto' && lang && !parent.closest([...SKIP].join(','))) {
        const [word, before, after] = limits(style);
        const key = `${lang} ${word} ${before} ${after}`;
        group = keys.get(key) ?? -1;
        if (group < 0) {
          group = groups.length;
          keys.set(key, group);
          groups.push({ lang, word, before, after, words: [] });
          words.push(new Set());
        }
      }
      groupOf.set(parent, group);
    }
    if (group < 0) continue;
    const g = groups[group];
    let found = false;
    for (const m of text.data.matchAll(WORD)) {
      if ([...m[0]].length < g.word) continue;
      words[group].add(m[0]);
      found = true;
    }
    if (found) S.hyphenNodes.push({ node: text, group });
  }
  groups.forEach((g, i) => (g.words = [...words[i]]));
  return groups.filter((g) => g.words.length > 0).length ? groups : [];
}

/** Writes the hyphenated words into the text nodes `hyphenationWords` found. */
export function applyHyphenation(S: PageState, hyphenated: Array<Record<string, string>>): void {
  for (const { node, group } of S.hyphenNodes) {
    const map = hyphenated[group];
    if (!map) continue;
    const next = node.data.replace(WORD, (w) => (Object.prototype.hasOwnProperty.call(map, w) ? map[w] : w));
    if (next !== node.data) node.data = next;
  }
  S.hyphenNodes = [];
}

/** Text read back out of the page for another use, without the soft hyphens written here. */
export const withoutSoftHyphens = (text: string): string => text.replace(/\u00ad/g, '');
