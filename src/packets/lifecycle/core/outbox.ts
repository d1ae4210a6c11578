/**
 * The outbox events a step writes inside its transaction: signing-request and completion emails,
 * and webhooks. Delivery is the dispatcher's (events/); what an event delivers is made at
 * delivery (delivery.ts). Each function returns how many events it wrote.
 */
import type { OutboxRecord, PacketWrites, SignerRecord } from '../../store/index.js';
import { settingsOf, type WorkflowContext } from './context.js';
import { redirectGroupStatus } from '../state/routing.js';
import type { Snapshot } from './step.js';
import { newEid } from '../state/tokens.js';
import { downloadUrl, downloadZipUrl } from '../state/urls.js';

/**
 * Outbox ids sort in the order events are made: a step's events share `createdAt`, and the stores deliver a
 * packet's events of one lane in (createdAt, id) order, one at a time (a retried event holds back the
 * ones after it), so a receiver sees the last signer's signerComplete before etchPacketComplete. The
 * monotonic clock's nanoseconds go first, then the random eid.
 */
export function outboxEvent(
  packetEid: string,
  kind: OutboxRecord['kind'],
  payload: Record<string, unknown>,
  now: number,
): OutboxRecord {
  const order = process.hrtime.bigint().toString(36).padStart(13, '0');
  const id = `evt_${order}${newEid('').slice(1)}`;
  return {
    id,
    packetEid,
    kind,
    payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: now,
    leaseUntil: 0,
    lastError: null,
    responseCode: null,
    createdAt: now,
    deliveredAt: null,
  };
}

/** The signing request email of an `email` signer (embedded signers get their URL from generateEtchSignURL). */
export async function notifySigner(
  tx: Pick<PacketWrites, 'insertOutbox'>,
  snap: Snapshot,
  s: SignerRecord,
  now: number,
): Promise<number> {
  if (s.signerType !== 'email' || !s.email) return 0;
  await tx.insertOutbox(outboxEvent(snap.packet.eid, 'email', { mail: 'signatureRequest', signerEid: s.eid }, now));
  return 1;
}

/**
 * A webhook to the packet's `webhookURL`, else the organization's; none when neither is set.
 * The event names the packet's organization: its token and HMAC secret are read at delivery.
 */
export async function webhookEvent(
  ctx: WorkflowContext,
  tx: PacketWrites,
  snap: Snapshot,
  action: string,
  data: Record<string, unknown>,
  now: number,
): Promise<number> {
  const organization = snap.packet.organization;
  const url = snap.packet.webhookURL ?? settingsOf(ctx, organization)?.webhook?.url ?? ctx.options.webhook?.url;
  if (!url) return 0;
  await tx.insertOutbox(outboxEvent(snap.packet.eid, 'webhook', { action, url, data, organization }, now));
  return 1;
}

/** Packet complete: `etchPacketComplete` and the `etchComplete` emails of signers who want them. */
export async function completionEvents(
  ctx: WorkflowContext,
  tx: PacketWrites,
  snap: Snapshot,
  now: number,
): Promise<number> {
  const baseUrl = ctx.options.baseUrl;
  const files = snap.documents.map((d) => ({
    filename: d.filename,
    downloadURL: downloadUrl(baseUrl, snap.packet.groupEid, d.filename),
  }));
  let events = await webhookEvent(
    ctx,
    tx,
    snap,
    'etchPacketComplete',
    {
      etchPacketEid: snap.packet.eid,
      name: snap.packet.name,
      isTest: snap.packet.isTest,
      documentGroupEid: snap.packet.groupEid,
      documentGroupStatus: 'completed',
      signers: signersData(snap),
      files,
      downloadZipURL: downloadZipUrl(baseUrl, snap.packet.groupEid),
    },
    now,
  );
  for (const s of snap.signers) {
    if (s.status !== 'completed' || !s.email || !wantsCompletionEmail(s)) continue;
    await tx.insertOutbox(outboxEvent(snap.packet.eid, 'email', { mail: 'etchComplete', signerEid: s.eid }, now));
    events++;
  }
  return events;
}

/** `enableEmails`: true (or left out) sends every email; a list sends the ones it names. */
function wantsCompletionEmail(s: SignerRecord): boolean {
  const enabled = s.signer.enableEmails;
  return enabled === true || enabled === undefined || (Array.isArray(enabled) && enabled.includes('etchComplete'));
}

/** The `signerUpdateStatus` webhook for signer `s`: its status data, and `extra` for what changed. */
export function signerStatusEvent(
  ctx: WorkflowContext,
  tx: PacketWrites,
  snap: Snapshot,
  s: SignerRecord,
  now: number,
  extra: Record<string, unknown> = {},
): Promise<number> {
  return webhookEvent(ctx, tx, snap, 'signerUpdateStatus', { ...statusData(snap, s), ...extra }, now);
}

function statusData(snap: Snapshot, s: SignerRecord): Record<string, unknown> {
  return {
    etchPacketEid: snap.packet.eid,
    documentGroupEid: snap.packet.groupEid,
    documentGroupStatus: redirectGroupStatus(snap.packet.status),
    signerEid: s.eid,
    aliasId: s.aliasId,
    signerStatus: s.status,
  };
}

/** Every signer of the packet as webhooks list them. */
export function signersData(snap: Snapshot): Array<Record<string, unknown>> {
  return snap.signers.map((s) => ({ eid: s.eid, aliasId: s.aliasId, routingOrder: s.routingOrder, status: s.status }));
}
