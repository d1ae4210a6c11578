// Types of scripts/generate-page-code.mjs for the TypeScript that imports it (test/html-page-code.test.ts).
import type { BuildOptions } from 'esbuild';

export interface PageBundle {
  entry: string;
  output: string;
  name: string;
}
export const PAGE_BUNDLES: PageBundle[];
export function pageBundleOptions(entry: string): BuildOptions;
/** The bundled source of one entry (a path from the package root). */
export function bundlePage(entry: string): Promise<string>;
export function generatedModule(bundle: PageBundle, source: string): string;
/** Output paths whose content differs from a fresh bundle; rewritten unless `check`. */
export function generatePageCode(options?: { check?: boolean }): Promise<string[]>;
