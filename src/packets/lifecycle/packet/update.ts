/** `updateEtchPacket`: new name and/or payload (replaced, or merged with `mergePayloads`); documents re-rendered. */
import { parseWith } from '../../../schema/index.js';
import type { DocumentRecord, PacketRecord } from '../../store/index.js';
import { updatePacketArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { PacketStateError } from '../state/errors.js';
import { etchPacket } from './read.js';
import { rerender } from './packet-documents.js';
import { mergePayload } from '../state/payload.js';
import type { PacketScope } from '../state/scope.js';
import { readSnapshot, runStep } from '../core/step.js';
import type { EtchPacketView } from '../state/views.js';

const COMPLETE = 'The packet is complete: updates are no longer accepted';

export async function updateEtchPacket(
  ctx: WorkflowContext,
  args: unknown,
  scope?: PacketScope,
): Promise<EtchPacketView> {
  const a = parseWith(updatePacketArgs, args);
  const current = await readSnapshot(ctx, a.eid, scope);
  const payloadUpdate = a.payload ?? undefined;
  if (payloadUpdate !== undefined && !current.packet.allowUpdates) {
    throw new PacketStateError('The packet was created without allowUpdates: its payload cannot change', 'payload');
  }
  if (current.packet.status === 'complete') throw new PacketStateError(COMPLETE, 'eid');
  await runStep<{ payload: PacketRecord['payload']; documents: DocumentRecord[] } | undefined>(
    ctx,
    a.eid,
    async (tx, snap, _now, work) => {
      if (a.name) snap.packet.name = a.name;
      if (work) {
        snap.packet.payload = work.payload;
        snap.documents = work.documents;
        await tx.putDocuments(snap.packet.eid, work.documents);
      }
      return 0;
    },
    async (snap) => {
      if (payloadUpdate === undefined) return undefined;
      if (snap.packet.status === 'complete') throw new PacketStateError(COMPLETE, 'eid');
      const payload = mergePayload(snap.packet.payload, payloadUpdate, a.mergePayloads ?? false);
      return { payload, documents: await rerender(ctx, snap, payload) };
    },
  );
  return etchPacket(ctx, { eid: a.eid }, scope);
}
