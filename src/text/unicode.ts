/** Character classes the text layer needs, by code point. */

export type CjkLanguage = 'sc' | 'tc' | 'jp' | 'kr';

export function isKana(cp: number): boolean {
  return (cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f);
}

function isHangul(cp: number): boolean {
  return (
    (cp >= 0x1100 && cp <= 0x11ff) ||
    (cp >= 0x3130 && cp <= 0x318f) ||
    (cp >= 0xac00 && cp <= 0xd7af) ||
    (cp >= 0xa960 && cp <= 0xa97f) ||
    (cp >= 0xd7b0 && cp <= 0xd7ff)
  );
}

export function isHan(cp: number): boolean {
  return (
    (cp >= 0x4e00 && cp <= 0x9fff) ||
    (cp >= 0x3400 && cp <= 0x4dbf) ||
    (cp >= 0xf900 && cp <= 0xfaff) ||
    (cp >= 0x20000 && cp <= 0x3134f) ||
    (cp >= 0x2e80 && cp <= 0x2fdf) ||
    cp === 0x3005 ||
    cp === 0x3007
  );
}

/** CJK symbols and punctuation, full-width forms, and the like. */
function isCjkPunctuation(cp: number): boolean {
  return (
    (cp >= 0x3000 && cp <= 0x303f) ||
    (cp >= 0xff00 && cp <= 0xffef) ||
    (cp >= 0x30fb && cp <= 0x30fc) ||
    (cp >= 0xfe30 && cp <= 0xfe4f)
  );
}

/** Characters between which a line may break even without a space (ideographic line breaking). */
export function isCjkBreakable(cp: number): boolean {
  return isHan(cp) || isKana(cp) || (cp >= 0xac00 && cp <= 0xd7af) || isCjkPunctuation(cp);
}

function isCjk(cp: number): boolean {
  return isCjkBreakable(cp) || isHangul(cp);
}

/** Kinsoku: may not start a line. */
const NO_LINE_START = new Set(
  Array.from(
    '、。，．・：；？！ー)]}）］｝〕〉》」』】〙〗〟’”｠»ヽヾゝゞ々〻ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿ‐゠–〜～?!,.:;%',
  ).map((c) => c.codePointAt(0) as number),
);
/** Kinsoku: may not end a line. */
const NO_LINE_END = new Set(Array.from('([{（［｛〔〈《「『【〘〖〝‘“｟«').map((c) => c.codePointAt(0) as number));

export function mayStartLine(cp: number): boolean {
  return !NO_LINE_START.has(cp);
}

export function mayEndLine(cp: number): boolean {
  return !NO_LINE_END.has(cp);
}

const MARK = /\p{M}/u;
const PUNCTUATION = /\p{P}/u;

export function isPunctuation(cp: number): boolean {
  return PUNCTUATION.test(String.fromCodePoint(cp));
}
const SPACE = /\s/u;

/** Combining marks, joiners and variation selectors belong to the character before them. */
export function isClusterContinuation(cp: number): boolean {
  if (cp === 0x200c || cp === 0x200d) return true;
  if ((cp >= 0xfe00 && cp <= 0xfe0f) || (cp >= 0xe0100 && cp <= 0xe01ef)) return true;
  if (cp < 0x300) return false;
  return MARK.test(String.fromCodePoint(cp));
}

export function isWhitespace(cp: number): boolean {
  return cp === 0x20 || cp === 0x09 || (cp > 0x7f && SPACE.test(String.fromCodePoint(cp)));
}

/** Code points of a string with their UTF-16 offsets. */
export function codePoints(text: string): Array<{ cp: number; index: number }> {
  const out: Array<{ cp: number; index: number }> = [];
  for (let i = 0; i < text.length;) {
    const cp = text.codePointAt(i) as number;
    out.push({ cp, index: i });
    i += cp > 0xffff ? 2 : 1;
  }
  return out;
}

/**
 * CJK language for each code unit: kana → Japanese, hangul → Korean, and Han
 * characters take the language of the unbroken CJK sequence they sit in
 * (so 日本語のテキスト is all Japanese), else the default.
 */
export function cjkLanguages(text: string, fallback: CjkLanguage): Array<CjkLanguage | undefined> {
  const out = new Array<CjkLanguage | undefined>(text.length).fill(undefined);
  const cps = codePoints(text);
  let i = 0;
  while (i < cps.length) {
    if (!isCjk(cps[i].cp)) {
      i++;
      continue;
    }
    let j = i;
    let lang: CjkLanguage | undefined;
    while (j < cps.length && isCjk(cps[j].cp)) {
      if (!lang && isKana(cps[j].cp)) lang = 'jp';
      if (!lang && isHangul(cps[j].cp)) lang = 'kr';
      j++;
    }
    for (let k = i; k < j; k++) {
      const { cp, index } = cps[k];
      const own: CjkLanguage | undefined = isKana(cp) ? 'jp' : isHangul(cp) ? 'kr' : undefined;
      out[index] = own ?? lang ?? fallback;
    }
    i = j;
  }
  return out;
}

/**
 * Default-ignorable format characters: they steer bidi and breaking but draw nothing. Variation
 * selectors (U+FE00–FE0F, e.g. the emoji presentation selector after ❤) too: no face we use maps
 * them, and drawn they would be .notdef boxes.
 */
export const IGNORABLE =
  /[\u00ad\u061c\u180e\u200b\u200e\u200f\u202a-\u202e\u2060-\u2064\u2066-\u2069\ufe00-\ufe0f\ufeff]/;

/** The same characters, for removing them all from a string. */
export const IGNORABLES = new RegExp(IGNORABLE.source, 'g');

export function isIgnorable(cp: number): boolean {
  return cp < 0x10000 && IGNORABLE.test(String.fromCharCode(cp));
}
