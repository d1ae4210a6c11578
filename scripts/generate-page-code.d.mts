// Types of scripts/generate-page-code.mjs for the TypeScript that imports it (test/html-page-code.test.ts).
/** The bundled source of one entry (a path from the package root). */
export function bundlePage(entry: string): Promise<string>;
/** Output paths whose content differs from a fresh bundle; rewritten unless `check`. */
export function generatePageCode(options?: { check?: boolean }): Promise<string[]>;
