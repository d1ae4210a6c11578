/**
 * Workflows (Welds) as a service over the packet store and the packet workflow: forge submissions,
 * the query `weld`, the signing link of the last step, and a background pass (complete-runs.ts) that
 * queues `weldComplete`. No HTTP (src/server serves the forms). One operation per file; this façade
 * holds the context and the pass's timer, and is closed by its creator.
 */
import type { PacketScope, WeldDataRecord } from '../packets/index.js';
import { completeRuns, weldCompleteData } from './complete-runs.js';
import { weldContext, type WeldContext, type WeldServiceOptions } from './context.js';
import type { Workflow } from './definition.js';
import { weldOrganization, type WeldOrganization } from './organization.js';
import { newSubmissionEid, runFor, workflowBySlug } from './run-access.js';
import { signingUrlFor } from './sign-now.js';
import { submitForge, type ForgeSubmission, type SubmittedForge } from './submit-forge.js';
import { weld, type WeldView } from './weld-query.js';

export class WeldService {
  readonly #ctx: WeldContext;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: WeldServiceOptions) {
    this.#ctx = weldContext(options);
    const pollMs = options.pollMs ?? 1000;
    if (pollMs > 0) {
      this.#timer = setInterval(() => void this.runPass(), pollMs);
      this.#timer.unref();
    }
  }

  /** A workflow by slug or eid (404 otherwise). */
  workflow(slug: string): Workflow {
    return workflowBySlug(this.#ctx, slug);
  }

  /** An organization as the forms and the iframe message show it (organization.ts). */
  organization(organization: string): WeldOrganization {
    return weldOrganization(this.#ctx, organization);
  }

  /** A run, given its token (the same 404 for an unknown run and a wrong token). */
  run(weldDataEid: unknown, token: unknown): Promise<WeldDataRecord> {
    return runFor(this.#ctx, weldDataEid, token);
  }

  /** The id a rendered form carries (submit-forge.ts refuses a second post of it). */
  newSubmissionEid(): string {
    return newSubmissionEid();
  }

  /** A forge submitted (submit-forge.ts). */
  submitForge(input: ForgeSubmission): Promise<SubmittedForge> {
    return submitForge(this.#ctx, input);
  }

  /** Query `weld` (weld-query.ts). */
  weld(args: { eid?: unknown; slug?: unknown }, scope?: PacketScope): Promise<WeldView> {
    return weld(this.#ctx, args, scope);
  }

  /** Where the person who filled `forgeSlug` signs now (sign-now.ts). */
  signingUrlFor(run: WeldDataRecord, forgeSlug: string): Promise<string | undefined> {
    return signingUrlFor(this.#ctx, run, forgeSlug);
  }

  /** weldComplete's data for a run (complete-runs.ts). */
  weldCompleteData(run: WeldDataRecord): Promise<Record<string, unknown>> {
    return weldCompleteData(this.#ctx, run);
  }

  /** One background pass now (one at a time); resolves with how many runs changed. */
  runPass(): Promise<number> {
    if (this.#closed) return Promise.resolve(0);
    const next = this.#pass.then(() =>
      completeRuns(this.#ctx).catch((e: unknown) => {
        this.#ctx.options.onError?.(e);
        return 0;
      }),
    );
    this.#pass = next;
    return next;
  }

  async close(): Promise<void> {
    this.#closed = true;
    if (this.#timer) clearInterval(this.#timer);
    await this.#pass;
  }
}
