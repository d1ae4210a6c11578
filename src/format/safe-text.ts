/**
 * Characters that change how text is shown or cut without being seen: C0/C1 controls (NUL cuts a
 * name in C APIs, CR/LF split headers), and the bidi and zero-width format characters (U+202E can
 * make `fdp.exe` display as `exe.pdf`; a typed signature of only such characters draws nothing
 * that reads). File names and signer input are cleaned with the same sets.
 */

/** Bidi embeddings/overrides/isolates and marks (LRM, RLM, ALM), zero-width spaces and joiners, word joiner and invisible operators, BOM. */
const INVISIBLE = /[\u061c\u200b-\u200f\u202a-\u202e\u2060-\u2069\ufeff]/g;
/** C0 and C1 controls, DEL. */
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/** `s` without bidi and zero-width format characters. */
export function withoutInvisibles(s: string): string {
  return s.replace(INVISIBLE, '');
}

/** `s` with every control character replaced by `by` (a space keeps words apart; '' removes them). */
export function replaceControls(s: string, by: string): string {
  return s.replace(CONTROL, by);
}

/** Single-line text a person typed, made safe to draw and store: invisibles removed, controls become spaces, runs of white space one space, trimmed. */
export function cleanTypedText(s: string): string {
  return replaceControls(withoutInvisibles(s.normalize('NFC')), ' ')
    .replace(/[^\S ]/g, ' ')
    .replace(/ {2,}/g, ' ')
    .trim();
}
