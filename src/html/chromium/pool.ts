import type { Page } from 'playwright-core';
import { PayloadTooLargeError, RenderError, ValidationError, isCastpressError } from '../../errors/index.js';
import { FontRegistry } from '../../fonts/index.js';
import { HostLookup, type ResourceProblem, type ResourceResolver } from '../../resources/index.js';
import type { ChromiumProcess } from './processes.js';
import { MAX_PAGE_INCHES } from '../css/page-css.js';
import { WebFontCache } from '../web-fonts/convert.js';
import { closeChromium, RSS_READ_EVERY_MS, treeOverMemory, type Session } from './launch.js';
import { startSession } from './session.js';
import type { BrowserPoolOptions, PageLease } from './options.js';
import { Slots } from './slots.js';
import { armDeadline, deadlineError, realDeadlineTimer, type DeadlineTimer } from './deadline.js';
import { CrashError, isBrowserGone, isNavigatedAway, isPrintingFailed, navigationError } from './errors.js';

const noop = (): undefined => undefined;

/** How long closing a timed-out page may take before the whole browser is replaced. */
const CLOSE_GRACE_MS = 1000;

/**
 * One Chromium per engine, launched on the first job, with up to `maxPages`
 * pages that are reused across jobs (creating a page costs ~180 ms, reusing
 * one costs nothing). Chromium dying is survived: the next job relaunches it,
 * and a job that was running when it died (browser or renderer crash) is retried once.
 */
export class BrowserPool {
  readonly executablePath: string | undefined;
  readonly maxPages: number;
  readonly jobTimeoutMs: number;
  readonly maxResourceBytes: number;
  readonly maxJobsPerBrowser: number;
  readonly maxBrowserRssBytes: number;
  readonly resolver: ResourceResolver | undefined;
  /** Pages run scripts: each is closed after its job (a reused page would keep the last document's scripts running). */
  readonly javaScriptEnabled: boolean;
  /** Host lookups shared by this pool's jobs (document building and Chromium's requests). */
  readonly hosts = new HostLookup();
  readonly webFonts: WebFontCache; // CFF web fonts as TrueType, for all of this pool's browsers
  #fonts: FontRegistry | undefined;
  readonly #options: BrowserPoolOptions;
  readonly #deadlineTimer: DeadlineTimer;
  #session?: Promise<Session>;
  /** Every live browser, the current one and retired ones still finishing jobs. */
  readonly #sessions = new Set<Session>();
  readonly #owners = new Map<Page, Session>();
  /** Pages whose renderer crashed. */
  readonly #crashed = new WeakSet<Page>();
  /** Per leased page: rejects its job when the document starts a top-level navigation. */
  readonly #navigationWatch = new Map<Page, (url: string) => void>();
  /** Per leased page: the job's listener for resources that did not load. */
  readonly #resourceWatch = new Map<Page, (problem: ResourceProblem) => void>();
  /** Jobs holding a page now, at most `maxPages`; the rest wait in order. */
  readonly #slots: Slots;
  #closed = false;

  constructor(options: BrowserPoolOptions = {}) {
    this.#options = options;
    this.executablePath = options.executablePath;
    this.maxPages = Math.max(1, Math.floor(options.maxPages ?? 2));
    this.#slots = new Slots(this.maxPages);
    this.jobTimeoutMs = options.jobTimeoutMs ?? 30_000;
    this.#deadlineTimer = options.deadlineTimer ?? realDeadlineTimer;
    this.maxResourceBytes = options.maxResourceBytes ?? 10 * 1024 * 1024;
    this.maxJobsPerBrowser = Math.max(1, Math.floor(options.maxJobsPerBrowser ?? 500));
    this.maxBrowserRssBytes = options.maxBrowserRssBytes ?? 3 * 1024 ** 3;
    this.resolver = options.resolver;
    this.javaScriptEnabled = options.javaScriptEnabled ?? false;
    this.#fonts = options.fonts;
    this.webFonts = options.webFonts ?? new WebFontCache();
  }

