import { renderHtml, type BrowserPool, type DeadlineTimer, type HtmlRenderRequest } from '../../src/html/index.js';

/** Outcome of an HTML render: 'pdf' or `Name status`. */
export async function outcome(pool: BrowserPool, request: HtmlRenderRequest): Promise<string> {
  return renderHtml(pool, request).then(
    () => 'pdf',
    (e: unknown) => `${(e as { name?: string }).name} ${(e as { status?: number }).status}`,
  );
}

/**
 * Runs `fn` with the pool's job deadline set to `ms`, then restores it. A deadline test gives the short
 * deadline only to the job it controls (one that never ends: a script that spins, a resource that never
 * arrives), and real work before and after it a long one, so that a busy machine does not turn real
 * work into a 504. (`jobTimeoutMs` is read when a job starts; the jobs here run one at a time.)
 */
export async function withJobDeadline<T>(pool: BrowserPool, ms: number, fn: () => Promise<T>): Promise<T> {
  const writable = pool as { jobTimeoutMs: number };
  const before = writable.jobTimeoutMs;
  writable.jobTimeoutMs = ms;
  try {
    return await fn();
  } finally {
    writable.jobTimeoutMs = before;
  }
}

/**
 * Job deadlines the test ends itself: pass `timer` as the pool's `deadlineTimer`. Jobs run with no time
 * limit until `pass()` fires the deadline of every job still running, through the pool's own deadline path
 * (the 504, the aborted build, the closed page), once the test has seen what it waits for (a script
 * spinning, a request that will never be answered) rather than at a fixed time a busy machine may miss.
 */
export function heldDeadlines(): { timer: DeadlineTimer; pending: () => number; pass: () => void } {
  const armed = new Set<() => void>();
  return {
    timer: (_ms, expire) => {
      armed.add(expire);
      return () => armed.delete(expire);
    },
    pending: () => armed.size,
    pass: () => {
      const due = [...armed];
      armed.clear();
      for (const expire of due) expire();
    },
  };
}
