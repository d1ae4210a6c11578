import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';

/**
 * pdf-lib's crypto module (es/core/crypto.js), which its package does not export: imported by
 * file URL from the installed package, the same module instance pdf-lib itself uses, so names
 * and objects are the same classes. The esbuild bundles (scripts/bundle.mjs) replace this file
 * with a plain import of that file, so a bundle uses the one copy of pdf-lib it carries.
 */
export async function importPdfLibCrypto(): Promise<Record<string, unknown>> {
  const main = createRequire(import.meta.url).resolve('@cantoo/pdf-lib');
  const file = main.replace(/[\\/]cjs[\\/]index\.js$/, '/es/core/crypto.js');
  return (await import(pathToFileURL(file).href)) as Record<string, unknown>;
}
