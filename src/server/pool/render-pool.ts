import { AsyncLocalStorage } from 'node:async_hooks';
import os from 'node:os';
import { WORKER_FILE, type RequestJob, type RequestOutcome, type RequestTask } from '../../batch/index.js';
import { CastpressError, PayloadTooLargeError, RenderError } from '../../errors/index.js';
import type { RenderedPdf } from '../../engine/index.js';
import type { DeadlineTimer } from '../../html/index.js';
import { FairShare } from './fair-share.js';

export interface RenderPoolOptions {
  /** Engine options the worker threads create their engines with (structured-clonable only). */
  engine: RequestTask['engine'];
  /** Worker threads; default: one per core, at least 2 (one long job must not hold up every other). */
  threads?: number;
  /** A job still running after this is a 504 and its thread is ended. Default 60 s. */
  deadlineMs?: number;
  /**
   * How a job's deadline is armed (default: `setTimeout` for the job's deadline). Whatever fires it, the
   * job takes the production path: its thread is ended and the caller gets the 504. For tests and embedders
   * that decide themselves when time is up (a test passes the deadline once it has seen its job run,
   * instead of racing real work against a fixed limit); the same type as the HTML pool's `deadlineTimer`.
   */
  deadlineTimer?: DeadlineTimer;
  /** Old-generation heap of one thread (MB); a job past it ends its thread and is a 413. Default 2048. */
  maxHeapMb?: number;
  /** Jobs one lane (organization) may have waiting for a thread; one more is refused (503) rather than queued without bound. Default 64. */
  maxQueue?: number;
  /**
   * Threads one lane (organization, see `inLane`) may use at once; default all of them. `startServer` sets
   * `threads - 1` when its keys name more than one organization, so one is always left for the others.
   */
  laneThreads?: number;
  /** Pages of the main engine's Chromium (its `chromium.maxPages`, default 2): HTML jobs running at once, all lanes together. */
  htmlPages?: number;
  /** Pages one lane may use at once (default all); `startServer` sets `htmlPages - 1` with several organizations. */
  laneHtmlPages?: number;
  /** Deadline of one signature-packet step (assembly, a signer's inputs, completion): 504 after it. Default 120 s. */
  packetDeadlineMs?: number;
  /**
   * The module the threads load (default: the batch's worker entry, `WORKER_FILE`). For embedding and tests:
   * a module exporting the same functions (`request`, `packet`, `json`), such as one whose jobs run until the
   * test releases them (test/helpers/held-job-worker.mjs). Set only by code that constructs the pool; no
   * request, key or CLI flag reaches it.
   */
  workerFile?: string;
  /**
   * Called with a thread's id once it has exited (ended after a deadline or a cancel, idle, or at close).
   * Diagnostics and tests: a deadline test waits for its job's thread to be gone rather than for a fixed time.
   */
  onThreadExit?: (threadId: number) => void;
}

/** Functions of the worker entry besides `request` (src/batch/worker.ts). */
export type PoolStep = 'packet' | 'json' | 'template';

/** How a step's failures are named: the work (`Assembling the packet`) and the property a memory overrun names. */
interface StepNames {
  what: string;
  property: string;
}

export type PoolJob = RequestJob;

/** Threads of a pool given `threads` (the option): one per core by default, at least 2. */
export function poolThreads(threads?: number): number {
  return Math.max(2, threads ?? os.availableParallelism());
}

/** The lane of work done outside `inLane` (the signing page, public forms: no API key names an organization). */
export const DEFAULT_LANE = '';

/**
 * Fill and Markdown jobs of the REST server run here, on worker threads
 * (the batch's worker entry, one engine per thread), so a large request
 * never holds the event loop: other requests, health checks and shutdown go
 * on while it renders. A job past its deadline, or one whose client went
 * away, is aborted: piscina ends its thread, so no CPU keeps burning for an
 * answer nobody reads; the pool starts a fresh thread for the next job.
 */
