import { renderHtml, type BrowserPool, type HtmlRenderRequest } from '../../src/html/index.js';

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
