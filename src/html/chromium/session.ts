import type { Page } from 'playwright-core';
import type { HostLookup, ResourceProblem } from '../../resources/index.js';
import type { WebFontCache } from '../web-fonts/convert.js';
import { createRouteHandler } from './network-guard.js';
import { launchChromium, newSession, pageOf, RSS_READ_EVERY_MS, treeOverMemory, type Session } from './launch.js';
import type { BrowserPoolOptions } from './options.js';

/** What a browser session tells its pool (browser-pool.ts), which keeps the per-page watches and the session list. */
export interface SessionHooks {
  /** A top-level navigation request of `page` (the job holding it fails). */
  onNavigation(page: Page, url: string): void;
  /** A resource of `page` that did not load. */
  onProblem(page: Page, problem: ResourceProblem): void;
  /** The watchdog read the browser's processes over the memory ceiling while jobs ran. */
  onOverMemory(session: Session): void;
  /** The browser went away (closed, crashed, killed). */
  onDisconnected(session: Session): void;
}

export interface SessionOptions {
  pool: BrowserPoolOptions;
  javaScriptEnabled: boolean;
  maxResourceBytes: number;
  maxBrowserRssBytes: number;
  lookup: HostLookup['lookup'];
  webFonts: WebFontCache;
  /** Epoch ms: the launch fails past it. */
  deadline: number;
}

/**
 * Launches one Chromium for the pool and wires it: every request through the network guard, the
 * memory watchdog, the disconnection. Kept apart from browser-pool.ts, which leases its pages.
 */
export async function startSession(options: SessionOptions, hooks: SessionHooks): Promise<Session> {
  const { browser, context, marker } = await launchChromium({
    executablePath: options.pool.executablePath,
    javaScriptEnabled: options.javaScriptEnabled,
    deadline: options.deadline,
  });
  await context.route(
    '**/*',
    createRouteHandler({
      resolver: options.pool.resolver,
      maxResourceBytes: options.maxResourceBytes,
      lookup: options.lookup,
      webFonts: options.webFonts,
      onRequest: options.pool.onRequest,
      onNavigation: hooks.onNavigation,
      onProblem: (request, problem) => {
        const page = pageOf(request);
        if (page) hooks.onProblem(page, problem);
      },
    }),
  );
  const session = newSession(browser, context, marker);
  // A single job can grow Chromium without bound (a million-node document): past the ceiling the browser is killed.
  session.watchdog = setInterval(() => {
    if (session.active === 0 || session.retired) return;
    if (treeOverMemory(session, options.maxBrowserRssBytes)) hooks.onOverMemory(session);
  }, RSS_READ_EVERY_MS);
  session.watchdog.unref();
  browser.on('disconnected', () => {
    clearInterval(session.watchdog);
    session.retired = true;
    hooks.onDisconnected(session);
  });
  return session;
}
