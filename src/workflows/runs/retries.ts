/**
 * A run whose packet could not be made: the attempt is counted, the typed error kept as `lastError`
 * (`{name, message, fields}`, what the packet workflow refused), and the next attempt waits
 * exponentially longer (the packets' `backoffMs`, capped). After `maxAttempts` the run is `failed`
 * and `weldFailed` is queued in the same version-checked transaction: once. A packet whose
 * values can never make one (a name of invisible characters, a fill tag in a value) stops being
 * assembled instead of being tried every pass forever.
 */
import { isCastpressError } from '../../errors/index.js';
import { backoffMs, type RetryPolicy, type WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import { queueWeldWebhook, weldCompleteData } from './webhook.js';

/** Packet retries of runs: first after 10 s, doubling up to 1 h, 8 attempts in all (about 21 minutes, then failed). */
export const WELD_RETRY: Required<RetryPolicy> = { baseMs: 10_000, maxMs: 3_600_000, maxAttempts: 8 };

export interface RunError {
  name: string;
  message: string;
  fields: Array<{ property: string; message: string }>;
}

/** The typed error of a failure: a castpress error as it is, anything else named by its class with no fields. */
function typedError(e: unknown): RunError {
  if (isCastpressError(e))
    return {
      name: e.name,
      message: e.message,
      fields: e.fields.map((f) => ({ property: f.property, message: f.message })),
    };
  const err = e instanceof Error ? e : new Error(String(e));
  return { name: err.name, message: err.message, fields: [] };
}

/** A run's lastError read back (undefined when it has none or it is not JSON: runs failed before errors were typed). */
export function lastErrorOf(run: Pick<WeldDataRecord, 'lastError'>): RunError | undefined {
  if (run.lastError === null) return undefined;
  try {
    const v = JSON.parse(run.lastError) as RunError;
    return typeof v === 'object' && v !== null && typeof v.name === 'string' ? v : undefined;
  } catch {
    return { name: 'Error', message: run.lastError, fields: [] };
  }
}

/** Records a failed attempt on a `submitted` run: the next one later, or `failed` with weldFailed. */
export async function recordFailure(ctx: WorkflowContext, run: WeldDataRecord, e: unknown): Promise<void> {
  const retry = { ...WELD_RETRY, ...ctx.options.retry };
  const now = ctx.now();
  const lastError = JSON.stringify(typedError(e));
  let queued = false;
  await ctx.store.transaction(async (tx) => {
    const current = await tx.welds.weldData(run.eid);
    if (current?.status !== 'submitted') return;
    const attempts = current.attempts + 1;
    const failed = attempts >= retry.maxAttempts;
    const next: WeldDataRecord = {
      ...current,
      status: failed ? 'failed' : 'submitted',
      attempts,
      nextAttemptAt: now + backoffMs(attempts, retry),
      lastError,
      updatedAt: now,
    };
    if (!(await tx.welds.updateWeldData(next)) || !failed) return;
    const data = { ...(await weldCompleteData(ctx, next, false)), error: JSON.parse(lastError) as RunError };
    queued = await queueWeldWebhook(ctx, tx, next, 'weldFailed', data, now);
  });
  if (queued) ctx.options.onEvents?.();
}
