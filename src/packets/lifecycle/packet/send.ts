/** `sendEtchPacket`: a draft becomes sent; a sent or partial packet re-notifies its current email signers. */
import { parseWith } from '../../../schema/index.js';
import { advance } from '../core/advance.js';
import { sendArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { PacketStateError } from '../state/errors.js';
import { etchPacket } from './read.js';
import { prepareForSending } from './packet-documents.js';
import { notifySigner } from '../core/outbox.js';
import { route } from '../state/routing.js';
import type { PacketScope } from '../state/scope.js';
import { packetIn, runStep } from '../core/step.js';
import type { EtchPacketView } from '../state/views.js';

export async function sendEtchPacket(
  ctx: WorkflowContext,
  args: unknown,
  scope?: PacketScope,
): Promise<EtchPacketView> {
  const { eid } = parseWith(sendArgs, args);
  await packetIn(ctx, eid, scope);
  await runStep<string[] | undefined>(
    ctx,
    eid,
    async (tx, snap, now, sent) => {
      if (snap.packet.status === 'complete')
        throw new PacketStateError('The packet is complete: every signer has signed', 'eid');
      if (snap.packet.status === 'draft') {
        snap.packet.status = 'sent';
        if (sent) {
          // The documents as sent: mark fields and the operator's certification; nobody signed a draft.
          snap.documents = snap.documents.map((d, i) => ({ ...d, currentHash: sent[i]! }));
          await tx.putDocuments(snap.packet.eid, snap.documents);
        }
        return advance(tx, snap, now, { sendAll: true });
      }
      const routing = route(snap.signers);
      let events = 0;
      for (const s of snap.signers.filter((x) => routing.current.includes(x.eid) && x.status !== 'completed'))
        events += await notifySigner(tx, snap, s, now);
      return events;
    },
    async (snap) => {
      if (snap.packet.status !== 'draft') return undefined;
      const docs = await Promise.all(
        snap.documents.map(async (d) => ({ pdf: await ctx.blob(d.currentHash), fields: d.fields })),
      );
      const sent = await prepareForSending(ctx, snap.packet.eid, docs);
      return sent && (await Promise.all(sent.map((pdf) => ctx.store.blobs.put(pdf))));
    },
  );
  return etchPacket(ctx, { eid }, scope);
}
