/**
 * Which fonts-noto-core family draws a code point that neither the chosen face,
 * Noto Sans nor Noto Sans CJK has. Looking the script up by Unicode block, instead
 * of asking ~150 script fonts in turn, keeps a miss to one parse of one file.
 * Blocks are from the Unicode character database (Blocks.txt); the font is the
 * file's base name in /usr/share/fonts/truetype/noto (Debian fonts-noto-core).
 */
const BLOCKS: ReadonlyArray<readonly [start: number, end: number, font: string]> = [
  [0x0530, 0x058f, 'NotoSansArmenian'],
  [0x0590, 0x05ff, 'NotoSansHebrew'],
  [0x0600, 0x06ff, 'NotoSansArabic'],
  [0x0700, 0x074f, 'NotoSansSyriac'],
  [0x0750, 0x077f, 'NotoSansArabic'],
  [0x0780, 0x07bf, 'NotoSansThaana'],
  [0x07c0, 0x07ff, 'NotoSansNKo'],
  [0x0800, 0x083f, 'NotoSansSamaritan'],
  [0x0840, 0x085f, 'NotoSansMandaic'],
  [0x0860, 0x086f, 'NotoSansSyriac'],
  [0x0870, 0x08ff, 'NotoSansArabic'],
  [0x0900, 0x097f, 'NotoSansDevanagari'],
  [0x0980, 0x09ff, 'NotoSansBengali'],
  [0x0a00, 0x0a7f, 'NotoSansGurmukhi'],
  [0x0a80, 0x0aff, 'NotoSansGujarati'],
  [0x0b00, 0x0b7f, 'NotoSansOriya'],
  [0x0b80, 0x0bff, 'NotoSansTamil'],
  [0x0c00, 0x0c7f, 'NotoSansTelugu'],
  [0x0c80, 0x0cff, 'NotoSansKannada'],
  [0x0d00, 0x0d7f, 'NotoSansMalayalam'],
  [0x0d80, 0x0dff, 'NotoSansSinhala'],
  [0x0e00, 0x0e7f, 'NotoSansThai'],
  [0x0e80, 0x0eff, 'NotoSansLao'],
  [0x0f00, 0x0fff, 'NotoSerifTibetan'],
  [0x1000, 0x109f, 'NotoSansMyanmar'],
  [0x10a0, 0x10ff, 'NotoSansGeorgian'],
  [0x1200, 0x139f, 'NotoSansEthiopic'],
  [0x13a0, 0x13ff, 'NotoSansCherokee'],
  [0x1400, 0x167f, 'NotoSansCanadianAboriginal'],
  [0x1680, 0x169f, 'NotoSansOgham'],
  [0x16a0, 0x16ff, 'NotoSansRunic'],
  [0x1700, 0x171f, 'NotoSansTagalog'],
  [0x1720, 0x173f, 'NotoSansHanunoo'],
  [0x1740, 0x175f, 'NotoSansBuhid'],
  [0x1760, 0x177f, 'NotoSansTagbanwa'],
  [0x1780, 0x17ff, 'NotoSansKhmer'],
  [0x1800, 0x18af, 'NotoSansMongolian'],
  [0x18b0, 0x18ff, 'NotoSansCanadianAboriginal'],
  [0x1900, 0x194f, 'NotoSansLimbu'],
  [0x1950, 0x197f, 'NotoSansTaiLe'],
  [0x1980, 0x19df, 'NotoSansNewTaiLue'],
  [0x19e0, 0x19ff, 'NotoSansKhmer'],
  [0x1a00, 0x1a1f, 'NotoSansBuginese'],
  [0x1a20, 0x1aaf, 'NotoSansTaiTham'],
  [0x1b00, 0x1b7f, 'NotoSansBalinese'],
  [0x1b80, 0x1bbf, 'NotoSansSundanese'],
  [0x1bc0, 0x1bff, 'NotoSansBatak'],
  [0x1c00, 0x1c4f, 'NotoSansLepcha'],
  [0x1c50, 0x1c7f, 'NotoSansOlChiki'],
  [0x1c90, 0x1cbf, 'NotoSansGeorgian'],
  [0x1cc0, 0x1ccf, 'NotoSansSundanese'],
  [0x2200, 0x22ff, 'NotoSansMath'],
  [0x27c0, 0x27ef, 'NotoSansMath'],
  [0x2980, 0x2aff, 'NotoSansMath'],
  [0x2c00, 0x2c5f, 'NotoSansGlagolitic'],
  [0x2c80, 0x2cff, 'NotoSansCoptic'],
  [0x2d00, 0x2d2f, 'NotoSansGeorgian'],
  [0x2d30, 0x2d7f, 'NotoSansTifinagh'],
  [0x2d80, 0x2ddf, 'NotoSansEthiopic'],
  [0xa000, 0xa4cf, 'NotoSansYi'],
  [0xa4d0, 0xa4ff, 'NotoSansLisu'],
  [0xa500, 0xa63f, 'NotoSansVai'],
  [0xa6a0, 0xa6ff, 'NotoSansBamum'],
  [0xa800, 0xa82f, 'NotoSansSylotiNagri'],
  [0xa840, 0xa87f, 'NotoSansPhagsPa'],
  [0xa880, 0xa8df, 'NotoSansSaurashtra'],
  [0xa8e0, 0xa8ff, 'NotoSansDevanagari'],
  [0xa900, 0xa92f, 'NotoSansKayahLi'],
  [0xa930, 0xa95f, 'NotoSansRejang'],
  [0xa980, 0xa9df, 'NotoSansJavanese'],
  [0xa9e0, 0xa9ff, 'NotoSansMyanmar'],
  [0xaa00, 0xaa5f, 'NotoSansCham'],
  [0xaa60, 0xaa7f, 'NotoSansMyanmar'],
  [0xaa80, 0xaadf, 'NotoSansTaiViet'],
  [0xaae0, 0xaaff, 'NotoSansMeeteiMayek'],
  [0xab00, 0xab2f, 'NotoSansEthiopic'],
  [0xab70, 0xabbf, 'NotoSansCherokee'],
  [0xabc0, 0xabff, 'NotoSansMeeteiMayek'],
  [0xfb13, 0xfb17, 'NotoSansArmenian'],
  [0xfb1d, 0xfb4f, 'NotoSansHebrew'],
  [0xfb50, 0xfdff, 'NotoSansArabic'],
  [0xfe70, 0xfeff, 'NotoSansArabic'],
  [0x1d400, 0x1d7ff, 'NotoSansMath'],
];

