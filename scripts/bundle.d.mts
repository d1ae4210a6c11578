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
/** Commands with a CommonJS file of their own, dist/bundle/castpress-<command>.cjs (bin/castpress.js runs it for them). */
export const OWN_SCRIPT_COMMANDS: string[];
