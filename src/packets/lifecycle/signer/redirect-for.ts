/**
 * Where a signer stands when their page fails: the parameters a `signerError` carries besides the
 * error (spec: Redirect query parameters), and their redirectURL when they have one. The signing
 * page's error page posts the same parameters to its parent frame.
 */
import type { WorkflowContext } from '../core/context.js';
import { redirectGroupStatus } from '../state/routing.js';
import type { SignerEvent } from '../core/session.js';

/** Undefined for an unknown signer; `url` only when the signer has a redirectURL. */
export async function redirectFor(
  ctx: WorkflowContext,
  signerEid: string,
): Promise<{ url?: string; event: SignerEvent } | undefined> {
  const s = await ctx.store.signer(signerEid);
  if (!s) return undefined;
  const packet = await ctx.store.packet(s.packetEid);
  if (!packet) return undefined;
  return {
    ...(typeof s.signer.redirectURL === 'string' ? { url: s.signer.redirectURL } : {}),
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
