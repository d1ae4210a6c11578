/**
 * The form's last step: the person who filled a forge and is one of the packet's embedded signers
 * (the definition's `signers[i].forge`) goes straight to signing, through generateEtchSignURL.
 */
import type { WeldDataRecord } from '../packets/index.js';
import type { WeldContext } from './context.js';
import { workflowOfRun } from './run-access.js';

/** The signing URL for whoever filled `forgeSlug`, or undefined (no such signer, not embedded, no packet yet). */
export async function signingUrlFor(
  ctx: WeldContext,
  run: WeldDataRecord,
  forgeSlug: string,
): Promise<string | undefined> {
  if (!run.packetEid) return undefined;
  const workflow = workflowOfRun(ctx, run);
  const defined = workflow.packet.signers.find((s) => s.forge === forgeSlug);
  if (!defined || defined.signerType !== 'embedded') return undefined;
  const signer = (await ctx.store.signers(run.packetEid)).find((s) => s.aliasId === defined.id);
  if (!signer || signer.status === 'completed') return undefined;
  return ctx.packets.generateEtchSignURL({ signerEid: signer.eid, clientUserId: `weld:${run.eid}` });
}
