/**
 * A forge submitted: checked (the forge is the run's next one, every value valid for its fill type,
 * the form's submission id not used before), then stored with the run's new state in **one
 * transaction**; a first forge starts the run in the same transaction. The last forge makes the
 * run's packet (make-packet.ts) once the submission is safely stored.
 */
import type { SubmissionRecord, WeldDataRecord } from '../packets/index.js';
import type { WeldContext } from './context.js';
import type { Forge, Workflow } from './definition.js';
import { SubmissionConflictError } from './errors.js';
import { organizationOf } from './load.js';
import { makePacketOnce } from './make-packet.js';
import { resolvePlaceholders, valuesOf, type SubmittedValues } from './placeholders.js';
import {
  checkSubmissionEid,
  forgeOf,
  hashToken,
  newEid,
  newToken,
  runFor,
  workflowBySlug,
  workflowOfRun,
} from './run-access.js';
import { resolveSubmission } from './values.js';

export interface ForgeSubmission {
  /** The workflow's slug (or eid). */
  weld: string;
  forge: string;
  /** The run and its token; absent for the first forge (which starts a run). */
  weldDataEid?: unknown;
  token?: unknown;
  /** The posted form: field values and the form's `submissionEid`. */
  body: Record<string, unknown>;
}

export interface SubmittedForge {
  workflow: Workflow;
  run: WeldDataRecord;
  /** The run's token (a new one for a run this submission started). */
  token: string;
  submission: SubmissionRecord;
  /** The forge to fill next; undefined after the last one. */
  next?: Forge;
}

function displayTitle(workflow: Workflow, values: SubmittedValues): string {
  const t = workflow.displayTitle ? String(resolvePlaceholders(workflow.displayTitle, values) ?? '') : '';
  return t.trim() || workflow.title;
}

export async function submitForge(ctx: WeldContext, input: ForgeSubmission): Promise<SubmittedForge> {
  const starting = input.weldDataEid === undefined;
  const existing = starting ? undefined : await runFor(ctx, input.weldDataEid, input.token);
  const workflow = existing ? workflowOfRun(ctx, existing) : workflowBySlug(ctx, input.weld);
  if (existing && input.weld !== workflow.slug && input.weld !== workflow.eid)
    throw new SubmissionConflictError(`Run ${existing.eid} belongs to workflow "${workflow.slug}"`, 'weld');
  const forge = forgeOf(workflow, input.forge);
  const submissionEid = checkSubmissionEid(input.body.submissionEid);
  const resolvedPayload = resolveSubmission(forge, input.body);
  const now = ctx.now();
  const token = starting ? newToken() : String(input.token);
  const run: WeldDataRecord = existing ?? {
    eid: newEid('wd'),
    weldEid: workflow.eid,
    weldVersion: workflow.version,
    organization: organizationOf(workflow),
    status: 'open',
    isTest: workflow.packet.isTest === true,
    tokenHash: hashToken(token),
    displayTitle: workflow.title,
    packetEid: null,
    lastError: null,
    createdAt: now,
    updatedAt: now,
    completedAt: null,
    version: 0,
  };
  // Forges are submitted in the definition's order (checked in the transaction): the forge's place is the submission's.
  const index = workflow.forges.findIndex((f) => f.eid === forge.eid);
  const submission: SubmissionRecord = {
    eid: submissionEid,
    weldDataEid: run.eid,
    forgeEid: forge.eid,
    forgeSlug: forge.slug,
    index,
    resolvedPayload,
    createdAt: now,
  };
  const stored = await ctx.store
    .transaction(async (tx) => {
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
      const last = all.length === workflow.forges.length;
      const next: WeldDataRecord = {
        ...current,
        status: last ? 'submitted' : 'open',
        displayTitle: displayTitle(workflow, valuesOf(all)),
        updatedAt: now,
      };
      if (starting) await tx.welds.insertWeldData(next);
      else if (!(await tx.welds.updateWeldData(next)))
        throw new SubmissionConflictError('The run changed meanwhile: reload the form', 'weldDataEid');
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
  const nextForge = workflow.forges[index + 1];
  // The submission is stored: a failure to make the packet is recorded on the run and retried (service.ts).
  const finalRun = nextForge ? stored : await makePacketOnce(ctx, stored).catch(() => stored);
  return { workflow, run: finalRun, token, submission, ...(nextForge ? { next: nextForge } : {}) };
}