export class RenderPool {
  readonly deadlineMs: number;
  readonly packetDeadlineMs: number;
  readonly #engine: RequestTask['engine'];
  readonly #pool: Promise<import('piscina').Piscina<unknown, unknown>>;
  readonly #maxHeapMb: number;
  readonly #deadlineTimer: DeadlineTimer;
  /** Jobs handed to piscina and not yet settled (waiting or running): with its queue size, the busy threads. */
  #inflight = 0;
  readonly #observers = new Set<(name: 'request' | PoolStep, seconds: number) => void>();
  /** Who runs next: a queue per lane, served in turn (fair-share.ts). */
  readonly #fair: FairShare;
  /** The same for HTML jobs on the main engine's Chromium, sized to its pages (see `html`). */
  readonly #htmlFair: FairShare;
  /**
   * The lane of the work being done: set by the routes around a request's work, read when a job is
   * handed over. The packet workflow (src/packets) reaches the pool through `PacketWork`, which knows
   * no organization; the request's organization travels with its async context instead.
   */
  readonly #lanes = new AsyncLocalStorage<string>();

  constructor(options: RenderPoolOptions) {
    this.#engine = options.engine;
    this.deadlineMs = options.deadlineMs ?? 60_000;
    this.packetDeadlineMs = options.packetDeadlineMs ?? 120_000;
    this.#maxHeapMb = options.maxHeapMb ?? 2048;
    // setTimeout, as the HTML pool's default; written here because importing that one would load the HTML renderer.
    this.#deadlineTimer =
      options.deadlineTimer ??
      ((ms, expire) => {
        const timer = setTimeout(expire, ms);
        return () => clearTimeout(timer);
      });
    const threads = poolThreads(options.threads);
    this.#fair = new FairShare({ slots: threads, perLane: options.laneThreads, maxWaiting: options.maxQueue ?? 64 });
    this.#htmlFair = new FairShare({
      slots: options.htmlPages ?? 2,
      perLane: options.laneHtmlPages,
      maxWaiting: options.maxQueue ?? 64,
    });
    this.#pool = import('piscina').then(({ Piscina }) => {
      const pool = new Piscina<unknown, unknown>({
        filename: options.workerFile ?? WORKER_FILE,
        name: 'request',
        minThreads: 1,
        maxThreads: threads,
        idleTimeout: 60_000,
        resourceLimits: { maxOldGenerationSizeMb: this.#maxHeapMb },
      });
      const onExit = options.onThreadExit;
      // Piscina drops an ended thread from its list at once; the Worker's own 'exit' is when it is really gone.
      if (onExit)
        pool.on('workerCreate', ({ id }: { id: number }) => {
          const worker = pool.threads.find((thread) => thread.threadId === id);
          worker?.once('exit', () => onExit(id));
        });
      return pool;
    });
  }

  /** Runs `fn` with the jobs it hands to the pool in `lane`'s queue (the organization of the request). */
  inLane<T>(lane: string, fn: () => T): T {
    return this.#lanes.run(lane, fn);
  }

  /** Renders one job; typed errors of the job come back as the same typed errors. */
  async run(job: PoolJob, signal?: AbortSignal, deadlineMs = this.deadlineMs): Promise<RenderedPdf> {
    const outcome = (await this.#run('request', { ...job }, deadlineMs, signal, {
      what: 'Rendering',
      property: 'data',
    })) as RequestOutcome;
    if (!outcome.ok)
      throw new CastpressError(outcome.error.name, outcome.status, outcome.error.message, outcome.error.fields);
    // Structured cloning hands a Uint8Array back as one.
    const { ok: _ok, ...rendered } = outcome;
    return rendered;
  }

  /**
   * Runs another function of the worker entry (`packet`, `json`) under the same rules: a deadline
   * (504, its thread ended), a memory ceiling (413), a bounded queue (503). Its outcome as sent.
   */
  async step(
    name: PoolStep,
    task: object,
    names: StepNames,
    deadlineMs = this.packetDeadlineMs,
    signal?: AbortSignal,
  ): Promise<unknown> {
    return this.#run(name, task, deadlineMs, signal, names);
  }

  async #run(
    name: 'request' | PoolStep,
    task: object,
    deadlineMs: number,
    signal: AbortSignal | undefined,
    names: StepNames,
  ): Promise<unknown> {
    const pool = await this.#pool;
    const lane = this.#lanes.getStore() ?? DEFAULT_LANE;
    // The deadline counts from here: time waiting for the lane's turn is part of it, as time in a queue always was.
    const deadline = new AbortController();
    const disarm = this.#deadlineTimer(deadlineMs, () => deadline.abort());
    const abort = signal ? AbortSignal.any([deadline.signal, signal]) : deadline.signal;
    const started = process.hrtime.bigint();
    this.#inflight++;
    try {
      return await this.#fair.run(
        lane,
        () => pool.run({ ...task, engine: this.#engine }, { name, signal: abort }),
        abort,
      );
    } catch (e) {
      throw this.#failure(e, deadline.signal, signal, deadlineMs, names);
    } finally {
      disarm();
      this.#inflight--;
      const seconds = Number(process.hrtime.bigint() - started) / 1e9;
      for (const observer of this.#observers) observer(name, seconds);
    }
  }

  /**
   * Runs `job`, HTML work on the main engine's Chromium, once the current lane has its turn for a page:
   * the browser pool's own queue is first come, first served, so the lanes are taken in turn here, before
   * it. Waiting counts towards the pool's deadline (504) and ends when `signal` aborts (499); once the job
   * has its turn, the browser pool's own deadline applies.
   */
  async html<T>(job: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const lane = this.#lanes.getStore() ?? DEFAULT_LANE;
    const deadline = new AbortController();
    let armed = true;
    const stop = this.#deadlineTimer(this.deadlineMs, () => deadline.abort());
    const disarm = () => {
      if (armed) stop();
      armed = false;
    };
    const abort = signal ? AbortSignal.any([deadline.signal, signal]) : deadline.signal;
    let admitted = false;
    try {
      return await this.#htmlFair.run(
        lane,
        () => {
          admitted = true;
          disarm();
          return job();
        },
        abort,
      );
    } catch (e) {
      if (admitted) throw e;
      throw this.#failure(e, deadline.signal, signal, this.deadlineMs, {
        what: 'Waiting for Chromium',
        property: 'html',
      });
    } finally {
      disarm();
    }
  }

  /** Jobs waiting for a thread, and threads running one (read by `/metrics` at scrape time). */
  async load(): Promise<{ queued: number; busy: number; threads: number }> {
    const pool = await this.#pool;
    const queued = pool.queueSize + this.#fair.counts().waiting;
    return { queued, busy: Math.max(0, this.#inflight - queued), threads: pool.threads.length };
  }

  /** Calls `observer` after every job with its function and duration (the server's render metrics); returns the unsubscribe. */
  observe(observer: (name: 'request' | PoolStep, seconds: number) => void): () => void {
    this.#observers.add(observer);
    return () => this.#observers.delete(observer);
  }

  #failure(
    e: unknown,
    deadline: AbortSignal,
    signal: AbortSignal | undefined,
    deadlineMs: number,
    names: StepNames,
  ): CastpressError {
    if (deadline.aborted) return new RenderError(`${names.what} took longer than ${deadlineMs} ms`, 504, { cause: e });
    if (signal?.aborted) return new RenderError('The request was cancelled', 499, { cause: e });
    // The lane's queue is full (fair-share.ts): already the typed 503.
    if (e instanceof CastpressError) return e;
    const code = (e as { code?: unknown } | null)?.code;
    if (code === 'ERR_WORKER_OUT_OF_MEMORY') {
      return new PayloadTooLargeError(
        `${names.what} this request needs more than ${this.#maxHeapMb} MB of memory`,
        names.property,
      );
    }
    const message = e instanceof Error ? e.message : String(e);
    if (/queue is at limit/i.test(message))
      return new RenderError('Too many requests are waiting for a worker thread', 503, { cause: e });
    return new RenderError(`${names.what} failed`, 500, { cause: e });
  }

  /** Ids of the threads alive now (an ended thread is replaced only when the pool is below its minimum of one). */
  async threadIds(): Promise<number[]> {
    return (await this.#pool).threads.map((thread) => thread.threadId);
  }

  async close(): Promise<void> {
    const pool = await this.#pool;
    // Jobs still running get their thread ended: the server only closes after in-flight requests finished.
    await pool.destroy();
  }
}
