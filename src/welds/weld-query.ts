/**
 * Query `weld(eid)` (spec: Workflow query): the workflow's eid and title, and its runs
 * (`weldDatas{eid, status, createdAt, displayTitle, completionPercentage}`) the caller's scope may see.
 */
import { NotFoundError } from '../errors/index.js';
import { visibleTo, type PacketScope } from '../packets/index.js';
import type { WeldContext } from './context.js';
import { organizationOf } from './load.js';
import { completionPercentage } from './progress.js';
import { lastErrorOf, type WeldError } from './retries.js';

export interface WeldDataView {
  eid: string;
  status: string;
  createdAt: string;
  displayTitle: string;
  completionPercentage: number;
  /** Why its packet could not be made (retried until the run is `failed`): the typed error. */
  lastError?: WeldError;
}

export interface WeldView {
  eid: string;
  slug: string;
  title: string;
  weldDatas: WeldDataView[];
}

export async function weld(
  ctx: WeldContext,
  args: { eid?: unknown; slug?: unknown },
  scope?: PacketScope,
): Promise<WeldView> {
  const key = typeof args.eid === 'string' ? args.eid : typeof args.slug === 'string' ? args.slug : '';
  const workflow = ctx.catalogue.get(key) ?? ctx.catalogue.bySlug(key);
  // Another organization's workflow is answered as an unknown one (the same 404): a key learns nothing of it.
  if (!workflow || (scope && scope.organization !== organizationOf(workflow)))
    throw new NotFoundError(`No workflow "${key}"`, args.eid !== undefined ? 'eid' : 'slug');
  const runs = (await ctx.store.welds.weldDatas(workflow.eid)).filter((r) => visibleTo(r, scope));
  const weldDatas: WeldDataView[] = [];
  for (const run of runs) {
    const [submissions, signers] = await Promise.all([
      ctx.store.welds.submissions(run.eid),
      run.packetEid ? ctx.store.signers(run.packetEid) : Promise.resolve([]),
    ]);
    const lastError = lastErrorOf(run);
    weldDatas.push({
      eid: run.eid,
      status: run.status,
      createdAt: new Date(run.createdAt).toISOString(),
      displayTitle: run.displayTitle,
      completionPercentage: completionPercentage(
        ctx.catalogue.get(run.weldEid, run.weldVersion) ?? workflow,
        run,
        submissions,
        signers,
      ),
      ...(lastError ? { lastError } : {}),
    });
  }
  return { eid: workflow.eid, slug: workflow.slug, title: workflow.title, weldDatas };
}
