import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { ValidationError } from '../errors/index.js';
import type { FontRegistryOptions } from '../fonts/index.js';

/**
 * Font sources beyond the system's, for fill, generate and serve: the engine options `fonts.directories`
 * and `fonts.packages` (and CASTPRESS_FONT_PACKAGES) from the command line. Families are found by their
 * exact name, as with every catalogue font.
 */
export const FONT_FLAGS = {
  'font-dir': { type: 'string', multiple: true },
  'font-package': { type: 'string', multiple: true },
} as const;

export interface FontFlagValues {
  'font-dir'?: string[];
  'font-package'?: string[];
}

/** The registry options the flags give (folders checked first: a typo is a 400 on the flag, not a missing font later). */
export function fontOptions(values: FontFlagValues): FontRegistryOptions | undefined {
  const folders = (flag: '--font-dir' | '--font-package', list: string[] | undefined): string[] =>
    (list ?? []).map((dir) => {
      if (!existsSync(dir) || !statSync(dir).isDirectory())
        throw ValidationError.of(flag, `${flag} ${dir}: no such folder`);
      return path.resolve(dir);
    });
  const directories = folders('--font-dir', values['font-dir']);
  const packages = folders('--font-package', values['font-package']);
  if (directories.length === 0 && packages.length === 0) return undefined;
  return { ...(directories.length ? { directories } : {}), ...(packages.length ? { packages } : {}) };
}
