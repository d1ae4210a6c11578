import { ValidationError } from '../../errors/index.js';

/** What a failed pool job's error means: the browser or renderer died, the document navigated away, printing failed. */

export class CrashError extends Error {}

export function isBrowserGone(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return (
    e instanceof CrashError ||
    /Target (page, context or browser )?(has been )?closed|Browser has been closed|browser has disconnected|Target crashed|Page crashed|Navigation failed because page crashed|Session closed/i.test(
      msg,
    )
  );
}

/** The document replaced itself (a script set `location`, reloaded, or opened another document). */
export function isNavigatedAway(e: unknown): boolean {
  const msg = e instanceof Error ? e.message : String(e);
  return /Execution context was destroyed|Inspected target navigated|Cannot find context with specified id|frame was detached/i.test(
    msg,
  );
}

export function isPrintingFailed(e: unknown): boolean {
  return /Printing failed/i.test(e instanceof Error ? e.message : String(e));
}

export function navigationError(url?: string): ValidationError {
  const where = url ? ` to ${url.length > 200 ? `${url.slice(0, 200)}…` : url}` : '';
  return ValidationError.of(
    'html',
    `The document tried to navigate${where} (a script, a form or a refresh); documents must not navigate`,
  );
}
