/**
 * Sends a signer's signing request again (the dashboard's "resend"): one more `signatureRequest`
 * email in the outbox, composed at delivery with a new link (delivery.ts); earlier links stay valid.
 * Only for an email signer whose turn it is: not before the packet is sent, not once they signed.
 */
import type { WorkflowContext } from '../core/context.js';
import { notifySigner } from '../core/outbox.js';
import { runStep, signerIn } from '../core/step.js';
import { PacketStateError } from '../state/errors.js';
import type { PacketScope } from '../state/scope.js';

export async function resendSignatureRequest(
  ctx: WorkflowContext,
  signerEid: string,
  scope?: PacketScope,
): Promise<{ signerEid: string; queued: boolean }> {
  const found = await signerIn(ctx, signerEid, scope);
  if (found.signerType !== 'email' || !found.email)
    throw new PacketStateError('Only an email signer is sent a signing request', 'signerEid');
  let queued = false;
  await runStep(ctx, found.packetEid, async (tx, snap, now) => {
    const s = snap.signers.find((x) => x.eid === signerEid);
    if (snap.packet.status === 'draft' || snap.packet.status === 'complete')
      throw new PacketStateError(`The packet is ${snap.packet.status}: nothing to resend`, 'signerEid');
    if (!s || (s.status !== 'sent' && s.status !== 'viewed'))
      throw new PacketStateError(`The signer is ${s?.status ?? 'gone'}: it is not their turn to sign`, 'signerEid');
    const n = await notifySigner(tx, snap, s, now);
    queued = n > 0;
    return n;
  });
  return { signerEid, queued };
}
