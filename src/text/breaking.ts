import {
  codePoints,
  isCjkBreakable,
  isClusterContinuation,
  isWhitespace,
  mayEndLine,
  mayStartLine,
} from './unicode.js';

const LETTER = /\p{L}/u;
const isLetter = (cp: number): boolean =>
  cp < 0x80 ? (cp | 0x20) >= 0x61 && (cp | 0x20) <= 0x7a : LETTER.test(String.fromCodePoint(cp));

const isDigit = (cp: number): boolean => cp >= 0x30 && cp <= 0x39;

/** Thai, Lao, Myanmar and Khmer write words without spaces between them. */
const UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]+/g;
const HAS_UNSPACED = /[\u0e00-\u0eff\u1000-\u109f\u1780-\u17ff]/;
/** ICU's word segmenter, created on first use: creating it loads its dictionaries (a third of a second of a cold start), which most text never needs. */
let words: Intl.Segmenter | undefined;

/**
 * ICU's dictionary segmentation takes time growing faster than the length of one unbroken run
 * (80,000 Thai letters without a space took 10 s, synchronously): a longer run is segmented a window
 * at a time. A window's last few word starts are dropped and the next window starts at the one
 * before them, so words near a cut are split with the text that follows them; a window with no word
 * start inside is cut where it ends, without a break. Runs up to WINDOW long are segmented whole.
 */
const WINDOW = 1000;
/** Word starts dropped before a window's cut, and found again by the next window (5 were enough for real Thai text). */
const UNSURE_WORDS = 8;

/** Word starts inside runs of unspaced scripts, from ICU's dictionary-based word segmentation. */
function dictionaryBreaks(text: string): Set<number> {
  const out = new Set<number>();
  for (const run of text.matchAll(UNSPACED)) {
    const letters = run[0];
    // The scripts matched are all in the BMP: a window never splits a surrogate pair.
    for (let from = 0; from < letters.length;) {
      const end = Math.min(letters.length, from + WINDOW);
      const starts: number[] = [];
      for (const w of (words ??= new Intl.Segmenter('th', { granularity: 'word' })).segment(letters.slice(from, end)))
        if (w.index > 0) starts.push(from + w.index);
      // The last few words before a cut may be split differently than with the text that follows.
      let kept =
        end === letters.length || starts.length === 0 ? starts.length : Math.max(1, starts.length - UNSURE_WORDS);
      // Resuming inside the window's first half would crawl (a window with few word starts, all early):
      // keep them all and cut at the window's end, so every window moves on by at least half its length.
      if (kept < starts.length && starts[kept - 1]! - from < WINDOW / 2) kept = starts.length;
      for (let i = 0; i < kept; i++) out.add(run.index + starts[i]!);
      if (end === letters.length) break;
      from = kept > 0 && kept < starts.length ? starts[kept - 1]! : end;
    }
  }
  return out;
}

/**
 * UTF-16 offsets where a line may break (the break goes before that offset):
 * after a run of spaces, between ideographic characters unless kinsoku forbids
 * it (no line starts with 。、」… and none ends with 「（…), after a hyphen
 * inside a word, and between words of Thai, Lao, Myanmar and Khmer.
 */
export function breakOpportunities(text: string): number[] {
  const cps = codePoints(text);
  const out: number[] = [];
  const dictionary = HAS_UNSPACED.test(text) ? dictionaryBreaks(text) : undefined;
  for (let k = 1; k < cps.length; k++) {
    const prev = cps[k - 1].cp;
    const next = cps[k].cp;
    if (isClusterContinuation(next) || isWhitespace(next)) continue;
    if (isWhitespace(prev) || prev === 0x200b) {
      out.push(cps[k].index);
      continue;
    }
    if ((isCjkBreakable(prev) || isCjkBreakable(next)) && mayEndLine(prev) && mayStartLine(next)) {
      out.push(cps[k].index);
      continue;
    }
    if (dictionary?.has(cps[k].index)) {
      out.push(cps[k].index);
      continue;
    }
    // UAX #14: a break may follow a hyphen (LB21 keeps it off the hyphen's front), not before a digit (LB25: `-5`),
    // and not after a word-initial hyphen (LB20.1: ` -x`). So `F016-Zoe` may break as `F016-` / `Zoe`.
    if (
      (prev === 0x2d || prev === 0x2010) &&
      k >= 2 &&
      !isWhitespace(cps[k - 2].cp) &&
      !isDigit(next) &&
      (isLetter(next) || next >= 0x80 || next === 0x28 || next === 0x5b)
    )
      out.push(cps[k].index);
  }
  return out;
}

/** Grapheme-ish clusters (a character plus its combining marks), as [start, end) offsets. */
export function clusters(text: string, start: number, end: number): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let i = start;
  while (i < end) {
    let j = i + ((text.codePointAt(i) as number) > 0xffff ? 2 : 1);
    while (j < end) {
      const cp = text.codePointAt(j) as number;
      if (!isClusterContinuation(cp)) break;
      j += cp > 0xffff ? 2 : 1;
    }
    out.push([i, j]);
    i = j;
  }
  return out;
}

/** Offset after `end` minus trailing whitespace. */
export function trimEnd(text: string, start: number, end: number): number {
  let e = end;
  while (e > start) {
    const cu = text.charCodeAt(e - 1);
    if (cu >= 0xdc00 && cu <= 0xdfff) break;
    if (!isWhitespace(cu)) break;
    e--;
  }
  return e;
}
