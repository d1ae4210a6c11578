/**
 * The step runner: every state change of a packet goes through `runStep`.
 *
 * Every step does its PDF work first, stores the new documents as blobs, and then commits all
 * record changes and the events they cause in one transaction, checked against the packet's
 * version: a process killed at any point leaves the packet as it was before the step or as it
 * is after it, never in between, and every committed state change has its events in the outbox.
 */
import { NotFoundError } from '../../../errors/index.js';
import type { DocumentRecord, PacketRecord, PacketWrites, SignerRecord } from '../../store/index.js';
import type { WorkflowContext } from './context.js';
import { SignerError } from '../state/errors.js';
import { visibleTo, type PacketScope } from '../state/scope.js';

/** A packet with its signers and documents as read at the start of a step; the step edits it. */
export interface Snapshot {
  packet: PacketRecord;
  signers: SignerRecord[];
  documents: DocumentRecord[];
}

const STEP_RETRIES = 5;

/** Thrown inside a transaction when the packet changed since the step read it: the step is recomputed. */
export class StaleVersion extends Error {}

/** A step's commit: record changes written through `tx`; returns how many outbox events it wrote. */
export type Commit<W> = (tx: PacketWrites, snap: Snapshot, now: number, work: W) => Promise<number>;
/** A step's preparation: PDF work and blobs, outside any transaction, on the packet as read. */
export type Prepare<W> = (snap: Snapshot, now: number) => Promise<W>;

/**
 * One state change. `prepare` runs on the packet as read, outside any transaction (PDF
 * work, blobs stored); `commit` then records the changes in one transaction that first
 * locks the packet and checks it is still the version that was read. When another step
 * committed in between, the whole step runs again on the new state.
 */
export async function runStep<W = undefined>(
  ctx: WorkflowContext,
  eid: string,
  commit: Commit<W>,
  prepare?: Prepare<W>,
): Promise<void> {
  for (let attempt = 0; ; attempt++) {
    const snap = await readSnapshot(ctx, eid);
    const now = ctx.now();
    const work = prepare ? await prepare(snap, now) : (undefined as W);
    try {
      const events = await ctx.store.transaction(async (tx) => {
        const locked = await tx.lockPacket(eid);
        if (!locked || locked.version !== snap.packet.version) throw new StaleVersion();
        const n = await commit(tx, snap, now, work);
        snap.packet.updatedAt = now;
        if (!(await tx.updatePacket(snap.packet))) throw new StaleVersion();
        return n;
      });
      if (events) ctx.options.onEvents?.();
      return;
    } catch (e) {
      if (!(e instanceof StaleVersion) || attempt >= STEP_RETRIES) throw e;
    }
  }
}

/** The packet, its signers and documents (the scope checked when given). */
export async function readSnapshot(ctx: WorkflowContext, eid: string, scope?: PacketScope): Promise<Snapshot> {
  const packet = await packetIn(ctx, eid, scope);
  return { packet, signers: await ctx.store.signers(eid), documents: await ctx.store.documents(eid) };
}

/** The packet when the scope may see it; otherwise the 404 of an unknown eid. */
export async function packetIn(
  ctx: WorkflowContext,
  eid: string,
  scope: PacketScope | undefined,
): Promise<PacketRecord> {
  const packet = await ctx.store.packet(eid);
  if (!packet || !visibleTo(packet, scope)) throw new NotFoundError(`No packet "${eid}"`, 'eid');
  return packet;
}

/** The signer when the scope may see its packet; otherwise the 404 of an unknown signer eid. */
export async function signerIn(
  ctx: WorkflowContext,
  signerEid: string,
  scope: PacketScope | undefined,
): Promise<SignerRecord> {
  const signer = await ctx.store.signer(signerEid);
  const packet = signer && scope ? await ctx.store.packet(signer.packetEid) : undefined;
  if (!signer || (scope && !(packet && visibleTo(packet, scope))))
    throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
  return signer;
}

/** The snapshot's record of a signer the step was started for (it exists: signers are never removed). */
export function signerOfSnap(snap: Snapshot, signerEid: string): SignerRecord {
  return snap.signers.find((x) => x.eid === signerEid)!;
}
