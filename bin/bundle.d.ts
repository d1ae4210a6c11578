/** See bin/bundle.js: the file URL of dist/bundle/<name> when it may run, else undefined. */
export function freshBundle(name: string): string | undefined;
