/**
 * Addresses typed into forms are confirmed before packet mail goes to them: when a run's last forge
 * is in and one of its `email` signers has an address from a form (not `emailTrusted` in the
 * definition), the run waits (`confirming`) and each such address gets a confirmation mail (mail.ts:
 * nothing a visitor typed in it but the address). Its owner confirms with a POST from the link's page
 * (a GET only shows it: mail scanners open links); once every address is confirmed the run is
 * `submitted` and makes its packet.
 */
import { outboxEvent, type PacketWrites, type WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from '../runs/context.js';
import type { Workflow } from '../definition/definition.js';
import { SubmissionConflictError } from '../definition/errors.js';
import { WELD_CONFIRM_MAIL } from '../runs/mail.js';
import { makePacketOnce, packetArguments } from '../runs/make-packet.js';
import { addressesToConfirm } from '../definition/parties.js';
import { valuesOf, type SubmittedValues } from '../definition/placeholders.js';
import { tokenFor } from '../runs/run-access.js';

/** Queues one confirmation mail per address the run's packet would mail unconfirmed; how many. */
export async function queueConfirmations(
  tx: Pick<PacketWrites, 'insertOutbox'>,
  workflow: Workflow,
  run: WeldDataRecord,
  values: SubmittedValues,
  now: number,
): Promise<number> {
  const addresses = addressesToConfirm(workflow, packetArguments(workflow, values));
  for (const email of addresses)
    await tx.insertOutbox(outboxEvent(run.eid, 'email', { mail: WELD_CONFIRM_MAIL, weldDataEid: run.eid, email }, now));
  return addresses.length;
}

export interface Confirmation {
  workflow: Workflow;
  run: WeldDataRecord;
  email: string;
  confirmed: boolean;
}

/** What a confirmation link is for (the same 404 as a wrong run link when it is none). */
export async function confirmation(
  ctx: WorkflowContext,
  weld: string,
  weldDataEid: unknown,
  c: unknown,
): Promise<Confirmation> {
  const { run, workflow, token } = await tokenFor(ctx, weld, weldDataEid, c, 'confirm');
  return { workflow, run, email: token.email ?? '', confirmed: token.usedAt !== null };
}

/**
 * The address confirmed; when it was the run's last unconfirmed one the run is `submitted` and makes its
 * packet. Confirming again changes nothing.
 */
export async function confirmAddress(
  ctx: WorkflowContext,
  weld: string,
  weldDataEid: unknown,
  c: unknown,
): Promise<Confirmation> {
  const { run, workflow, token } = await tokenFor(ctx, weld, weldDataEid, c, 'confirm');
  const now = ctx.now();
  const ready = await ctx.store.transaction(async (tx) => {
    await tx.welds.useWeldToken(token.hash, now);
    const current = await tx.welds.weldData(run.eid);
    if (current?.status !== 'confirming') return undefined;
    const confirmed = new Set(
      (await tx.welds.weldTokens(run.eid, 'confirm')).filter((t) => t.usedAt !== null).map((t) => t.email),
    );
    const values = valuesOf(await tx.welds.submissions(run.eid));
    const waiting = addressesToConfirm(workflow, packetArguments(workflow, values)).filter((a) => !confirmed.has(a));
    if (waiting.length > 0) return undefined;
    const next: WeldDataRecord = { ...current, status: 'submitted', updatedAt: now };
    if (!(await tx.welds.updateWeldData(next)))
      throw new SubmissionConflictError('The run changed meanwhile: open the link again', 'weldDataEid');
    return { ...next, version: next.version + 1 };
  });
  // A failure to make the packet is recorded on the run and retried by the background pass.
  const made = ready ? await makePacketOnce(ctx, ready).catch(() => ready) : undefined;
  return {
    workflow,
    run: made ?? (await ctx.store.welds.weldData(run.eid)) ?? run,
    email: token.email ?? '',
    confirmed: true,
  };
}
