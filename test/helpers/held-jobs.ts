import { fileURLToPath } from 'node:url';

/**
 * Jobs the test controls in the server's render pool: deadline and hang-up tests give the pool a job
 * that runs until the test says so, instead of racing a big real render against a short limit. Pass
 * `workerFile: HELD_WORKER` to the pool (`startServer({ renderPool: { workerFile } })` or `new RenderPool`);
 * a Markdown body from `heldBody` (or a packet named by `heldPacketName`) is then held, every other job is
 * rendered for real.
 */
export const HELD_WORKER = fileURLToPath(new URL('./held-job-worker.mjs', import.meta.url));
/** The channel of held-job-worker.mjs (same name there). */
const CHANNEL = 'castpress-held-jobs';

/**
 * `spin`: the job keeps its thread's core busy forever (only a deadline or a cancel ends it, by ending the thread);
 * `wait`: the job waits, idle, until `release(id)`, then renders its Markdown for real.
 */
export type HeldMode = 'spin' | 'wait';

/** A valid Markdown generate body (it passes the server's validation) that the held-job worker holds. */
export function heldBody(mode: HeldMode, id: string): { title: string; data: Array<{ content: string }> } {
  return { title: `held:${mode}:${id}`, data: [{ content: `held job ${id}` }] };
}

/** A packet name (createEtchPacket's `name`) whose assembly the held-job worker holds; the body is otherwise real. */
export function heldPacketName(mode: HeldMode, id: string): string {
  return `held:${mode}:${id}`;
}

/** Start reports of held jobs (the id of the thread each runs on), and their release. Close it after the test. */
export class HeldJobs {
  readonly #channel = new BroadcastChannel(CHANNEL);
  readonly #started = new Map<string, number>();
  readonly #waiting = new Map<string, (threadId: number) => void>();
  /** Threads that have loaded the worker entry (they take a job at once, and render without loading modules first). */
  readonly #ready = new Set<number>();
  readonly #readyWaiters = new Set<() => void>();
  /** Threads that have exited: pass `exited` as the pool's `onThreadExit`. */
  readonly #exited = new Set<number>();
  readonly exited = (threadId: number): void => {
    this.#exited.add(threadId);
    this.#ready.delete(threadId);
    for (const wake of this.#readyWaiters) wake();
  };

  constructor() {
    this.#channel.onmessage = (event: MessageEvent<{ started?: string; threadId?: number; ready?: number }>) => {
      const { started, threadId, ready } = event.data;
      if (typeof ready === 'number' && !this.#exited.has(ready)) {
        this.#ready.add(ready);
        for (const wake of this.#readyWaiters) wake();
      }
      if (typeof started !== 'string' || typeof threadId !== 'number') return;
      this.#started.set(started, threadId);
      this.#waiting.get(started)?.(threadId);
    };
  }

  /** Whether thread `threadId` has exited (reported by the pool's `onThreadExit`). */
  hasExited(threadId: number): boolean {
    return this.#exited.has(threadId);
  }

  /**
   * Resolves once a live thread has loaded the worker entry: wait for it before giving a job a short deadline,
   * so the deadline is not spent on a thread's start. A generous ceiling (start-up on a busy machine).
   */
  readyThread(ceilingMs = 120_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const check = () => {
        const [first] = this.#ready;
        if (first === undefined) return;
        this.#readyWaiters.delete(check);
        clearTimeout(timer);
        resolve(first);
      };
      const timer = setTimeout(() => {
        this.#readyWaiters.delete(check);
        reject(new Error(`no pool thread loaded the worker entry within ${ceilingMs} ms`));
      }, ceilingMs);
      this.#readyWaiters.add(check);
      check();
    });
  }

  /**
   * The thread id once job `id` has started. A generous ceiling (a pool thread starting on a busy machine is slow,
   * not broken); `failed` (the job's own promise) ends the wait early with what the job answered instead.
   */
  started(id: string, failed?: Promise<unknown>, ceilingMs = 120_000): Promise<number> {
    const known = this.#started.get(id);
    if (known !== undefined) return Promise.resolve(known);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(
        () => reject(new Error(`held job ${id} did not start within ${ceilingMs} ms`)),
        ceilingMs,
      );
      this.#waiting.set(id, (threadId) => {
        clearTimeout(timer);
        resolve(threadId);
      });
      const ended = (answer: unknown) => {
        clearTimeout(timer);
        reject(
          new Error(
            `held job ${id} ended before it started: ${answer instanceof Error ? answer.message : JSON.stringify(answer)}`,
          ),
        );
      };
      failed?.then(ended, ended);
    });
  }

  /**
   * Lets a `wait` job go on (it then renders its Markdown). Send it once `started(id)` has resolved: the job
   * listens from just before it reports its start, and a release posted earlier is not seen by it.
   */
  release(id: string): void {
    this.#channel.postMessage({ release: id });
  }

  close(): void {
    this.#channel.close();
  }
}
