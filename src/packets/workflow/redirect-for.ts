/** Where a signer's browser goes after an error: their redirectURL and the parameters of where they stand. */
import type { WorkflowContext } from './context.js';
import { redirectGroupStatus } from './routing.js';
import type { SignerEvent } from './session.js';

/** Undefined for a signer without a redirectURL (or unknown). */
export async function redirectFor(
  ctx: WorkflowContext,
  signerEid: string,
): Promise<{ url: string; event: SignerEvent } | undefined> {
  const s = await ctx.store.signer(signerEid);
  if (!s || typeof s.signer.redirectURL !== 'string') return undefined;
  const packet = await ctx.store.packet(s.packetEid);
  if (!packet) return undefined;
  return {
    url: s.signer.redirectURL,
    event: {
      action: 'signerError',
      signerStatus: s.status,
      signerEid: s.eid,
      documentGroupStatus: redirectGroupStatus(packet.status),
      documentGroupEid: packet.groupEid,
      etchPacketEid: packet.eid,
    },
  };
}
