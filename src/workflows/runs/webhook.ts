/**
 * The workflows' webhooks, written into the packets' outbox in the transaction of the run's change
 * (delivered, retried, signed and ordered by the packets' dispatcher): `weldComplete` (spec: Webhooks)
 * and `weldFailed` (the same data with `isComplete: false`, no documents and the typed `error`).
 */
import {
  downloadUrl,
  downloadZipUrl,
  outboxEvent,
  type PacketWrites,
  type WeldDataRecord,
} from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import { settingsOf } from './organization.js';
import { workflowOfRun } from './run-access.js';

/** The weldComplete webhook's data (spec: Webhooks); `isComplete` false for weldFailed. */
export async function weldCompleteData(
  ctx: WorkflowContext,
  run: WeldDataRecord,
  isComplete = true,
): Promise<Record<string, unknown>> {
  const workflow = workflowOfRun(ctx, run);
  const submissions = await ctx.store.welds.submissions(run.eid);
  const packet = run.packetEid ? await ctx.store.packet(run.packetEid) : undefined;
  const docs = packet ? await ctx.store.documents(packet.eid) : [];
  const base = ctx.baseUrl();
  return {
    isComplete,
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

/**
 * Queues a webhook of the run in `tx`: to the definition's webhookURL, else its organization's, else
 * the server's; none when no URL is set. The event names the organization, whose token and HMAC secret
 * the delivery carries. Its lane is the run's packet (after the packet's own events), else the run.
 */
export async function queueWeldWebhook(
  ctx: WorkflowContext,
  tx: Pick<PacketWrites, 'insertOutbox'>,
  run: WeldDataRecord,
  action: 'weldComplete' | 'weldFailed',
  data: Record<string, unknown>,
  now: number,
): Promise<boolean> {
  const url =
    workflowOfRun(ctx, run).webhookURL ?? settingsOf(ctx, run.organization)?.webhook?.url ?? ctx.options.webhookURL;
  if (!url) return false;
  await tx.insertOutbox(
    outboxEvent(run.packetEid ?? run.eid, 'webhook', { action, url, data, organization: run.organization }, now),
  );
  return true;
}
