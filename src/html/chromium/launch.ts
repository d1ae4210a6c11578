import { chromium, type Browser, type BrowserContext, type CDPSession, type Page, type Request } from 'playwright-core';
import { randomUUID } from 'node:crypto';
import { RenderError } from '../../errors/index.js';
import { ProcessTree, treeRssBytes } from './processes.js';
import { findChromium } from './find.js';

/** Starting and ending one Chromium for the pool (browser-pool.ts): its switches, its context, its processes. */

/**
 * Features switched off so that nothing leaves Chromium by itself: Playwright's
 * own list (our `--disable-features` replaces its switch, so its entries are
 * repeated here) plus every speculative loader: prefetch, prerender,
 * preconnect and speculation rules never pass request interception.
 */
const DISABLED_FEATURES = [
  // Playwright's defaults (chromiumSwitches.ts).
  'AvoidUnnecessaryBeforeUnloadCheckSync',
  'DestroyProfileOnBrowserClose',
  'HttpsUpgrades',
  'HttpsFirstBalancedModeAutoEnable',
  'LensOverlay',
  'MediaRouter',
  'PaintHolding',
  'ThirdPartyStoragePartitioning',
  'AvoidCorsURLLoaderRestartOnRedirect',
  'OptimizationHints',
  'NetworkTimeServiceQuerying',
  'AimEnabled',
  'PreconnectToSearch',
  // Speculative loading.
  'Prerender2',
  'SpeculationRulesPrefetchFuture',
  'SpeculationRulesPrefetchProxy',
  'PrefetchUseContentRefactor',
  'NetworkPrediction',
  'LoadingPredictorPrefetch',
  'LoadingPredictorUseLocalPredictions',
  'PreloadingHeuristicsMLModel',
  'Prefetch',
  'SpeculationRules',
  // Background services that talk to the network.
  'Translate',
  'AutofillServerCommunication',
  'CertificateTransparencyComponentUpdater',
  'DialMediaRouteProvider',
  'InterestFeedContentSuggestions',
];

/**
 * Network isolation at the browser level (README, "No way out but the resolver"): every request that
 * request interception does not answer goes to a proxy whose host never
 * resolves (the host-resolver rule maps every name, the proxy's included, to
 * NOTFOUND), and `<-loopback>` removes Chromium's implicit loopback bypass, so
 * IP literals and loopback are proxied too. Nothing opens a socket: not
 * prefetch, preconnect, WebSocket, beacons, EventSource nor iframes. WebRTC may
 * only use proxied transports (TURN over TCP through the dead proxy), so no UDP either.
 */
const DEAD_PROXY = 'http://castpress-no-network.invalid:9';
const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
  `--proxy-server=${DEAD_PROXY}`,
  '--proxy-bypass-list=<-loopback>',
  '--host-resolver-rules=MAP * ~NOTFOUND',
  '--dns-prefetch-disable',
  '--no-pings',
  '--disable-domain-reliability',
  '--disable-client-side-phishing-detection',
  '--force-webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--webrtc-ip-handling-policy=disable_non_proxied_udp',
  '--enforce-webrtc-ip-permission-check',
  `--disable-features=${DISABLED_FEATURES.join(',')}`,
];

/**
 * Width of the default page's content box (8.5in − 2×50px); each job sets the
 * request's own (render.ts), so the screen layout matches the print's first page. Height barely matters to the page guess (only `vh`
 * and height media queries see it) but Chromium keeps painting screen frames of
 * what the viewport shows while a job runs: a 10px strip cuts ~4 ms of renderer
 * work from a one-page invoice. The print itself uses the page box, not this.
 */
export const VIEWPORT_HEIGHT = 10;
const DEFAULT_VIEWPORT = { width: 716, height: VIEWPORT_HEIGHT };

