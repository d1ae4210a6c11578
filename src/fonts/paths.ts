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

const DEFAULT_SYSTEM_FONT_DIRS = ['/usr/share/fonts', '/usr/local/share/fonts'];

/**
 * Where families a request names are looked for: CASTPRESS_FONT_DIRS (colon-separated) when
 * set, else the usual Linux locations. CI sets it to the same directories as its restricted
 * fontconfig (.ci/run), so a font that happens to be installed cannot make a test pass.
 * Read when a registry is created, never cached at module level.
 */
export function defaultSystemFontDirs(env: NodeJS.ProcessEnv = process.env): string[] {
  const dirs = env.CASTPRESS_FONT_DIRS?.split(':').filter((d) => d !== '');
  return dirs && dirs.length > 0 ? dirs : [...DEFAULT_SYSTEM_FONT_DIRS];
}

/**
 * Font packages named by CASTPRESS_FONT_PACKAGES (colon-separated package or node_modules
 * folders): how `castpress serve`, `fill` and `generate` get the npm catalogue source without
 * a flag. Unset: none (a project's node_modules is never read by itself, so what happens to be
 * installed cannot change output).
 */
export function envFontPackages(env: NodeJS.ProcessEnv = process.env): string[] {
  return env.CASTPRESS_FONT_PACKAGES?.split(':').filter((d) => d !== '') ?? [];
}
