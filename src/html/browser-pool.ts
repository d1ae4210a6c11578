import { chromium, type Browser, type BrowserContext, type CDPSession, type Page } from 'playwright-core';
import { RenderError, isCastpressError } from '../errors/index.js';
import { FontRegistry } from '../fonts/index.js';
import type { ResourceResolver } from '../resources/index.js';
import { findChromium } from './find-chromium.js';
import { createRouteHandler } from './network-guard.js';

export interface BrowserPoolOptions {
  /** Default: env CASTPRESS_CHROMIUM, then /usr/bin/chromium, chromium-browser, google-chrome. */
  executablePath?: string;
  /** Concurrent pages (default 2). */
  maxPages?: number;
  /** Deadline per job in ms (default 30000); passing it gives RenderError 504. */
  jobTimeoutMs?: number;
  /** Scripts in documents; off by default. */
  javaScriptEnabled?: boolean;
  /** Remote URLs load only through this; absent = only data: URLs. */
  resolver?: ResourceResolver;
  /** Largest resource body accepted (default 10 MB). */
  maxResourceBytes?: number;
  /** Every URL a document tried to load and whether it was served (diagnostics, tests). */
  onRequest?: (url: string, verdict: 'served' | 'refused') => void;
  /** Fonts for form-field appearances (the engine passes its own); default: a registry of the pool's own. */
  fonts?: FontRegistry;
}

const LAUNCH_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-dev-shm-usage',
];

/**
 * Width of the default page's content box (8.5in − 2×50px): screen layout then
 * matches print closely. Height barely matters to the page guess (only `vh`
 * and height media queries see it) but Chromium keeps painting screen frames of
 * what the viewport shows while a job runs: a 10px strip cuts ~4 ms of renderer
 * work from a one-page invoice. The print itself uses the page box, not this.
 */
const DEFAULT_VIEWPORT = { width: 716, height: 10 };

interface Session {
  browser: Browser;
  context: BrowserContext;
  idle: Page[];
  pages: Set<Page>;
  /** One DevTools session per page, for evaluations that skip Playwright's per-document helper injection. */
  cdp: Map<Page, CDPSession>;
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
}

class CrashError extends Error {}

function isBrowserGone(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return e instanceof CrashError || /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected|Target crashed|Page crashed|Navigation failed because page crashed|Session closed/i.test(msg);
}

/**
 * One Chromium per engine, launched on the first job, with up to `maxPages`
 * pages that are reused across jobs (creating a page costs ~180 ms, reusing
 * one costs nothing). Chromium dying is survived: the next job relaunches it,
 * and a job that was running when it died is retried once.
 */
export class BrowserPool {
  readonly executablePath: string | undefined;
  readonly maxPages: number;
  readonly jobTimeoutMs: number;
  readonly maxResourceBytes: number;
  readonly resolver: ResourceResolver | undefined;
  #fonts: FontRegistry | undefined;
  private readonly options: BrowserPoolOptions;
  private session?: Promise<Session>;
  private busy = 0;
  private readonly waiters: Array<{ grant: () => void; cancelled: boolean }> = [];
  private closed = false;

  constructor(options: BrowserPoolOptions = {}) {
    this.options = options;
    this.executablePath = options.executablePath;
    this.maxPages = Math.max(1, Math.floor(options.maxPages ?? 2));
    this.jobTimeoutMs = options.jobTimeoutMs ?? 30_000;
    this.maxResourceBytes = options.maxResourceBytes ?? 10 * 1024 * 1024;
    this.resolver = options.resolver;
    this.#fonts = options.fonts;
  }

