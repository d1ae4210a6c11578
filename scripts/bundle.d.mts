// Types of scripts/bundle.mjs for the TypeScript that imports it (the crash test).
import type { BuildOptions } from 'esbuild';

export const root: string;
export const BUNDLE_DIR: string;
/** dist/bundle-inputs.json: `{ "<bundle file>": { "<input path>": bytes in that file } }`, written with the bundle. */
export const BUNDLE_INPUTS: string;
export const EXTERNAL: string[];
export function bundleOptions(entryPoints: Record<string, string> | string[], outdir: string): BuildOptions;
/** False when the bundles were fresh and `force` was not given. */
export function buildBundles(force?: boolean, options?: { sourcemap?: boolean }): Promise<boolean>;
/** One CommonJS file of `entry`, run with V8's code cache by test/helpers/code-cache-loader.cjs (the crash test's child). */
export function cjsBundleOptions(entry: string, outfile: string): BuildOptions;
/** `source` with every character outside ASCII written as a \u escape (the same character to JavaScript). */
export function asciiOnly(source: string): string;
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
/** Commands with a CommonJS file of their own, dist/bundle/castpress-<command>.cjs (bin/castpress.js runs it for them). */
export const OWN_SCRIPT_COMMANDS: string[];
