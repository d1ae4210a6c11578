/**
 * GraphQL `forgeSubmit` (the official client's mutation): the organization's backend, by API key,
 * starts a run (no `weldDataEid`: the workflow's first forge) or submits any later forge of its runs.
 * It is the API caller's channel of the link model: no link token, the key's organization instead.
 * The submission goes through the form's own path (submit-forge.ts): the same checks, transaction,
 * hand-over mails and packet. The answer is the submission, its run and `continueURL`, the link the
 * submitted forge's party goes on with (its next form, or its done page with "Sign now").
 */
import { z } from 'zod';
import { NotFoundError, ValidationError, type FieldError } from '../../errors/index.js';
import { visibleTo, type PacketScope } from '../../packets/index.js';
import { parseWith } from '../../schema/index.js';
import type { WorkflowContext } from '../runs/context.js';
import type { Workflow } from '../definition/definition.js';
import { organizationOf } from '../definition/load.js';
import { weldUrl } from '../runs/mail.js';
import { callerRun, newSubmissionEid } from '../runs/run-access.js';
import { submitForge } from './submit.js';
import { FORM_CONTROLS } from '../definition/values.js';
import { weldDataView, type WeldDataView } from '../runs/query.js';

/**
 * The client's variables. `currentStep`, `timezone`, `isTest` (the definition's `packet.isTest`
 * decides) and `enforcePayloadValidOnCreate` (values are always checked) are accepted and ignored;
 * the ones naming what castpress does not do are refused (typed 400) rather than silently dropped.
 */
const forgeSubmitArgs = z.object({
  forgeEid: z.string().min(1).max(200),
  weldDataEid: z.string().min(1).max(200).nullish(),
  submissionEid: z.string().min(1).max(200).nullish(),
  payload: z.record(z.string(), z.unknown()),
  complete: z.boolean().nullish(),
  webhookURL: z.string().nullish(),
  groupArrayId: z.string().nullish(),
  groupArrayIndex: z.number().int().nullish(),
});

export interface SubmissionView {
  id: string;
  eid: string;
  status: 'completed';
  continueURL: string | null;
  /** The stored values by field name (`resolvedPayload`'s values). */
  payloadValue: Record<string, unknown>;
  resolvedPayload: Record<string, unknown>;
  /** Forms are one page: no step within a forge. */
  currentStep: null;
  completedAt: string;
  createdAt: string;
  updatedAt: string;
  forge: { eid: string; slug: string; name: string };
  /** The packet's signer whose person fills this forge (`signers[i].forge`), once the packet exists. */
  signer: { eid: string; name: string | null; email: string | null; status: string; routingOrder: number } | null;
  weldData: WeldDataView & { agents: null };
}

function refusals(a: z.infer<typeof forgeSubmitArgs>): FieldError[] {
  const out: FieldError[] = [];
  if (a.complete === false)
    out.push({ property: 'complete', message: 'A forge is submitted whole: partial saves are not kept' });
  if (a.webhookURL != null)
    out.push({
      property: 'webhookURL',
      message: "A run's webhook is its workflow's webhookURL, else its organization's",
    });
  for (const k of ['groupArrayId', 'groupArrayIndex'] as const)
    if (a[k] != null) out.push({ property: k, message: 'Repeating groups are not offered in forms' });
  return out;
}

/** The JSON payload as a form would post it: text; a checkbox `true`/`false`; anything else stays as sent (refused by its field). */
function formBody(forgeSlug: string, payload: Record<string, unknown>): Record<string, unknown> {
  const errors: FieldError[] = [];
  const body: Record<string, unknown> = {};
  for (const [name, v] of Object.entries(payload)) {
    if (FORM_CONTROLS.has(name))
      errors.push({ property: name, message: `Forge "${forgeSlug}" has no field "${name}"` });
    else if (v === null) continue;
    else if (typeof v === 'boolean') body[name] = v ? 'true' : '';
    else if (typeof v === 'number' && Number.isFinite(v)) body[name] = String(v);
    else body[name] = v;
  }
  if (errors.length) throw new ValidationError(errors);
  return body;
}

/** The workflow and forge `forgeEid` names, for a new run: a first forge of a workflow the caller's organization owns. */
function firstForge(ctx: WorkflowContext, forgeEid: string, scope: PacketScope | undefined): Workflow {
  const workflow = ctx.catalogue
    .all()
    .find(
      (w) =>
        w.forges.some((f) => f.eid === forgeEid) &&
        visibleTo({ organization: organizationOf(w), isTest: w.packet.isTest === true }, scope),
    );
  if (!workflow) throw new NotFoundError(`No forge "${forgeEid.slice(0, 100)}"`, 'forgeEid');
  if (workflow.forges[0]!.eid !== forgeEid)
    throw ValidationError.of('weldDataEid', `Forge "${forgeEid}" continues a run: name the run (weldDataEid)`);
  return workflow;
}

export async function forgeSubmit(ctx: WorkflowContext, args: unknown, scope?: PacketScope): Promise<SubmissionView> {
  const a = parseWith(forgeSubmitArgs, args);
  const refused = refusals(a);
  if (refused.length) throw new ValidationError(refused);
  const weldDataEid = a.weldDataEid ?? undefined;
  let workflow: Workflow;
  if (weldDataEid === undefined) workflow = firstForge(ctx, a.forgeEid, scope);
  else {
    // An unknown run, another organization's, a development key's non-test run: callerRun's one 404.
    const run = await ctx.store.welds.weldData(weldDataEid);
    workflow = (await callerRun(ctx, run?.weldEid ?? '', weldDataEid, scope)).workflow;
  }
  const forge = workflow.forges.find((f) => f.eid === a.forgeEid);
  if (!forge)
    throw new NotFoundError(`Workflow "${workflow.slug}" has no forge "${a.forgeEid.slice(0, 100)}"`, 'forgeEid');
  const done = await submitForge(ctx, {
    weld: workflow.eid,
    forge: forge.slug,
    ...(weldDataEid !== undefined ? { weldDataEid } : {}),
    body: { ...formBody(forge.slug, a.payload), submissionEid: a.submissionEid ?? newSubmissionEid() },
    caller: { scope },
  });
  const { run, submission } = done;
  const continueURL = done.next
    ? weldUrl(ctx, workflow, done.next.slug, { run: run.eid, t: done.token })
    : run.status === 'failed'
      ? null
      : weldUrl(ctx, workflow, 'done', { run: run.eid, t: done.token, forge: forge.slug, submission: submission.eid });
  const defined = workflow.packet.signers.find((s) => s.forge === forge.slug);
  const signer =
    defined && run.packetEid
      ? (await ctx.store.signers(run.packetEid)).find((s) => s.aliasId === defined.id)
      : undefined;
  const at = new Date(submission.createdAt).toISOString();
  return {
    id: submission.eid,
    eid: submission.eid,
    status: 'completed',
    continueURL,
    payloadValue: Object.fromEntries(Object.entries(submission.resolvedPayload).map(([k, v]) => [k, v.value])),
    resolvedPayload: submission.resolvedPayload,
    currentStep: null,
    completedAt: at,
    createdAt: at,
    updatedAt: at,
    forge: { eid: forge.eid, slug: forge.slug, name: forge.name },
    signer: signer
      ? {
          eid: signer.eid,
          name: signer.name,
          email: signer.email,
          status: signer.status,
          routingOrder: signer.routingOrder,
        }
      : null,
    weldData: { ...(await weldDataView(ctx, workflow, run)), agents: null },
  };
}
