/**
 * Signer step "details": a signer changes their own name or email: allowed by allowNameChange /
 * allowEmailChange, and asked for by requireNameOnLoad / requireEmailOnLoad (the time it was
 * entered is kept: signing waits for it). `signerUpdateStatus`. The new name is what the name
 * fields and certificate show.
 */
import { ValidationError } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import { signerAccessArgs, updateSignerArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { signerStatusEvent } from '../core/outbox.js';
import { assertHandedOver } from './hand-over.js';
import { access, assertTurn } from '../core/signer-access.js';
import { runStep, signerOfSnap } from '../core/step.js';

export async function updateOwnDetails(
  ctx: WorkflowContext,
  args: unknown,
  change: { name?: string; email?: string },
): Promise<void> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const c = parseWith(updateSignerArgs.pick({ name: true, email: true }), change);
  const { signer, token: presented } = await access(ctx, signerEid, token);
  await runStep(ctx, signer.packetEid, async (tx, snap, now) => {
    const s = signerOfSnap(snap, signerEid);
    assertTurn(snap, s, true);
    // In person: whoever holds the device cannot make the name theirs before confirming it.
    assertHandedOver(s, presented.eid);
    if (c.name && s.signer.allowNameChange !== true && s.signer.requireNameOnLoad !== true)
      throw ValidationError.of('name', 'This signer may not change their name');
    if (c.email && s.signer.allowEmailChange !== true && s.signer.requireEmailOnLoad !== true)
      throw ValidationError.of('email', 'This signer may not change their email');
    if (c.name) s.name = c.name;
    if (c.email) s.email = c.email;
    s.signer = {
      ...s.signer,
      name: s.name ?? undefined,
      email: s.email ?? undefined,
      ...(c.name && s.signer.requireNameOnLoad === true ? { nameEnteredAt: now } : {}),
      ...(c.email && s.signer.requireEmailOnLoad === true ? { emailEnteredAt: now } : {}),
    };
    await tx.updateSigner(s);
    return signerStatusEvent(ctx, tx, snap, s, now, { name: s.name, email: s.email });
  });
}
