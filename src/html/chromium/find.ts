import { accessSync, constants } from 'node:fs';
import { RenderError } from '../../errors/index.js';

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * Explicit option, then CASTPRESS_CHROMIUM, then the usual Debian/Ubuntu/Chrome paths.
 * An explicit path that does not exist is an error rather than a silent fallback,
 * so a misconfigured deployment is noticed.
 */
export function findChromium(explicit?: string, env: NodeJS.ProcessEnv = process.env): string {
  const configured = explicit ?? env.CASTPRESS_CHROMIUM;
  if (configured) {
    if (isExecutable(configured)) return configured;
    throw new RenderError(
      `Chromium not found at ${configured} (from ${explicit ? 'executablePath' : 'CASTPRESS_CHROMIUM'}); install it with \`apt-get install -y chromium\` or fix the path`,
      500,
    );
  }
  for (const candidate of CANDIDATES) if (isExecutable(candidate)) return candidate;
  throw new RenderError(
    `Chromium not found (looked in ${CANDIDATES.join(', ')}); install it with \`apt-get install -y chromium\` or set CASTPRESS_CHROMIUM`,
    500,
  );
}