  /** The registry form-field appearances are drawn with (created on first use when none was given). */
  get fonts(): FontRegistry {
    return (this.#fonts ??= new FontRegistry());
  }

  /**
   * Runs `job` on a pooled page under the pool's deadline; retries once if Chromium died under it.
   * `prepare` (document building: resource fetches, `@import` inlining) runs first, inside the same
   * deadline but before a page is taken; its signal aborts when the deadline passes.
   */
  async run<T, P = undefined>(
    job: (lease: PageLease, prepared: P) => Promise<T>,
    prepare?: (signal: AbortSignal) => Promise<P>,
    watch: { onResourceProblem?: (problem: ResourceProblem) => void } = {},
  ): Promise<T> {
    if (this.#closed) throw new RenderError('The browser pool is closed', 503);
    const deadline = Date.now() + this.jobTimeoutMs;
    const { expired, signal, end } = armDeadline(this.#deadlineTimer, this.jobTimeoutMs);
    try {
      const prepared = prepare ? await Promise.race([prepare(signal), expired]) : (undefined as P);
      const waiter = { grant: () => undefined, cancelled: false } as { grant: () => void; cancelled: boolean };
      try {
        await Promise.race([this.#slots.take(waiter), expired]);
      } catch (e) {
        waiter.cancelled = true;
        throw e;
      }
      try {
        return await this.#attempts(job, prepared, deadline, expired, watch.onResourceProblem);
      } finally {
        this.#slots.release();
      }
    } finally {
      end();
    }
  }

  async #attempts<T, P>(
    job: (lease: PageLease, prepared: P) => Promise<T>,
    prepared: P,
    deadline: number,
    expired: Promise<never>,
    onResourceProblem?: (problem: ResourceProblem) => void,
  ): Promise<T> {
    for (let attempt = 0; ; attempt++) {
      const leasing = this.#lease(deadline);
      let lease: PageLease;
      try {
        lease = await Promise.race([leasing, expired]);
      } catch (e) {
        // A page that arrives after the deadline goes back to the pool unused.
        leasing.then((l) => this.#giveBack(l.page), noop);
        // The browser went away while this job opened its page (a stuck page's close retires it at once):
        // nothing of the job ran, so it opens a page of the next browser, once, like a crash mid-job.
        if (attempt === 0 && isBrowserGone(e) && !this.#closed) continue;
        if (isCastpressError(e)) throw e;
        throw new RenderError('Chromium could not open a page for the job', 500, { cause: e });
      }
      const session = this.#owners.get(lease.page);
      if (session) session.active++;
      let navigated!: (url: string) => void;
      const navigation = new Promise<never>((_, reject) => {
        navigated = (url) => reject(navigationError(url));
      });
      navigation.catch(noop);
      this.#navigationWatch.set(lease.page, navigated);
      if (onResourceProblem) this.#resourceWatch.set(lease.page, onResourceProblem);
      let reusable = false;
      let timedOut = false;
      const work = (async () => {
        const result = await job(lease, prepared);
        reusable = true;
        return result;
      })();
      try {
        return await Promise.race([work, expired, navigation]);
      } catch (e) {
        work.catch(noop);
        // A renderer that dies while printing surfaces as "Printing failed", like a page Chromium cannot print.
        const crashed = isBrowserGone(e) || (isPrintingFailed(e) && (await this.#crashedUnder(lease.page, session)));
        if (session?.overMemory && crashed) {
          throw new PayloadTooLargeError(
            `Rendering the document took more than ${this.maxBrowserRssBytes} bytes of Chromium memory`,
            'html',
          );
        }
        if (attempt === 0 && crashed && !this.#closed) {
          await this.#forget(lease.page);
          continue;
        }
        if (e instanceof RenderError && e.status === 504) timedOut = true;
        if (isCastpressError(e)) throw e;
        if (e instanceof Error && e.name === 'TimeoutError') {
          timedOut = true;
          throw deadlineError(this.jobTimeoutMs, e);
        }
        if (crashed) throw new RenderError('Chromium crashed while rendering', 500, { cause: e });
        if (isNavigatedAway(e)) throw navigationError();
        // Chromium refuses to print page boxes past PDF's limits (page options are checked before; this is the document's own @page).
        if (isPrintingFailed(e)) {
          throw ValidationError.of(
            'html',
            `Chromium could not print the document; its @page size is probably over ${MAX_PAGE_INCHES}in (the largest PDF page)`,
          );
        }
        throw new RenderError(`HTML rendering failed: ${e instanceof Error ? e.message : String(e)}`, 500, {
          cause: e,
        });
      } finally {
        this.#navigationWatch.delete(lease.page);
        this.#resourceWatch.delete(lease.page);
        if (session) {
          session.active--;
          session.served++;
        }
        // With JavaScript on, the finished document's timers and loops keep running in an idle page: it is closed instead.
        if (reusable && !timedOut && !this.javaScriptEnabled) this.#giveBack(lease.page);
        else if (!lease.page.isClosed()) void this.#forget(lease.page);
        if (session) this.#afterJob(session);
      }
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    const session = this.#session;
    this.#session = undefined;
    await session?.catch(noop);
    await Promise.all([...this.#sessions].map((s) => this.#shutdown(s)));
  }

  /** Pages open now (in use or idle) over this pool's browsers. Diagnostics and tests. */
  openPages(): number {
    let n = 0;
    for (const s of this.#sessions) n += s.pages.size;
    return n;
  }

  /** Process ids and CPU time of this pool's Chromium processes (browser first); empty without /proc. Diagnostics and tests. */
  async processes(): Promise<ChromiumProcess[]> {
    const s = await this.#session?.catch(noop);
    return s ? s.tree.read() : [];
  }

  async #lease(deadline: number): Promise<PageLease> {
    let session = await this.#ensureSession(deadline);
    if (!session.browser.isConnected() || session.retired) {
      if (this.#session && (await this.#session.catch(noop)) === session) this.#session = undefined;
      session = await this.#ensureSession(deadline);
    }
    const idle = session.idle.pop();
    const page = idle ?? (await this.#newPage(session));
    const cdp = session.cdp.get(page);
    if (!cdp) throw new CrashError('Page without a DevTools session');
    return { page, cdp, deadline, reused: idle !== undefined };
  }

  #giveBack(page: Page): void {
    const s = this.#owners.get(page);
    if (s && !s.retired && s.pages.has(page) && !page.isClosed()) s.idle.push(page);
    else void this.#forget(page);
  }

  /**
   * Closes a page without running its unload handlers: Chromium then ends its
   * renderer process even when a script or a layout keeps it busy. When the
   * close does not finish within a second the whole browser is replaced.
   */
  async #forget(page: Page): Promise<void> {
    const s = this.#owners.get(page);
    this.#owners.delete(page);
    this.#navigationWatch.delete(page);
    if (s) {
      s.pages.delete(page);
      s.idle = s.idle.filter((p) => p !== page);
    }
    const cdp = s?.cdp.get(page);
    s?.cdp.delete(page);
    let timer: NodeJS.Timeout | undefined;
    const closed = await Promise.race([
      page.close({ runBeforeUnload: false }).then(
        () => true,
        () => true,
      ),
      new Promise<boolean>((r) => (timer = setTimeout(() => r(false), CLOSE_GRACE_MS))),
    ]);
    clearTimeout(timer);
    void cdp?.detach().catch(noop);
    if (!closed && s) await this.#retire(s, true);
  }

  /** Whether `page`'s renderer (or the browser) died; the crash event may trail the failed call by a moment. */
  async #crashedUnder(page: Page, session: Session | undefined): Promise<boolean> {
    if (this.#crashed.has(page) || (session && !session.browser.isConnected())) return true;
    if (page.isClosed()) return false;
    await page.waitForEvent('crash', { timeout: 250 }).catch(noop);
    return this.#crashed.has(page) || (session !== undefined && !session.browser.isConnected());
  }

  /** After each job: replace a browser that has served its quota or grown past the memory ceiling. */
  #afterJob(session: Session): void {
    if (session.retired) {
      if (session.active === 0) void this.#shutdown(session);
      return;
    }
    if (session.served >= this.maxJobsPerBrowser) {
      void this.#retire(session);
      return;
    }
    // At most one reading a second: a stream of short jobs would pay one each (the watchdog covers running jobs).
    if (performance.now() - session.rssReadAt < RSS_READ_EVERY_MS) return;
    setImmediate(() => {
      if (session.retired || this.#closed) return;
      if (treeOverMemory(session, this.maxBrowserRssBytes)) void this.#retire(session);
    });
  }

  /** Takes a browser out of service: new jobs launch a fresh one; this one closes when its jobs are done (or now). */
  async #retire(session: Session, now = false): Promise<void> {
    session.retired = true;
    if (this.#session && (await this.#session.catch(noop)) === session) this.#session = undefined;
    if (now || session.active === 0) await this.#shutdown(session);
  }

  async #shutdown(session: Session): Promise<void> {
    session.retired = true;
    clearInterval(session.watchdog);
    this.#sessions.delete(session);
    for (const page of session.pages) {
      this.#owners.delete(page);
      this.#navigationWatch.delete(page);
    }
    await closeChromium(session.browser, session.tree);
  }

  #ensureSession(deadline: number): Promise<Session> {
    if (!this.#session) {
      const launching = this.#launch(deadline);
      this.#session = launching;
      launching.catch(() => {
        if (this.#session === launching) this.#session = undefined;
      });
    }
    return this.#session;
  }

  async #launch(deadline: number): Promise<Session> {
    const options = {
      pool: this.#options,
      javaScriptEnabled: this.javaScriptEnabled,
      maxResourceBytes: this.maxResourceBytes,
      maxBrowserRssBytes: this.maxBrowserRssBytes,
      lookup: this.hosts.lookup,
      webFonts: this.webFonts,
      deadline,
    };
    const session = await startSession(options, {
      onNavigation: (page, url) => this.#navigationWatch.get(page)?.(url),
      onProblem: (page, problem) => this.#resourceWatch.get(page)?.(problem),
      onOverMemory: (s) => {
        s.overMemory = true;
        void this.#retire(s, true);
      },
      onDisconnected: (s) => {
        this.#sessions.delete(s);
        if (this.#session && !this.#closed) {
          void this.#session.then((current) => {
            if (current === s) this.#session = undefined;
          }, noop);
        }
      },
    });
    this.#sessions.add(session);
    if (this.#closed) {
      await this.#shutdown(session);
      throw new RenderError('The browser pool is closed', 503);
    }
    return session;
  }

  async #newPage(session: Session): Promise<Page> {
    const page = await session.context.newPage();
    this.#owners.set(page, session);
    // Screen layout under print media approximates the printed layout; used to guess page numbers.
    await page.emulateMedia({ media: 'print' });
    page.on('crash', () => {
      this.#crashed.add(page);
      void this.#forget(page);
    });
    // A popup that got past the blocker is closed at once (its requests were refused anyway).
    page.on('popup', (popup) => void popup.close({ runBeforeUnload: false }).catch(noop));
    session.cdp.set(page, await session.context.newCDPSession(page));
    session.pages.add(page);
    return page;
  }

  /** Test hook: makes the running Chromium crash, as an out-of-memory kill would. */
  async crashBrowserForTesting(): Promise<void> {
    const s = await this.#session;
    if (!s) return;
    const cdp = await s.browser.newBrowserCDPSession();
    await cdp.send('Browser.crash').catch(noop);
  }

  /** Test hook: crashes the renderer of every page in use, as a renderer out-of-memory kill would. */
  async crashRenderersForTesting(): Promise<void> {
    await Promise.all(
      [...this.#navigationWatch.keys()].map(async (page) => {
        const cdp = this.#owners.get(page)?.cdp.get(page);
        await cdp?.send('Page.crash').catch(noop);
      }),
    );
  }
}
