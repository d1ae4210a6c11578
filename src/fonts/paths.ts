import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The bundled fonts/ directory. Resolved from this module's own location so it
 * works from src/ (tsx, vitest) and from dist/ after a build, whatever the cwd.
 */
export function bundledFontsDir(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 5; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'fonts'))) return join(dir, 'fonts');
    dir = dirname(dir);
  }
  throw new Error('castpress: bundled fonts/ directory not found next to package.json');
}

export const DEFAULT_SYSTEM_FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts'];

/** Debian locations (fonts-noto-core, fonts-noto-cjk, fonts-liberation[2]). */
export const NOTO_CORE_DIR = '/usr/share/fonts/truetype/noto';
export const NOTO_CJK_DIR = '/usr/share/fonts/opentype/noto';
export const LIBERATION_DIRS = ['/usr/share/fonts/truetype/liberation2', '/usr/share/fonts/truetype/liberation'];

export function firstExisting(candidates: string[]): string | undefined {
  return candidates.find((p) => existsSync(p));
}
