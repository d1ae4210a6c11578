/**
 * Query `weld(eid)` (spec: Workflow query): the workflow's eid and title, and its runs
 * (`weldDatas{eid, status, createdAt, displayTitle, completionPercentage}`, and `isTest`, `isComplete`) the
 * caller's scope may see.
 */
import { NotFoundError } from '../../errors/index.js';
import { visibleTo, type PacketScope, type WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import type { Workflow } from '../definition/definition.js';
import { organizationOf } from '../definition/load.js';
import { completionPercentage } from './progress.js';
import { lastErrorOf, type RunError } from './retries.js';

export interface WeldDataView {
  /** The eid again (the client's `forgeSubmit` selects `weldData{id}`). */
  id: string;
  eid: string;
  isTest: boolean;
  /** Every forge is submitted (the run has left `open`). */
  isComplete: boolean;
  status: string;
  createdAt: string;
  displayTitle: string;
  completionPercentage: number;
  /** Why its packet could not be made (retried until the run is `failed`): the typed error. */
  lastError?: RunError;
}

export interface WorkflowView {
  eid: string;
  slug: string;
  title: string;
  weldDatas: WeldDataView[];
}

export async function weld(
  ctx: WorkflowContext,
  args: { eid?: unknown; slug?: unknown },
  scope?: PacketScope,
): Promise<WorkflowView> {
  const key = typeof args.eid === 'string' ? args.eid : typeof args.slug === 'string' ? args.slug : '';
  const workflow = ctx.catalogue.get(key) ?? ctx.catalogue.bySlug(key);
  // Another organization's workflow is answered as an unknown one (the same 404): a key learns nothing of it.
  if (!workflow || (scope && scope.organization !== organizationOf(workflow)))
    throw new NotFoundError(`No workflow "${key}"`, args.eid !== undefined ? 'eid' : 'slug');
  const runs = (await ctx.store.welds.weldDatas(workflow.eid)).filter((r) => visibleTo(r, scope));
  const weldDatas: WeldDataView[] = [];
  for (const run of runs)
    weldDatas.push(await weldDataView(ctx, ctx.catalogue.get(run.weldEid, run.weldVersion) ?? workflow, run));
  return { eid: workflow.eid, slug: workflow.slug, title: workflow.title, weldDatas };
}

/** One run as `weld(eid)` lists it and `forgeSubmit` answers it. */
export async function weldDataView(
  ctx: WorkflowContext,
  workflow: Workflow,
  run: WeldDataRecord,
): Promise<WeldDataView> {
  const [submissions, signers] = await Promise.all([
    ctx.store.welds.submissions(run.eid),
    run.packetEid ? ctx.store.signers(run.packetEid) : Promise.resolve([]),
  ]);
  const lastError = lastErrorOf(run);
  return {
    id: run.eid,
    eid: run.eid,
    isTest: run.isTest,
    isComplete: run.status !== 'open',
    status: run.status,
    createdAt: new Date(run.createdAt).toISOString(),
    displayTitle: run.displayTitle,
    completionPercentage: completionPercentage(workflow, run, submissions, signers),
    ...(lastError ? { lastError } : {}),
  };
}
