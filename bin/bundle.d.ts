/** See bin/bundle.js: the file URL of dist/bundle/<name> when it may run, else undefined. */
export function freshBundle(name: string): string | undefined;
/** Commands with a CommonJS file of their own, dist/bundle/castpress-<command>.cjs (see bin/bundle.js). */
export const OWN_SCRIPT_COMMANDS: string[];
