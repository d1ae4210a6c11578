import type { CDPSession, Page } from 'playwright-core';
import type { FontRegistry } from '../../fonts/index.js';
import type { ResourceResolver } from '../../resources/index.js';
import type { WebFontCache } from '../web-fonts/convert.js';
import type { DeadlineTimer } from './deadline.js';

export interface BrowserPoolOptions {
  /** Default: env CASTPRESS_CHROMIUM, then /usr/bin/chromium, chromium-browser, google-chrome. */
  executablePath?: string;
  /** Concurrent pages (default 2). */
  maxPages?: number;
  /** Deadline per job in ms (default 30000); passing it gives RenderError 504. */
  jobTimeoutMs?: number;
  /**
   * How a job's deadline is armed (default: `setTimeout` for `jobTimeoutMs`). When it calls back, the job
   * ends as at any deadline: 504, its document building aborted, its page closed. An application whose
   * jobs already run under its own clock or cancellation passes that here; tests end endless jobs on cue.
   */
  deadlineTimer?: DeadlineTimer;
  /** Scripts in documents; off by default. */
  javaScriptEnabled?: boolean;
  /** Remote URLs load only through this; absent = only data: URLs. */
  resolver?: ResourceResolver;
  /** Largest resource body accepted (default 10 MB). */
  maxResourceBytes?: number;
  /** Every URL a document tried to load and whether it was served (diagnostics, tests). */
  onRequest?: (url: string, verdict: 'served' | 'refused') => void;
  /**
   * Author web fonts with CFF outlines converted to TrueType (kept per content hash; see "Author fonts embed as real fonts" in
   * the README); default: a cache of the pool's own. Pools may share one.
   */
  webFonts?: WebFontCache;
  /** Fonts for form-field appearances (the engine passes its own); default: a registry of the pool's own. */
  fonts?: FontRegistry;
  /** Jobs one Chromium serves before it is replaced by a fresh one (default 500): bounds what leaks across jobs. */
  maxJobsPerBrowser?: number;
  /**
   * Resident memory of Chromium's processes (bytes, all summed; Linux only; default 3 GiB). Checked after
   * each job (past it the browser is replaced once its jobs end) and once a second while jobs run (past it
   * the browser is killed and its jobs fail with 413).
   */
  maxBrowserRssBytes?: number;
}

/** A job gets one page; `page` is dropped (not reused) when the job leaves it in an unknown state. */
export interface PageLease {
  page: Page;
  /**
   * Raw DevTools session of `page`. `page.evaluate` after each `setContent`
   * first injects Playwright's helper script into the new document (one more
   * round trip and compile, ~2 ms); `Runtime.evaluate` on this session does not.
   */
  cdp: CDPSession;
  /** Deadline (epoch ms) of the job, for nested waits. */
  deadline: number;
  /**
   * The page ran a job before (JavaScript-off pages are reused; with JavaScript on, every job gets a new
   * page). setContent keeps the Window, so what an earlier job defined in its main world may still be there.
   */
  reused: boolean;
}
