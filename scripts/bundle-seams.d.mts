// Types of scripts/bundle-seams.mjs for the TypeScript that imports it (the seams' tests).
import type { Plugin } from 'esbuild';

/** The esbuild plugin of every seam (scripts/bundle.mjs puts it in each bundle's options). */
export const seams: Plugin;
/** fontkit's source with its mark-attachment anchors decoded on first read (the source as it is if it does not read as expected). */
export function lazyMarkArrays(source: string): string;
/** fontkit's character-properties trie's values for code points 0-127 (undefined if its source does not hold the trie as expected). */
export function asciiOfPropertiesTrie(source: string): number[] | undefined;
/** pdf-lib's standard-fonts/Encoding.js with its encodings built on first read (undefined if its source does not read as expected). */
export function lazyEncodings(source: string): string | undefined;
/** pdf-lib's extraction/FontDecoder.js with its reverse WinAnsi table built on first use (undefined if its source does not read as expected). */
export function lazyWinAnsiReverse(source: string): string | undefined;
/** Code points 0-127 of a serialised UnicodeTrie. */
export function asciiOfTrie(bytes: Uint8Array): number[];
/** restructure's src/Number.js with each number type's stream method names built once (undefined if its source does not read as expected). */
export function numberMethodNames(source: string): string | undefined;
