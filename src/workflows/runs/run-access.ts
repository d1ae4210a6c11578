/**
 * A run's access: 256-bit tokens in links (only their SHA-256 is stored), each opening one party's
 * forms of one run of one workflow; the one-time submission ids each rendered form carries; the run's
 * workflow and forges.
 */
import { createHash, randomBytes } from 'node:crypto';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import {
  visibleTo,
  type PacketScope,
  type WeldDataRecord,
  type RunTokenRecord,
  type WorkflowRunWrites,
} from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import type { WorkflowForm, Workflow } from '../definition/definition.js';
import { organizationOf } from '../definition/load.js';
import { formsOf } from '../definition/parties.js';

export const newToken = (): string => randomBytes(32).toString('base64url');
export const hashToken = (token: string): string => createHash('sha256').update(token).digest('hex');
export const newEid = (prefix: string): string => `${prefix}_${randomBytes(15).toString('base64url')}`;

/** A fresh submission id for a rendered form: the form posts it back, and a second post of it is a replay. */
export const newSubmissionEid = (): string => newEid('sub');
const SUBMISSION_EID = /^sub_[A-Za-z0-9_-]{16,64}$/;

export function checkSubmissionEid(value: unknown): string {
  if (typeof value !== 'string' || !SUBMISSION_EID.test(value))
    throw ValidationError.of('submissionEid', 'Missing or malformed: reload the form and submit it again');
  return value;
}

export function workflowBySlug(ctx: WorkflowContext, slug: string): Workflow {
  const w = ctx.catalogue.bySlug(slug) ?? ctx.catalogue.get(slug);
  if (!w) throw new NotFoundError(`No workflow "${slug}"`, 'weld');
  return w;
}

export function formOf(workflow: Workflow, slug: string): WorkflowForm {
  const f = workflow.forges.find((x) => x.slug === slug);
  if (!f) throw new NotFoundError(`Workflow "${workflow.slug}" has no forge "${slug}"`, 'forge');
  return f;
}

/** What a party's link opens: the run, its workflow (the run's version) and the party. */
export interface RunLink {
  run: WeldDataRecord;
  workflow: Workflow;
  party: number;
  /** The party's forges, in order. */
  forges: WorkflowForm[];
}

const unknownRun = (weldDataEid: unknown): NotFoundError =>
  new NotFoundError(`No workflow run "${String(weldDataEid).slice(0, 100)}" for this link`, 'weldDataEid');

const lookUpRun = async (ctx: WorkflowContext, weldDataEid: unknown): Promise<WeldDataRecord | undefined> =>
  typeof weldDataEid === 'string' && weldDataEid.length < 100 ? ctx.store.welds.weldData(weldDataEid) : undefined;

/** The run's workflow when it is the one the URL names (`weld`: slug or eid) and its organization's run; else the unknown run's 404. */
function namedWorkflowOf(ctx: WorkflowContext, weld: string, run: WeldDataRecord): Workflow {
  const workflow = ctx.catalogue.get(run.weldEid, run.weldVersion) ?? ctx.catalogue.get(run.weldEid);
  if (!workflow || (weld !== workflow.slug && weld !== workflow.eid) || organizationOf(workflow) !== run.organization)
    throw unknownRun(run.eid);
  return workflow;
}

/**
 * A token of the run of kind `kind`, for the workflow the URL names (`weld`: slug or eid): the run
 * must be that workflow's and its organization's. An unknown run, a wrong token, another workflow's
 * run: the same 404 (nothing learnt).
 */
export async function tokenFor(
  ctx: WorkflowContext,
  weld: string,
  weldDataEid: unknown,
  token: unknown,
  kind: RunTokenRecord['kind'],
): Promise<{ run: WeldDataRecord; workflow: Workflow; token: RunTokenRecord }> {
  const run = await lookUpRun(ctx, weldDataEid);
  // Looked up by the SHA-256 of 256 random bits: the lookup's timing tells nothing usable about a token.
  const found =
    typeof token === 'string' && token.length > 0 && token.length < 100
      ? await ctx.store.welds.weldToken(hashToken(token))
      : undefined;
  if (!run || !found || found.weldDataEid !== run.eid || found.kind !== kind) throw unknownRun(weldDataEid);
  const workflow = namedWorkflowOf(ctx, weld, run);
  return { run, workflow, token: found };
}

/** The run and party a link opens (run + party token, under the workflow the URL names). */
export async function runFor(
  ctx: WorkflowContext,
  weld: string,
  weldDataEid: unknown,
  token: unknown,
): Promise<RunLink> {
  const { run, workflow, token: t } = await tokenFor(ctx, weld, weldDataEid, token, 'party');
  return { run, workflow, party: t.party, forges: formsOf(workflow, t.party) };
}

/**
 * The run of workflow `weld` as its organization's backend reaches it (an API key's `scope`, no link
 * token): another organization's run, a development key's non-test run and another workflow's are
 * answered as an unknown one.
 */
export async function callerRun(
  ctx: WorkflowContext,
  weld: string,
  weldDataEid: unknown,
  scope: PacketScope | undefined,
): Promise<{ run: WeldDataRecord; workflow: Workflow }> {
  const run = await lookUpRun(ctx, weldDataEid);
  if (!run || !visibleTo(run, scope)) throw unknownRun(weldDataEid);
  const workflow = namedWorkflowOf(ctx, weld, run);
  return { run, workflow };
}

/** The link's forge named `slug`: one of its party's, else the same 404 as a wrong link. */
export function partyForm(link: RunLink, slug: string): WorkflowForm {
  const f = link.forges.find((x) => x.slug === slug);
  if (!f) throw unknownRun(link.run.eid);
  return f;
}

/** A new token of the run, stored as its hash; the token itself goes only into a link. */
export async function mintToken(
  tx: Pick<WorkflowRunWrites, 'insertWeldToken'>,
  run: WeldDataRecord,
  kind: RunTokenRecord['kind'],
  party: number,
  email: string | null,
  now: number,
): Promise<string> {
  const token = newToken();
  await tx.insertWeldToken({
    hash: hashToken(token),
    weldDataEid: run.eid,
    kind,
    party,
    email,
    createdAt: now,
    usedAt: null,
  });
  return token;
}

/** The definition a run was started with. */
export function workflowOfRun(ctx: WorkflowContext, run: WeldDataRecord): Workflow {
  const w = ctx.catalogue.get(run.weldEid, run.weldVersion) ?? ctx.catalogue.get(run.weldEid);
  if (!w) throw new NotFoundError(`Workflow ${run.weldEid} is no longer served`, 'weld');
  return w;
}
