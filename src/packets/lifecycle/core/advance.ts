/**
 * Routing moved on inside a step's transaction: the records follow what `route` (routing.ts,
 * pure) decides, and the signers whose round came are asked.
 */
import type { PacketWrites } from '../../store/index.js';
import { notifySigner } from './outbox.js';
import { packetStatus, route } from '../state/routing.js';
import type { Snapshot } from './step.js';

/**
 * Skips pending signers whose round came with only pending ones left, asks the current
 * signers (email for `email` signers) once, sets the packet's status. `sendAll`: every
 * draft signer becomes sent (the packet is being sent). Returns the outbox events written.
 */
export async function advance(
  tx: Pick<PacketWrites, 'updateSigner' | 'insertOutbox'>,
  snap: Snapshot,
  now: number,
  options: { sendAll?: boolean },
): Promise<number> {
  let events = 0;
  if (options.sendAll) {
    for (const s of snap.signers) {
      if (s.status === 'draft') {
        s.status = 'sent';
        await tx.updateSigner(s);
      }
    }
  }
  const skipped = route(snap.signers).skip;
  for (const eid of skipped) {
    const s = snap.signers.find((x) => x.eid === eid)!;
    s.status = 'skipped';
    await tx.updateSigner(s);
  }
  const routing = route(snap.signers);
  for (const s of snap.signers.filter((x) => routing.current.includes(x.eid) && x.sentAt === null)) {
    s.sentAt = now;
    await tx.updateSigner(s);
    events += await notifySigner(tx, snap, s, now);
  }
  snap.packet.status = packetStatus(snap.packet.status, snap.signers, routing);
  if (snap.packet.status === 'complete' && snap.packet.completedAt === null) snap.packet.completedAt = now;
  return events;
}
