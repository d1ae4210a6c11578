/**
 * A run whose forges are all in makes its packet: the definition's createEtchPacket arguments with
 * the submitted values put in, created and sent like any packet (the packet workflow's
 * createEtchPacket), in the run's organization.
 *
 * Exactly once: the run's move to `sent` with its pointer to the packet is written **inside the
 * transaction that stores the packet** (createEtchPacket's `inTransaction`), version-checked. A kill
 * before that commit leaves neither (the run stays `submitted`, the next pass makes the packet); after
 * it, both. Two makers racing (the form's post and the pass, two instances) both assemble, but the
 * second's version check fails, its transaction rolls back and its packet never exists.
 */
import type { PacketWrites, WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import type { Workflow } from '../definition/definition.js';
import {
  payloadKeyOf,
  placeOf,
  resolvePlaceholders,
  valuesOf,
  withTextOnly,
  writeValue,
} from '../definition/placeholders.js';
import { recordFailure } from './retries.js';
import { workflowOfRun } from './run-access.js';

/**
 * createEtchPacket's arguments for the run: placeholders replaced (each value written as text for the
 * place it lands in, placeholders.ts; fill values named in their payload's `textOnly`), our `forge`
 * and `emailTrusted` marks taken off the signers.
 */
export function packetArguments(workflow: Workflow, values: ReturnType<typeof valuesOf>): Record<string, unknown> {
  const packet = workflow.packet;
  const typed: Array<[string, string]> = [];
  const resolved = resolvePlaceholders(packet, values, (path, text) => {
    const key = payloadKeyOf(path);
    if (key) typed.push(key);
    return writeValue(placeOf(packet, path), text);
  }) as Record<string, unknown>;
  const signers = (resolved.signers as Array<Record<string, unknown>>).map(
    ({ forge: _forge, emailTrusted: _trusted, ...s }) => s,
  );
  return withTextOnly({ ...resolved, signers }, typed);
}

/** Thrown inside the packet's transaction when the run has its packet already: the new packet rolls back. */
class AlreadyMade extends Error {
  constructor(readonly run: WeldDataRecord) {
    super(`Run ${run.eid} has its packet already`);
  }
}

/** The run moved to `sent` with its packet, in the packet's own transaction; throws AlreadyMade when someone else did it. */
async function recordPacket(tx: PacketWrites, run: WeldDataRecord, packetEid: string, now: number): Promise<void> {
  const current = await tx.welds.weldData(run.eid);
  if (!current || current.status !== 'submitted' || current.packetEid !== null) throw new AlreadyMade(current ?? run);
  const next: WeldDataRecord = {
    ...current,
    status: 'sent',
    packetEid,
    lastError: null,
    nextAttemptAt: 0,
    updatedAt: now,
  };
  if (!(await tx.welds.updateWeldData(next))) throw new AlreadyMade(current);
}

async function makePacket(ctx: WorkflowContext, run: WeldDataRecord): Promise<WeldDataRecord> {
  const workflow = workflowOfRun(ctx, run);
  const submissions = await ctx.store.welds.submissions(run.eid);
  try {
    await ctx.packets.createEtchPacket(
      packetArguments(workflow, valuesOf(submissions)),
      { organization: run.organization, testOnly: false },
      { inTransaction: (tx, packet) => recordPacket(tx, run, packet.eid, ctx.now()) },
    );
  } catch (e) {
    if (e instanceof AlreadyMade) return (await ctx.store.welds.weldData(run.eid)) ?? e.run;
    await recordFailure(ctx, run, e);
    throw e;
  }
  return (await ctx.store.welds.weldData(run.eid))!;
}

/** makePacket unless this process is already making the run's packet (the form's post and the background pass). */
export async function makePacketOnce(ctx: WorkflowContext, run: WeldDataRecord): Promise<WeldDataRecord> {
  if (ctx.making.has(run.eid)) return run;
  ctx.making.add(run.eid);
  try {
    return await makePacket(ctx, run);
  } finally {
    ctx.making.delete(run.eid);
  }
}
