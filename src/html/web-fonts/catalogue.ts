import { catalogueFaces, type CatalogueFace, type FontWeight } from '../../fonts/index.js';

/**
 * The offline font catalogue (src/fonts offline-catalogue.ts) in HTML mode: a document whose text or
 * CSS names a catalogue family gets `@font-face` rules for it whose sources are this origin; the route
 * handler answers them from the exact Debian files, never the network. Chromium thus draws `Roboto
 * Slab` with the same file as fill and Markdown, without the family being visible to fontconfig (CI's
 * fontconfig does not list these packages, so generic families and per-character fallback are
 * unchanged). An author's own `@font-face` for the name comes later in the cascade and wins.
 */
const CATALOGUE_FONT_ORIGIN = 'https://catalogue-fonts.castpress.invalid/';

const FACES = catalogueFaces();
const BY_URL = new Map(FACES.map((face) => [`${CATALOGUE_FONT_ORIGIN}${face.postscriptName}`, face]));

const DESCRIPTORS: Record<FontWeight, string> = {
  normal: 'font-weight: 100 500; font-style: normal',
  bold: 'font-weight: 600 900; font-style: normal',
  italic: 'font-weight: 100 500; font-style: italic',
  boldItalic: 'font-weight: 600 900; font-style: italic',
};

/** The catalogue face a request URL stands for, or undefined. */
export function catalogueFontAt(url: string): CatalogueFace | undefined {
  return BY_URL.get(url);
}

/** Each family's name as a whole word, any case (CSS matches family names case-insensitively). */
const NAMED = new Map(
  [...new Set(FACES.map((face) => face.family))].map((family) => [
    family,
    new RegExp(`(?<![\\w-])${family.replace(/ /g, '\\s+')}(?![\\w-])`, 'i'),
  ]),
);

/** `@font-face` rules for the catalogue families `text` names. */
export function catalogueFontCss(text: string): string {
  const named = new Set([...NAMED].filter(([, pattern]) => pattern.test(text)).map(([family]) => family));
  return FACES.filter((face) => named.has(face.family))
    .map(
      (face) =>
        `@font-face { font-family: '${face.family}'; src: url('${CATALOGUE_FONT_ORIGIN}${face.postscriptName}'); ${DESCRIPTORS[face.weight]}; }`,
    )
    .join('\n');
}