  /** The registry form-field appearances are drawn with (created on first use when none was given). */
  get fonts(): FontRegistry {
    return (this.#fonts ??= new FontRegistry());
  }

  /** Runs `job` on a pooled page under the pool's deadline; retries once if Chromium died under it. */
  async run<T>(job: (lease: PageLease) => Promise<T>): Promise<T> {
    if (this.closed) throw new RenderError('The browser pool is closed', 503);
    const deadline = Date.now() + this.jobTimeoutMs;
    let timer: NodeJS.Timeout | undefined;
    const expired = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RenderError(`HTML rendering took longer than ${this.jobTimeoutMs} ms`, 504)), this.jobTimeoutMs);
    });
    const waiter = { grant: () => undefined, cancelled: false } as { grant: () => void; cancelled: boolean };
    try {
      await Promise.race([this.slot(waiter), expired]);
    } catch (e) {
      clearTimeout(timer);
      waiter.cancelled = true;
      throw e;
    }
    try {
      for (let attempt = 0; ; attempt++) {
        const lease = await Promise.race([this.lease(deadline), expired]);
        let reusable = false;
        const work = (async () => {
          const result = await job(lease);
          reusable = true;
          return result;
        })();
        try {
          return await Promise.race([work, expired]);
        } catch (e) {
          work.catch(() => undefined);
          if (attempt === 0 && isBrowserGone(e) && !this.closed) {
            await this.forget(lease.page);
            continue;
          }
          if (isCastpressError(e)) throw e;
          if (e instanceof Error && e.name === 'TimeoutError') throw new RenderError(`HTML rendering took longer than ${this.jobTimeoutMs} ms`, 504, { cause: e });
          if (isBrowserGone(e)) throw new RenderError('Chromium crashed while rendering', 500, { cause: e });
          throw new RenderError(`HTML rendering failed: ${e instanceof Error ? e.message : String(e)}`, 500, { cause: e });
        } finally {
          if (reusable) this.giveBack(lease.page);
          else if (!lease.page.isClosed()) void this.forget(lease.page);
        }
      }
    } finally {
      clearTimeout(timer);
      this.release();
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    const session = this.session;
    this.session = undefined;
    if (!session) return;
    try {
      const s = await session;
      await s.browser.close();
    } catch {
      // Launch failed or the browser is already gone: nothing to close.
    }
  }

  private async slot(waiter: { grant: () => void; cancelled: boolean }): Promise<void> {
    if (this.busy < this.maxPages) {
      this.busy++;
      return;
    }
    await new Promise<void>((resolve) => {
      waiter.grant = resolve;
      this.waiters.push(waiter);
    });
  }

  /** Hands the slot to the next live waiter (one that has not timed out), or frees it. */
  private release(): void {
    for (;;) {
      const next = this.waiters.shift();
      if (!next) {
        this.busy--;
        return;
      }
      if (!next.cancelled) {
        next.grant();
        return;
      }
    }
  }

  private async lease(deadline: number): Promise<PageLease> {
    let session = await this.ensureSession(deadline);
    if (!session.browser.isConnected()) {
      this.session = undefined;
      session = await this.ensureSession(deadline);
    }
    const page = session.idle.pop() ?? (await this.newPage(session));
    const cdp = session.cdp.get(page);
    if (!cdp) throw new CrashError('Page without a DevTools session');
    return { page, cdp, deadline };
  }

  private giveBack(page: Page): void {
    void this.session?.then((s) => {
      if (s.pages.has(page) && !page.isClosed()) s.idle.push(page);
    }, () => undefined);
  }

  private async forget(page: Page): Promise<void> {
    const s = await this.session?.catch(() => undefined);
    s?.pages.delete(page);
    if (s) s.idle = s.idle.filter((p) => p !== page);
    const cdp = s?.cdp.get(page);
    s?.cdp.delete(page);
    await cdp?.detach().catch(() => undefined);
    await page.close().catch(() => undefined);
  }

  private ensureSession(deadline: number): Promise<Session> {
    if (!this.session) {
      const launching = this.launch(deadline);
      this.session = launching;
      launching.catch(() => {
        if (this.session === launching) this.session = undefined;
      });
    }
    return this.session;
  }

  private async launch(deadline: number): Promise<Session> {
    const executablePath = findChromium(this.options.executablePath);
    let browser: Browser;
    try {
      browser = await chromium.launch({
        executablePath,
        args: LAUNCH_ARGS,
        headless: true,
        timeout: Math.max(1000, deadline - Date.now()),
        handleSIGINT: false,
        handleSIGTERM: false,
        handleSIGHUP: false,
      });
    } catch (e) {
      throw new RenderError(`Could not start Chromium (${executablePath}): ${e instanceof Error ? e.message.split('\n')[0] : String(e)}`, 500, { cause: e });
    }
    const context = await browser.newContext({
      javaScriptEnabled: this.options.javaScriptEnabled ?? false,
      serviceWorkers: 'block',
      viewport: DEFAULT_VIEWPORT,
      acceptDownloads: false,
      bypassCSP: false,
    });
    await context.route(
      '**/*',
      createRouteHandler({ resolver: this.options.resolver, maxResourceBytes: this.maxResourceBytes, onRequest: this.options.onRequest }),
    );
    const session: Session = { browser, context, idle: [], pages: new Set(), cdp: new Map() };
    browser.on('disconnected', () => {
      if (this.session && !this.closed) {
        void this.session.then((s) => {
          if (s === session) this.session = undefined;
        }, () => undefined);
      }
    });
    if (this.closed) {
      await browser.close().catch(() => undefined);
      throw new RenderError('The browser pool is closed', 503);
    }
    return session;
  }

  private async newPage(session: Session): Promise<Page> {
    const page = await session.context.newPage();
    // Screen layout under print media approximates the printed layout; used to guess page numbers.
    await page.emulateMedia({ media: 'print' });
    page.on('crash', () => void this.forget(page));
    session.cdp.set(page, await session.context.newCDPSession(page));
    session.pages.add(page);
    return page;
  }

  /** Test hook: makes the running Chromium crash, as an out-of-memory kill would. */
  async crashBrowserForTesting(): Promise<void> {
    const s = await this.session;
    if (!s) return;
    const cdp = await s.browser.newBrowserCDPSession();
    await cdp.send('Browser.crash').catch(() => undefined);
  }
}
