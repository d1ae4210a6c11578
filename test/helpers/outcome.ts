import { renderHtml, type BrowserPool, type DeadlineTimer, type HtmlRenderRequest } from '../../src/html/index.js';

/** Outcome of an HTML render: 'pdf' or `Name status`. */
export async function outcome(pool: BrowserPool, request: HtmlRenderRequest): Promise<string> {
  return renderHtml(pool, request).then(
    () => 'pdf',
    (e: unknown) => `${(e as { name?: string }).name} ${(e as { status?: number }).status}`,
  );
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
