/** `expireSignerTokens` (arguments not shown by the spec: the signer's eid): every token of the signer ends now. */
import { parseWith } from '../../../schema/index.js';
import { expireArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import type { PacketScope } from '../state/scope.js';
import { signerIn } from '../core/step.js';

export async function expireSignerTokens(
  ctx: WorkflowContext,
  args: unknown,
  scope?: PacketScope,
): Promise<{ signerEid: string; expired: number }> {
  const { signerEid } = parseWith(expireArgs, args);
  await signerIn(ctx, signerEid, scope);
  const now = ctx.now();
  const expired = await ctx.store.transaction((tx) => tx.invalidateTokens(signerEid, now));
  return { signerEid, expired };
}
