/** `updateSigner`: name/email of a signer who has not signed; `activateIfPending` activates a pending signer. */
import { ValidationError } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import type { SignerRecord } from '../../store/index.js';
import { advance } from '../core/advance.js';
import { updateSignerArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { PacketStateError } from '../state/errors.js';
import type { PacketScope } from '../state/scope.js';
import { runStep, signerIn, signerOfSnap } from '../core/step.js';

export async function updateSigner(
  ctx: WorkflowContext,
  args: unknown,
  scope?: PacketScope,
): Promise<{ eid: string; name: string | null; email: string | null; status: string }> {
  const a = parseWith(updateSignerArgs, args);
  const found = await signerIn(ctx, a.eid, scope);
  let result: SignerRecord = found;
  await runStep(ctx, found.packetEid, async (tx, snap, now) => {
    const s = signerOfSnap(snap, a.eid);
    if (snap.packet.status === 'complete')
      throw new PacketStateError('The packet is complete: updates are no longer accepted', 'eid');
    if (s.status === 'completed')
      throw new PacketStateError('This signer has already signed: name and email can no longer change', 'eid');
    if (s.status === 'skipped')
      throw new PacketStateError('This pending signer was skipped: its round passed before it was activated', 'eid');
    const name = a.name ?? s.name;
    const email = a.email ?? s.email;
    const activate = s.pending && a.activateIfPending === true;
    if (activate && (!name || !email)) {
      throw new ValidationError([
        ...(!name ? [{ property: 'name', message: 'An activated signer needs a name' }] : []),
        ...(!email ? [{ property: 'email', message: 'An activated signer needs an email' }] : []),
      ]);
    }
    s.name = name;
    s.email = email;
    s.signer = { ...s.signer, name: name ?? undefined, email: email ?? undefined };
    let events = 0;
    if (activate) {
      s.pending = false;
      s.status = snap.packet.status === 'draft' ? 'draft' : 'sent';
      await tx.updateSigner(s);
      if (snap.packet.status !== 'draft') events += await advance(tx, snap, now, {});
    } else {
      await tx.updateSigner(s);
    }
    result = s;
    return events;
  });
  return { eid: result.eid, name: result.name, email: result.email, status: result.status };
}
