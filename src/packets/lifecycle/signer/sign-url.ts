/**
 * `generateEtchSignURL`: a new token for a signer whose URL the caller makes (embedded, in-person, inline,
 * in-person-inline: docs/signature-packets.md, "Signer types"), its lifetime restarted. Earlier URLs stay valid: the
 * spec's recovery is generateEtchSignURL "again (optionally after expireSignerTokens)", so ending them
 * is the caller's choice (expireSignerTokens); signing with any one of them ends the others.
 */
import { ValidationError } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import { CALLER_URL_SIGNER_TYPES } from '../../request/request.js';
import { signUrlArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { PacketStateError } from '../state/errors.js';
import type { PacketScope } from '../state/scope.js';
import { issueToken } from '../core/signer-access.js';
import { runStep, signerIn, signerOfSnap } from '../core/step.js';

export async function generateEtchSignURL(ctx: WorkflowContext, args: unknown, scope?: PacketScope): Promise<string> {
  const { signerEid, clientUserId } = parseWith(signUrlArgs, args);
  const signer = await signerIn(ctx, signerEid, scope);
  if (!CALLER_URL_SIGNER_TYPES.includes(signer.signerType))
    throw ValidationError.of(
      'signerEid',
      `Signer "${signerEid}" is an ${signer.signerType} signer: they are mailed their link (signing URLs are generated for ${CALLER_URL_SIGNER_TYPES.join(', ')} signers)`,
    );
  let url = '';
  await runStep(ctx, signer.packetEid, async (tx, snap, now) => {
    const s = signerOfSnap(snap, signerEid);
    if (snap.packet.status === 'draft')
      throw new PacketStateError('The packet is a draft: send it first (sendEtchPacket)', 'signerEid');
    if (s.status === 'completed') throw new PacketStateError('This signer has already signed', 'signerEid');
    if (s.status === 'pending' || s.status === 'skipped')
      throw new PacketStateError(`This signer is ${s.status}`, 'signerEid');
    // The earlier links stay valid; signing with any one of them ends the others (submit-signing.ts).
    url = await issueToken(ctx, tx, s, 'embedded', now);
    s.clientUserId = clientUserId;
    await tx.updateSigner(s);
    return 0;
  });
  return url;
}
