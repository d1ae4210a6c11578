/** Signer step "view": opens the signing page, checks the token, marks the signer `viewed` (signerLoad). */
import { isStorageFull } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { signerAccessArgs } from './args.js';
import type { WorkflowContext } from './context.js';
import { statusData, webhookEvent } from './outbox.js';
import { sessionOf, type SigningSession } from './session.js';
import { access, assertTurn } from './signer-access.js';
import { readSnapshot, runStep, signerOfSnap } from './step.js';

export async function openSigning(ctx: WorkflowContext, args: unknown): Promise<SigningSession> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const { signer } = await access(ctx, signerEid, token);
  let session: SigningSession | undefined;
  try {
    await runStep(ctx, signer.packetEid, async (tx, snap, now) => {
      const s = signerOfSnap(snap, signerEid);
      assertTurn(snap, s, false);
      let events = 0;
      if (s.status === 'sent') {
        s.status = 'viewed';
        s.viewedAt = now;
        await tx.updateSigner(s);
        events += await webhookEvent(ctx, tx, snap, 'signerUpdateStatus', statusData(snap, s), now);
      }
      session = sessionOf(snap, s);
      return events;
    });
  } catch (e) {
    if (!isStorageFull(e)) throw e;
    // A full disk: the page still opens, to be read; "viewed" (and its webhook) waits for a later open, or signing sets it.
    const snap = await readSnapshot(ctx, signer.packetEid);
    const s = signerOfSnap(snap, signerEid);
    assertTurn(snap, s, false);
    session = sessionOf(snap, s);
  }
  return session!;
}
