/**
 * The last page's "Sign now": an embedded signer of the packet whose `forge` is one of the link's
 * party's forges (the definition's `signers[i].forge`) signs straight away, through
 * generateEtchSignURL. The page may be loaded again (a reload, a second tab, the framed copy): each
 * load makes a link without ending the ones made before (signing with one of them ends the others).
 */
import type { WorkflowContext } from './context.js';
import type { RunLink } from './run-access.js';

/**
 * The signing URL for the link's party, or undefined (no such signer unsigned, not embedded, no packet
 * yet). The signer of the forge the page is for (`forge`) comes first, then the party's others.
 */
export async function signingUrlFor(ctx: WorkflowContext, link: RunLink, forge?: string): Promise<string | undefined> {
  const { run, workflow } = link;
  if (!run.packetEid) return undefined;
  const mine = new Set(link.forges.map((f) => f.slug));
  const signers = await ctx.store.signers(run.packetEid);
  const ordered = [...workflow.packet.signers].sort((a, b) => Number(b.forge === forge) - Number(a.forge === forge));
  for (const defined of ordered) {
    if (defined.forge === undefined || !mine.has(defined.forge) || defined.signerType !== 'embedded') continue;
    const signer = signers.find((s) => s.aliasId === defined.id);
    if (!signer || signer.status === 'completed') continue;
    return ctx.packets.generateEtchSignURL({ signerEid: signer.eid, clientUserId: `weld:${run.eid}:${link.party}` });
  }
  return undefined;
}
