/**
 * `createEtchPacket`: assembles the documents, stores the packet, sends it unless `isDraft`.
 * The packet belongs to the scope's organization; a test-only scope (development key) makes
 * a test packet whatever `isTest` says, as the hosted API's development keys do.
 */
import { DEFAULT_ORGANIZATION, type PacketRecord, type PacketWrites, type SignerRecord } from '../store/index.js';
import { advance } from './advance.js';
import { encode } from './codec.js';
import { settingsOf, type WorkflowContext } from './context.js';
import { withSignerDefaults } from '../org.js';
import { documentsOf } from './documents.js';
import { etchPacket } from './etch-packet.js';
import { prepareForSending, storeDrafts } from './packet-documents.js';
import { storableRequest, templateVersionsOf } from './payload.js';
import type { PacketScope } from './scope.js';
import { StaleVersion, type Snapshot } from './step.js';
import { newEid } from './tokens.js';
import { assembleFor } from './own-templates.js';
import type { EtchPacketView } from './views.js';

/** What a library caller adds to the creation (not part of the GraphQL operation). */
export interface CreateEtchPacketOptions {
  /**
   * Runs inside the transaction that stores the new packet, after its records are written: the
   * caller's own records (a workflow run pointing at its packet) commit with the packet or not at
   * all, and throwing rolls the packet back (nothing stored but unreferenced blobs).
   */
  inTransaction?: (tx: PacketWrites, packet: PacketRecord) => Promise<void>;
}

export async function createEtchPacket(
  ctx: WorkflowContext,
  given: unknown,
  scope?: PacketScope,
  options: CreateEtchPacketOptions = {},
): Promise<EtchPacketView> {
  const organization = scope?.organization ?? DEFAULT_ORGANIZATION;
  // The organization's e-signature defaults, under what each signer object says itself.
  const body = withSignerDefaults(given, settingsOf(ctx, organization)?.signerDefaults);
  const assembled = await assembleFor(ctx, body, organization);
  const request = assembled.request;
  const now = ctx.now();
  const requestHash = await ctx.store.blobs.put(new TextEncoder().encode(encode(storableRequest(body))));
  const send = !(request.isDraft ?? false);
  const eid = newEid('pkt');
  const drafts = documentsOf(assembled);
  const documents = await storeDrafts(ctx, '', drafts, send ? await prepareForSending(ctx, eid, drafts) : undefined);
  const packet: PacketRecord = {
    eid,
    groupEid: newEid('grp'),
    organization,
    name: request.name,
    status: 'draft',
    isTest: scope?.testOnly === true || (request.isTest ?? false),
    allowUpdates: request.allowUpdates ?? false,
    mergePDFs: request.mergePDFs ?? false,
    webhookURL: request.webhookURL ?? null,
    requestHash,
    payload: request.payloads as PacketRecord['payload'],
    options: {
      signatureEmailSubject: request.signatureEmailSubject,
      signatureEmailBody: request.signatureEmailBody,
      replyToName: request.replyToName,
      replyToEmail: request.replyToEmail,
      signaturePageOptions: request.signaturePageOptions,
      ...(assembled.warnings.length > 0 ? { warnings: assembled.warnings } : {}),
      // Templates by reference unless duplicateCasts (#32): the versions the documents were made from.
      duplicateCasts: request.duplicateCasts ?? false,
      templates: templateVersionsOf(assembled),
    },
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    version: 0,
  };
  const signers: SignerRecord[] = request.signers.map((s, index) => ({
    eid: newEid('sgn'),
    packetEid: packet.eid,
    aliasId: s.id,
    index,
    routingOrder: s.routingOrder,
    name: s.name ?? null,
    email: s.email ?? null,
    signerType: s.signerType,
    status: s.isPending ? 'pending' : 'draft',
    pending: s.isPending,
    signer: s,
    inputsHash: null,
    clientUserId: null,
    sentAt: null,
    viewedAt: null,
    signedAt: null,
    ip: null,
    userAgent: null,
  }));
  let events = 0;
  // A new packet: inserted, not a step over a stored version (nobody else can see it yet).
  await ctx.store.transaction(async (tx) => {
    await tx.insertPacket(packet);
    for (const s of signers) await tx.insertSigner(s);
    await tx.putDocuments(
      packet.eid,
      documents.map((d) => ({ ...d, packetEid: packet.eid })),
    );
    if (send) {
      const snap: Snapshot = { packet: { ...packet, status: 'sent' }, signers, documents };
      events += await advance(tx, snap, now, { sendAll: true });
      if (!(await tx.updatePacket(snap.packet))) throw new StaleVersion();
    }
    await options.inTransaction?.(tx, packet);
  });
  if (events) ctx.options.onEvents?.();
  return etchPacket(ctx, { eid: packet.eid }, scope);
}
