/**
 * A failed outbox event of a packet (a webhook or an email) tried again at once, by hand (the
 * dashboard's "retry"): the store puts it back in line and the dispatcher is woken. An event of a
 * packet outside the scope is unknown.
 */
import { NotFoundError } from '../../../errors/index.js';
import type { WorkflowContext } from '../core/context.js';
import { packetIn } from '../core/step.js';
import { PacketStateError } from '../state/errors.js';
import type { PacketScope } from '../state/scope.js';

export async function retryDelivery(
  ctx: WorkflowContext,
  packetEid: string,
  id: string,
  scope?: PacketScope,
): Promise<{ id: string; status: 'pending' }> {
  await packetIn(ctx, packetEid, scope);
  const event = (await ctx.store.outbox({ packetEid })).find((e) => e.id === id);
  if (!event) throw new NotFoundError(`No delivery "${id}" of this packet`, 'id');
  if (!(await ctx.store.requeueOutbox(id, ctx.now())))
    throw new PacketStateError(`The delivery is ${event.status}: only a failed or waiting one is retried`, 'id');
  ctx.options.onEvents?.();
  return { id, status: 'pending' };
}
