/**
 * Hyphenation for `hyphens: auto` (the page side is in-page/hyphenation.ts): Liang's algorithm with
 * the TeX hyphenation patterns, through the `hyphen` package. A language is looked up in a fixed
 * table (a document's `lang` never names a module to load); one without patterns is not hyphenated,
 * as in Chromium. `hyphenate-limit-chars` applies: the shortest word, and the fewest characters
 * before and after a break.
 */
import { createRequire } from 'node:module';
import type { HyphenationGroup } from './in-page/contract.js';

/** Language tag (lower case) → the `hyphen` package's pattern module. Primary subtags stand for their language. */
const PATTERNS: ReadonlyMap<string, string> = new Map(
  Object.entries({
    en: 'en-us',
    'en-us': 'en-us',
    'en-gb': 'en-gb',
    'en-au': 'en-gb',
    'en-nz': 'en-gb',
    'en-ie': 'en-gb',
    'en-in': 'en-gb',
    de: 'de-1996',
    'de-ch': 'de-ch-1901',
    fr: 'fr',
    es: 'es',
    pt: 'pt',
    it: 'it',
    nl: 'nl',
    da: 'da',
    sv: 'sv',
    nb: 'nb',
    no: 'nb',
    nn: 'nn',
    fi: 'fi',
    is: 'is',
    pl: 'pl',
    cs: 'cs',
    sk: 'sk',
    sl: 'sl',
    hr: 'hr',
    hu: 'hu',
    ro: 'ro',
    ca: 'ca',
    gl: 'gl',
    eu: 'eu',
    et: 'et',
    lt: 'lt',
    lv: 'lv',
    ru: 'ru',
    uk: 'uk',
    bg: 'bg',
    el: 'el-monoton',
    tr: 'tr',
    la: 'la',
    cy: 'cy',
    ga: 'ga',
  }),
);

/** Longest word handed to the patterns (longer runs of letters are not prose) and most words per document. */
const MAX_WORD = 64;
const MAX_WORDS = 200_000;
const SOFT_HYPHEN = '\u00ad';

type Hyphenator = (word: string, options: { hyphenChar: string; minWordLength: number }) => string;
const require = createRequire(import.meta.url);
const loaded = new Map<string, Hyphenator>();

/** The pattern module for a language tag, or undefined (no patterns: not hyphenated). */
export function patternsFor(lang: string): string | undefined {
  const tag = lang.toLowerCase();
  return PATTERNS.get(tag) ?? PATTERNS.get(tag.split('-')[0] ?? '');
}

function hyphenator(module: string): Hyphenator {
  let h = loaded.get(module);
  if (!h) {
    h = (require(`hyphen/${module}`) as { hyphenateSync: Hyphenator }).hyphenateSync;
    loaded.set(module, h);
  }
  return h;
}

/** Keeps only the breaks with at least `before` characters before and `after` after them. */
function withinLimits(hyphenated: string, before: number, after: number): string {
  const parts = hyphenated.split(SOFT_HYPHEN);
  if (parts.length === 1) return hyphenated;
  const total = [...parts.join('')].length;
  let out = parts[0]!;
  let seen = [...out].length;
  for (const part of parts.slice(1)) {
    if (seen >= before && total - seen >= after) out += SOFT_HYPHEN;
    out += part;
    seen += [...part].length;
  }
  return out;
}

/** Each group's words with soft hyphens at their breaks (only the words that have one). */
export function hyphenateGroups(groups: readonly HyphenationGroup[]): Array<Record<string, string>> {
  let budget = MAX_WORDS;
  return groups.map((g) => {
    const out: Record<string, string> = {};
    const module = patternsFor(g.lang);
    if (!module) return out;
    const hyphenate = hyphenator(module);
    for (const word of g.words) {
      if (budget-- <= 0) break;
      if (word.length > MAX_WORD) continue;
      const h = withinLimits(hyphenate(word, { hyphenChar: SOFT_HYPHEN, minWordLength: g.word }), g.before, g.after);
      if (h !== word) out[word] = h;
    }
    return out;
  });
}