/** Tried in order for code points no block above claims (symbols, arrows, dingbats, music). */
export const GENERAL_FALLBACKS: readonly string[] = ['NotoSansMath', 'NotoSansSymbols', 'NotoSansSymbols2', 'NotoMusic'];

/**
 * Tried after them: emoji in outlines (Debian's fonts-symbola; "free for any use"). Debian's Noto
 * emoji font is colour bitmaps (CBDT), which cannot be embedded as PDF glyph outlines.
 */
export const EMOJI_FALLBACK_FILE = 'truetype/ancient-scripts/Symbola_hint.ttf';

/** Every script font the table names (each must be installed: engine-faces.ts). */
export function scriptFontNames(): string[] {
  return [...new Set(BLOCKS.map(([, , font]) => font))];
}

/** Each script font with the Unicode blocks it draws (HTML mode's default stack names them through @font-face). */
export function scriptBlocks(): Map<string, Array<readonly [number, number]>> {
  const out = new Map<string, Array<readonly [number, number]>>();
  for (const [start, end, font] of BLOCKS) {
    const list = out.get(font) ?? [];
    list.push([start, end]);
    out.set(font, list);
  }
  return out;
}

/** The script font for `cp`, or undefined outside the blocks above. */
export function scriptFontFor(cp: number): string | undefined {
  let lo = 0;
  let hi = BLOCKS.length - 1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const [start, end, font] = BLOCKS[mid]!;
    if (cp < start) hi = mid - 1;
    else if (cp > end) lo = mid + 1;
    else return font;
  }
  return undefined;
}

/** For tests: the table is sorted and its ranges do not overlap. */
export function blocksAreOrdered(): boolean {
  return BLOCKS.every(([start, end], i) => start <= end && (i === 0 || BLOCKS[i - 1]![1] < start));
}
