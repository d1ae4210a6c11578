/**
 * The link of a party whose assignee is `"api"`: the caller's backend asks for it (with a key of the
 * run's organization) when the party's turn has come, and hands it to its user its own way. Each call
 * makes a new token of that party; earlier ones stay valid.
 */
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { visibleTo, type PacketScope } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import { SubmissionConflictError } from '../definition/errors.js';
import { weldUrl } from './mail.js';
import { formsOf, partyOf } from '../definition/parties.js';
import { mintToken, workflowOfRun } from './run-access.js';

/** The URL of `forge`'s form of run `weldDataEid` for its party (an `api` assignee's). */
export async function partyLink(
  ctx: WorkflowContext,
  weldDataEid: unknown,
  forgeSlug: unknown,
  scope?: PacketScope,
): Promise<string> {
  const run = typeof weldDataEid === 'string' ? await ctx.store.welds.weldData(weldDataEid) : undefined;
  // Another organization's run is answered as an unknown one.
  if (!run || !visibleTo(run, scope))
    throw new NotFoundError(`No workflow run "${String(weldDataEid).slice(0, 100)}"`, 'weldDataEid');
  const workflow = workflowOfRun(ctx, run);
  const index = workflow.forges.findIndex((f) => f.slug === forgeSlug);
  if (index < 0) throw ValidationError.of('forge', `Workflow "${workflow.slug}" has no forge "${String(forgeSlug)}"`);
  const party = partyOf(workflow, index);
  if (formsOf(workflow, party)[0]!.assignee !== 'api')
    throw ValidationError.of('forge', `Forge "${workflow.forges[index]!.slug}" is not filled by an "api" assignee`);
  // The party's turn: the run's next forge is one of the party's.
  const submitted = (await ctx.store.welds.submissions(run.eid)).length;
  if (run.status !== 'open' || submitted >= workflow.forges.length || partyOf(workflow, submitted) !== party)
    throw new SubmissionConflictError(
      `Forge "${workflow.forges[index]!.slug}" of run ${run.eid} is not the one to fill now`,
      'forge',
    );
  const token = await ctx.store.transaction((tx) => mintToken(tx.welds, run, 'party', party, null, ctx.now()));
  return weldUrl(ctx, workflow, workflow.forges[submitted]!.slug, { run: run.eid, t: token });
}
