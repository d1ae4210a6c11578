/**
 * A forge submitted: checked (the forge is the run's next one and the link's party's, every value
 * valid for its fill type, the form's submission id not used before), then stored with the run's new
 * state in **one transaction**; a first forge starts the run (and its starter's token) in the same
 * transaction. When the next forge is another party's, that party's link mail is queued in it too;
 * after the last forge the run waits for typed addresses to be confirmed (confirmations.ts) or makes
 * its packet (make-packet.ts) once the submission is safely stored.
 */
import {
  outboxEvent,
  type PacketScope,
  type PacketWrites,
  type SubmissionRecord,
  type WeldDataRecord,
} from '../../packets/index.js';
import { queueConfirmations } from './confirmations.js';
import type { WorkflowContext } from '../runs/context.js';
import type { WorkflowForm, Workflow } from '../definition/definition.js';
import { SubmissionConflictError } from '../definition/errors.js';
import { organizationOf } from '../definition/load.js';
import { WELD_LINK_MAIL } from '../runs/mail.js';
import { makePacketOnce } from '../runs/make-packet.js';
import { partyOf } from '../definition/parties.js';
import { resolvePlaceholders, valuesOf, type SubmittedValues } from '../definition/placeholders.js';
import {
  callerRun,
  checkSubmissionEid,
  formOf,
  hashToken,
  newEid,
  newToken,
  partyForm,
  runFor,
  workflowBySlug,
} from '../runs/run-access.js';
import { resolveSubmission } from '../definition/values.js';

export interface FormSubmission {
  /** The workflow's slug (or eid). */
  weld: string;
  forge: string;
  /** The run and the link's token; absent for the first forge (which starts a run). */
  weldDataEid?: unknown;
  token?: unknown;
  /** The posted form: field values and the form's `submissionEid`. */
  body: Record<string, unknown>;
  /**
   * Set when the organization's backend submits by API key (forge-submit.ts): any forge of its runs,
   * no link token; the submitted forge's party gets a new token for the next link.
   */
  caller?: { scope: PacketScope | undefined };
}

export interface SubmittedForm {
  workflow: Workflow;
  run: WeldDataRecord;
  /** The link's token (a new one for a run this submission started, and for a backend's submission). */
  token: string;
  submission: SubmissionRecord;
  /** The holder's next forge; undefined after their last one (the next is another party's, or none is left). */
  next?: WorkflowForm;
}

function displayTitle(workflow: Workflow, values: SubmittedValues): string {
  const t = workflow.displayTitle ? String(resolvePlaceholders(workflow.displayTitle, values) ?? '') : '';
  return t.trim() || workflow.title;
}

/** A new run's record (stored by its first submission's transaction). */
function newRun(workflow: Workflow, now: number): WeldDataRecord {
  return {
    eid: newEid('wd'),
    weldEid: workflow.eid,
    weldVersion: workflow.version,
    organization: organizationOf(workflow),
    status: 'open',
    isTest: workflow.packet.isTest === true,
    displayTitle: workflow.title,
    packetEid: null,
    lastError: null,
    attempts: 0,
    nextAttemptAt: 0,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    version: 0,
  };
}

/** The next party's turn: an email assignee's link is mailed (composed at delivery, mail.ts); an `api` one is asked for. */
async function handOver(
  tx: PacketWrites,
  run: WeldDataRecord,
  next: WorkflowForm,
  party: number,
  now: number,
): Promise<number> {
  if (next.assignee === undefined || next.assignee === 'api') return 0;
  await tx.insertOutbox(outboxEvent(run.eid, 'email', { mail: WELD_LINK_MAIL, weldDataEid: run.eid, party }, now));
  return 1;
}

