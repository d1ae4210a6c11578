/** Query `etchPacket`: the packet as the GraphQL operations return it. */
import { parseWith } from '../../../schema/index.js';
import type { TokenRecord } from '../../store/index.js';
import { packetArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import type { PacketScope } from '../state/scope.js';
import { readSnapshot } from '../core/step.js';
import { followTemplates } from './template-refs.js';
import { etchPacketView, type EtchPacketView } from '../state/views.js';

export async function etchPacket(ctx: WorkflowContext, args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
  const { eid } = parseWith(packetArgs, args);
  let snap = await readSnapshot(ctx, eid, scope);
  // By reference: a newer template version is taken while nobody has signed.
  if (await followTemplates(ctx, eid)) snap = await readSnapshot(ctx, eid, scope);
  const tokens = new Map<string, TokenRecord[]>();
  for (const s of snap.signers) tokens.set(s.eid, await ctx.store.tokens(s.eid));
  return etchPacketView(snap.packet, snap.signers, snap.documents, tokens, ctx.options.baseUrl, ctx.now());
}