export interface Session {
  browser: Browser;
  context: BrowserContext;
  idle: Page[];
  pages: Set<Page>;
  /** One DevTools session per page, for evaluations that skip Playwright's per-document helper injection. */
  cdp: Map<Page, CDPSession>;
  /** This browser's processes in /proc (found by a command-line switch). */
  tree: ProcessTree;
  /** Jobs holding a page of this browser now, and jobs served so far. */
  active: number;
  served: number;
  /** Replaced: takes no new jobs, closes when its last job leaves. */
  retired: boolean;
  /** Killed by the memory watchdog while jobs ran: those jobs fail with 413 instead of being retried. */
  overMemory: boolean;
  /** Samples the tree's memory once a second while jobs run. */
  watchdog?: NodeJS.Timeout;
  /** When the tree's memory was last read (performance.now()); -Infinity before the first reading. */
  rssReadAt: number;
}

/** A fresh session for a launched browser: no pages yet, no jobs, not retired. */
export function newSession(browser: Browser, context: BrowserContext, marker: string): Session {
  const tree = new ProcessTree(marker);
  tree.read();
  return {
    browser,
    context,
    idle: [],
    pages: new Set(),
    cdp: new Map(),
    tree,
    active: 0,
    served: 0,
    retired: false,
    overMemory: false,
    rssReadAt: -Infinity,
  };
}

/**
 * Whether the browser's processes together hold more than `maxBytes` resident, read from /proc now.
 * A reading lists /proc and reads the tree's own processes (processes.ts); the pool still reads after
 * a job only when the last reading is older than `RSS_READ_EVERY_MS`.
 */
export function treeOverMemory(session: Session, maxBytes: number): boolean {
  session.rssReadAt = performance.now();
  return treeRssBytes(session.tree.read()) > maxBytes;
}

/** How often the memory of a browser is read at most between jobs (the watchdog reads as often while jobs run). */
export const RSS_READ_EVERY_MS = 1000;

/** The page a request was made for (none for service-worker and other frameless requests). */
export function pageOf(request: Request): Page | null {
  try {
    return request.frame().page();
  } catch {
    return null;
  }
}

/**
 * Launches Chromium with the isolating switches and opens the pool's one context (JavaScript as asked,
 * service workers blocked, print media set per page). `marker` is the switch that finds its processes.
 */
export async function launchChromium(options: {
  executablePath: string | undefined;
  javaScriptEnabled: boolean;
  deadline: number;
}): Promise<{ browser: Browser; context: BrowserContext; marker: string }> {
  const executablePath = findChromium(options.executablePath);
  const marker = `--castpress-pool=${randomUUID()}`;
  let browser: Browser;
  try {
    browser = await chromium.launch({
      executablePath,
      args: [...LAUNCH_ARGS, marker],
      // Playwright turns the popup blocker off; on, `window.open` without a user gesture opens nothing.
      ignoreDefaultArgs: ['--disable-popup-blocking'],
      headless: true,
      timeout: Math.max(1000, options.deadline - Date.now()),
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    });
  } catch (e) {
    throw new RenderError(
      `Could not start Chromium (${executablePath}): ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`,
      500,
      { cause: e },
    );
  }
  const context = await browser.newContext({
    javaScriptEnabled: options.javaScriptEnabled,
    serviceWorkers: 'block',
    viewport: DEFAULT_VIEWPORT,
    acceptDownloads: false,
    bypassCSP: false,
  });
  return { browser, context, marker };
}

/** Closes a browser, and when Playwright cannot within 5 s (a wedged browser) kills its processes. */
export async function closeChromium(browser: Browser, tree: ProcessTree): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const closed = await Promise.race([
    browser.close().then(
      () => true,
      () => true,
    ),
    new Promise<boolean>((r) => (timer = setTimeout(() => r(false), 5000))),
  ]);
  clearTimeout(timer);
  if (!closed) {
    // Playwright could not close it (wedged browser): end its processes directly.
    for (const p of tree.read()) {
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // Already gone.
      }
    }
  }
}
