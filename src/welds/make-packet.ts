/**
 * A run whose forges are all in makes its packet: the definition's createEtchPacket arguments with
 * the submitted values put in, created and sent like any packet (the packet workflow's
 * createEtchPacket), then the packet recorded on the run.
 *
 * Crash window: the packet commits in its own transaction, the run's pointer to it in the next one.
 * A crash between them leaves the run `submitted`, and the next pass makes a second packet (the first
 * stays unreferenced); a failure before the packet commits leaves nothing but the run's lastError.
 */
import type { WeldDataRecord } from '../packets/index.js';
import type { WeldContext } from './context.js';
import type { Workflow } from './definition.js';
import { resolvePlaceholders, valuesOf } from './placeholders.js';
import { workflowOfRun } from './run-access.js';

/** createEtchPacket's arguments for the run: placeholders replaced, our `forge` marks taken off the signers. */
export function packetArguments(workflow: Workflow, values: ReturnType<typeof valuesOf>): Record<string, unknown> {
  const resolved = resolvePlaceholders(workflow.packet, values) as Record<string, unknown>;
  const signers = (resolved.signers as Array<Record<string, unknown>>).map(({ forge: _forge, ...s }) => s);
  return { ...resolved, signers };
}

export async function makePacket(ctx: WeldContext, run: WeldDataRecord): Promise<WeldDataRecord> {
  const workflow = workflowOfRun(ctx, run);
  const submissions = await ctx.store.welds.submissions(run.eid);
  let packetEid: string;
  try {
    const view = await ctx.packets.createEtchPacket(packetArguments(workflow, valuesOf(submissions)), {
      organization: run.organization,
      testOnly: false,
    });
    packetEid = view.eid;
  } catch (e) {
    const lastError = e instanceof Error ? e.message : String(e);
    await ctx.store.transaction(async (tx) => {
      const current = await tx.welds.weldData(run.eid);
      if (current?.status === 'submitted')
        await tx.welds.updateWeldData({ ...current, lastError, updatedAt: ctx.now() });
    });
    throw e;
  }
  return ctx.store.transaction(async (tx) => {
    const current = (await tx.welds.weldData(run.eid))!;
    const next: WeldDataRecord = { ...current, status: 'sent', packetEid, lastError: null, updatedAt: ctx.now() };
    if (current.status === 'submitted') await tx.welds.updateWeldData(next);
    return { ...next, version: current.version + 1 };
  });
}

/** makePacket unless this process is already making the run's packet (the form's post and the background pass). */
export async function makePacketOnce(ctx: WeldContext, run: WeldDataRecord): Promise<WeldDataRecord> {
  if (ctx.making.has(run.eid)) return run;
  ctx.making.add(run.eid);
  try {
    return await makePacket(ctx, run);
  } finally {
    ctx.making.delete(run.eid);
  }
}
