/**
 * A run's access: a 256-bit token in the form's URL (only its SHA-256 is stored, compared in constant
 * time), the one-time submission ids each rendered form carries, and the run's workflow and next forge.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { NotFoundError, ValidationError } from '../errors/index.js';
import type { WeldDataRecord } from '../packets/index.js';
import type { WeldContext } from './context.js';
import type { Forge, Workflow } from './definition.js';

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

export function workflowBySlug(ctx: WeldContext, slug: string): Workflow {
  const w = ctx.catalogue.bySlug(slug) ?? ctx.catalogue.get(slug);
  if (!w) throw new NotFoundError(`No workflow "${slug}"`, 'weld');
  return w;
}

export function forgeOf(workflow: Workflow, slug: string): Forge {
  const f = workflow.forges.find((x) => x.slug === slug);
  if (!f) throw new NotFoundError(`Workflow "${workflow.slug}" has no forge "${slug}"`, 'forge');
  return f;
}

/** The run, when `token` is its own; an unknown run and a wrong token are the same 404 (nothing learnt). */
export async function runFor(ctx: WeldContext, weldDataEid: unknown, token: unknown): Promise<WeldDataRecord> {
  const run =
    typeof weldDataEid === 'string' && weldDataEid.length < 100
      ? await ctx.store.welds.weldData(weldDataEid)
      : undefined;
  const given = Buffer.from(hashToken(typeof token === 'string' ? token : ''), 'hex');
  const ok = run !== undefined && timingSafeEqual(given, Buffer.from(run.tokenHash, 'hex'));
  if (!run || !ok) throw new NotFoundError(`No workflow run "${String(weldDataEid)}" for this link`, 'weldDataEid');
  return run;
}

/** The definition a run was started with. */
export function workflowOfRun(ctx: WeldContext, run: WeldDataRecord): Workflow {
  const w = ctx.catalogue.get(run.weldEid, run.weldVersion) ?? ctx.catalogue.get(run.weldEid);
  if (!w) throw new NotFoundError(`Workflow ${run.weldEid} is no longer served`, 'weld');
  return w;
}
