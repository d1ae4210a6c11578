import type http from 'node:http';
import type { Browser } from 'playwright-core';

/**
 * Stops a test's HTTP server without waiting for clients' keep-alive connections (a browser
 * keeps them open, and `server.close()` alone waits for them); resolves at once for a server
 * that was never made (a failed beforeAll).
 */
export function closeServer(server: http.Server | undefined): Promise<void> {
  if (!server) return Promise.resolve();
  return new Promise((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  });
}

/** Closes a browser, waiting at most 10 s (a hook must not hang; the test process's exit ends it anyway). */
export async function closeBrowser(browser: Browser | undefined): Promise<void> {
  if (!browser) return;
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<void>((r) => (timer = setTimeout(r, 10_000)));
  await Promise.race([browser.close().catch(() => undefined), late]);
  clearTimeout(timer);
}
