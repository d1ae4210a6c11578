/** Downloads: every document of a document group as it is now (sealed once complete). */
import { NotFoundError } from '../../../errors/index.js';
import type { WorkflowContext } from '../core/context.js';
import { visibleTo, type PacketScope } from '../state/scope.js';

export async function groupDocuments(
  ctx: WorkflowContext,
  groupEid: string,
  scope?: PacketScope,
): Promise<Array<{ filename: string; pdf: Uint8Array }>> {
  const packet = await ctx.store.packetByGroup(groupEid);
  if (!packet || !visibleTo(packet, scope))
    throw new NotFoundError(`No document group "${groupEid}"`, 'documentGroupEid');
  const docs = await ctx.store.documents(packet.eid);
  return Promise.all(docs.map(async (d) => ({ filename: d.filename, pdf: await ctx.blob(d.currentHash) })));
}
