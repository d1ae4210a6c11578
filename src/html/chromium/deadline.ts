import { RenderError } from '../../errors/index.js';

/**
 * Arms one job's deadline: calls `expire` once `ms` have passed, unless the returned function
 * disarms it first (the job ended). The pool's default is `setTimeout`.
 */
export type DeadlineTimer = (ms: number, expire: () => void) => () => void;

export const realDeadlineTimer: DeadlineTimer = (ms, expire) => {
  const timer = setTimeout(expire, ms);
  return () => clearTimeout(timer);
};

/** The 504 of a job past its deadline, whichever way the pool learns it passed. */
export function deadlineError(ms: number, cause?: unknown): RenderError {
  return new RenderError(`HTML rendering took longer than ${ms} ms`, 504, cause === undefined ? undefined : { cause });
}

/** A job's deadline, armed: `expired` rejects with the 504 (and `signal` aborts) when it passes. */
export interface ArmedDeadline {
  expired: Promise<never>;
  signal: AbortSignal;
  /** Disarms the timer and aborts `signal` (what the job started stops: the job is over either way). */
  end(): void;
}

export function armDeadline(timer: DeadlineTimer, ms: number): ArmedDeadline {
  const controller = new AbortController();
  let disarm: () => void = () => undefined;
  const expired = new Promise<never>((_, reject) => {
    disarm = timer(ms, () => {
      controller.abort();
      reject(deadlineError(ms));
    });
  });
  expired.catch(() => undefined);
  return {
    expired,
    signal: controller.signal,
    end: () => {
      disarm();
      controller.abort();
    },
  };
}
