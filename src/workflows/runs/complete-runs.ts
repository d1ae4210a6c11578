/**
 * The background pass over runs: a run whose packet could not be made is tried again when its
 * back-off is over (make-packet.ts, retries.ts), and a run whose packet completed becomes `completed`
 * with its `weldComplete` webhook queued in the packet store's outbox **in the same transaction**. The
 * runs to complete are found by the database joining runs to their packets' status, so any number of
 * packets still waiting for signatures costs nothing; the run's version check makes the event exactly-once.
 */
import type { WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import { makePacketOnce } from './make-packet.js';
import { queueWeldWebhook, weldCompleteData } from './webhook.js';

/** One run whose packet completed: completed, with its webhook. True when this call changed it. */
async function completeRun(ctx: WorkflowContext, run: WeldDataRecord): Promise<boolean> {
  const now = ctx.now();
  const data = await weldCompleteData(ctx, run);
  let queued = false;
  const changed = await ctx.store.transaction(async (tx) => {
    if (!(await tx.welds.updateWeldData({ ...run, status: 'completed', completedAt: now, updatedAt: now })))
      return false; // another pass (or instance) completed it
    queued = await queueWeldWebhook(ctx, tx, run, 'weldComplete', data, now);
    return true;
  });
  if (queued) ctx.options.onEvents?.();
  return changed;
}

/** One pass: packets made again for runs whose retry is due, completed packets' runs completed (every one, in batches). */
export async function completeRuns(ctx: WorkflowContext, limit = 100): Promise<number> {
  let changed = 0;
  for (const run of await ctx.store.welds.weldDatasDue(ctx.now(), limit)) {
    if (ctx.making.has(run.eid)) continue;
    await makePacketOnce(ctx, run).then(
      (made) => (made.status === 'sent' ? changed++ : undefined),
      (e: unknown) => ctx.options.onError?.(e),
    );
  }
  for (;;) {
    const batch = await ctx.store.welds.weldDatasCompleted(limit);
    let done = 0;
    for (const run of batch) if (await completeRun(ctx, run)) done++;
    changed += done;
    // A full batch may have more behind it; one where nothing changed (another instance took them) ends the pass.
    if (batch.length < limit || done === 0) break;
  }
  return changed;
}
