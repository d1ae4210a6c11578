/**
 * The background pass over runs: a run whose packet could not be made is tried again, and a run
 * whose packet completed becomes `completed` with its `weldComplete` webhook queued in the packet
 * store's outbox **in the same transaction** (delivered, retried and ordered after the packet's own
 * events by the packets' dispatcher). The run's version check makes the event exactly-once.
 */
import { randomBytes } from 'node:crypto';
import { downloadUrl, downloadZipUrl, type OutboxRecord, type WeldDataRecord } from '../packets/index.js';
import type { WeldContext } from './context.js';
import { makePacketOnce } from './make-packet.js';
import { settingsOf } from './organization.js';
import { workflowOfRun } from './run-access.js';

/** The weldComplete webhook's data (spec: Webhooks). */
export async function weldCompleteData(ctx: WeldContext, run: WeldDataRecord): Promise<Record<string, unknown>> {
  const workflow = workflowOfRun(ctx, run);
  const submissions = await ctx.store.welds.submissions(run.eid);
  const packet = run.packetEid ? await ctx.store.packet(run.packetEid) : undefined;
  const docs = packet ? await ctx.store.documents(packet.eid) : [];
  const base = ctx.baseUrl();
  return {
    isComplete: true,
    isTest: run.isTest,
    eid: run.eid,
    documents: packet
      ? [
          ...docs.map((d) => ({ type: 'application/pdf', url: downloadUrl(base, packet.groupEid, d.filename) })),
          { type: 'application/zip', url: downloadZipUrl(base, packet.groupEid) },
        ]
      : [],
    weld: { eid: workflow.eid, slug: workflow.slug },
    forges: Object.fromEntries(workflow.forges.map((f) => [f.slug, { eid: f.eid, name: f.name }])),
    submissions: Object.fromEntries(
      submissions.map((s) => [s.forgeSlug, { eid: s.eid, resolvedPayload: s.resolvedPayload }]),
    ),
  };
}

/** An outbox webhook event; ids sort after the packet's earlier events, as the packets' own do (monotonic clock first). */
function webhookEvent(run: WeldDataRecord, url: string, data: Record<string, unknown>, now: number): OutboxRecord {
  const order = process.hrtime.bigint().toString(36).padStart(13, '0');
  return {
    id: `evt_${order}${randomBytes(10).toString('hex')}`,
    packetEid: run.packetEid!,
    kind: 'webhook',
    // The organization names whose token and HMAC secret the delivery carries (as the packets' events do).
    payload: { action: 'weldComplete', url, data, organization: run.organization },
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: 0,
    lastError: null,
    createdAt: now,
    deliveredAt: null,
  };
}

/** One run whose packet is sent: completed, with its webhook, once the packet is. True when it changed. */
async function completeRun(ctx: WeldContext, run: WeldDataRecord): Promise<boolean> {
  const packet = run.packetEid ? await ctx.store.packet(run.packetEid) : undefined;
  if (!packet || packet.status !== 'complete') return false;
  const now = ctx.now();
  const data = await weldCompleteData(ctx, run);
  // The definition's webhook, else its organization's, else the server's.
  const url =
    workflowOfRun(ctx, run).webhookURL ?? settingsOf(ctx, run.organization)?.webhook?.url ?? ctx.options.webhookURL;
  const queued = await ctx.store.transaction(async (tx) => {
    const changed = await tx.welds.updateWeldData({ ...run, status: 'completed', completedAt: now, updatedAt: now });
    if (!changed) return false; // another pass (or instance) completed it
    if (url) await tx.insertOutbox(webhookEvent(run, url, data, now));
    return url !== undefined;
  });
  if (queued) ctx.options.onEvents?.();
  return true;
}

/** One pass: packets made again for runs that failed to make them, completed packets' runs completed. */
export async function completeRuns(ctx: WeldContext, limit = 100): Promise<number> {
  let changed = 0;
  for (const run of await ctx.store.welds.weldDatasIn('submitted', limit)) {
    if (ctx.making.has(run.eid)) continue;
    await makePacketOnce(ctx, run).then(
      () => changed++,
      (e: unknown) => ctx.options.onError?.(e),
    );
  }
  for (const run of await ctx.store.welds.weldDatasIn('sent', limit)) if (await completeRun(ctx, run)) changed++;
  return changed;
}