export async function submitForge(ctx: WorkflowContext, input: FormSubmission): Promise<SubmittedForm> {
  const starting = input.weldDataEid === undefined;
  const caller = input.caller;
  const link = starting || caller ? undefined : await runFor(ctx, input.weld, input.weldDataEid, input.token);
  const reached = starting ? undefined : (link ?? (await callerRun(ctx, input.weld, input.weldDataEid, caller?.scope)));
  const workflow = reached ? reached.workflow : workflowBySlug(ctx, input.weld);
  // A link opens its party's forges; the organization's backend any of its runs' forges.
  const forge = link ? partyForm(link, input.forge) : formOf(workflow, input.forge);
  const submissionEid = checkSubmissionEid(input.body.submissionEid);
  const resolvedPayload = resolveSubmission(forge, input.body);
  const now = ctx.now();
  const minting = starting || caller !== undefined;
  const token = minting ? newToken() : String(input.token);
  const run = reached ? reached.run : newRun(workflow, now);
  // Forges are submitted in the definition's order (checked in the transaction): the forge's place is the submission's.
  const index = workflow.forges.findIndex((f) => f.eid === forge.eid);
  const nextForge = workflow.forges[index + 1];
  const party = partyOf(workflow, index);
  const nextParty = nextForge ? partyOf(workflow, index + 1) : party;
  const submission: SubmissionRecord = {
    eid: submissionEid,
    weldDataEid: run.eid,
    forgeEid: forge.eid,
    forgeSlug: forge.slug,
    index,
    resolvedPayload,
    createdAt: now,
  };
  let queued = 0;
  const stored = await ctx.store
    .transaction(async (tx) => {
      queued = 0;
      if (await tx.welds.submission(submissionEid))
        throw new SubmissionConflictError(
          'This form was already submitted (a repeated or replayed post)',
          'submissionEid',
        );
      const current = starting ? run : await tx.welds.weldData(run.eid);
      if (!current) throw new SubmissionConflictError(`Run ${run.eid} is gone`, 'weldDataEid');
      const earlier = starting ? [] : await tx.welds.submissions(run.eid);
      const expected = workflow.forges[earlier.length];
      if (current.status !== 'open' || !expected)
        throw new SubmissionConflictError(`Every forge of run ${run.eid} is already submitted`, 'forge');
      if (earlier.some((s) => s.forgeEid === forge.eid))
        throw new SubmissionConflictError(`Forge "${forge.slug}" of this run is already submitted`, 'forge');
      if (expected.eid !== forge.eid)
        throw new SubmissionConflictError(`This run's next forge is "${expected.slug}", not "${forge.slug}"`, 'forge');
      const all = [...earlier, submission];
      const values = valuesOf(all);
      const last = all.length === workflow.forges.length;
      const next: WeldDataRecord = {
        ...current,
        status: last ? 'submitted' : 'open',
        displayTitle: displayTitle(workflow, values),
        updatedAt: now,
      };
      if (last) {
        queued += await queueConfirmations(tx, workflow, next, values, now);
        if (queued > 0) next.status = 'confirming';
      } else if (nextParty !== party) queued += await handOver(tx, next, nextForge!, nextParty, now);
      if (starting) await tx.welds.insertWeldData(next);
      else if (!(await tx.welds.updateWeldData(next)))
        throw new SubmissionConflictError('The run changed meanwhile: reload the form', 'weldDataEid');
      if (minting)
        await tx.welds.insertWeldToken({
          hash: hashToken(token),
          weldDataEid: next.eid,
          kind: 'party',
          party,
          email: null,
          createdAt: now,
          usedAt: null,
        });
      await tx.welds.insertSubmission(submission);
      return { ...next, version: starting ? next.version : next.version + 1 };
    })
    .catch(async (e: unknown) => {
      // Two posts of the same form racing: the unique constraints let one commit; the other is the same 409.
      if (!(e instanceof SubmissionConflictError) && (await ctx.store.welds.submission(submissionEid)))
        throw new SubmissionConflictError(
          'This form was already submitted (a repeated or replayed post)',
          'submissionEid',
        );
      throw e;
    });
  if (queued > 0) ctx.options.onEvents?.();
  // The submission is stored: a failure to make the packet is recorded on the run and retried (complete-runs.ts).
  const finalRun = stored.status === 'submitted' ? await makePacketOnce(ctx, stored).catch(() => stored) : stored;
  const holderNext = nextForge && nextParty === party ? nextForge : undefined;
  return { workflow, run: finalRun, token, submission, ...(holderNext ? { next: holderNext } : {}) };
}
