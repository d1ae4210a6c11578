/**
 * Workflows (Welds) as a service over the packet store and the packet workflow: forge submissions,
 * the links of parties and address confirmations, the query `weld`, the signing link of the last
 * step, and a background pass (complete-runs.ts) that retries packets and queues `weldComplete`. No
 * HTTP (src/server serves the forms). One operation per file; this façade holds the context and the
 * pass's timer, registers the workflows' mails with the packets' delivery, and is closed by its creator.
 */
import type { PacketScope, WeldDataRecord } from '../packets/index.js';
import { completeRuns } from './runs/complete-runs.js';
import { confirmAddress, confirmation, type Confirmation } from './forms/confirmations.js';
import { weldContext, type WorkflowContext, type WorkflowServiceOptions } from './runs/context.js';
import type { Workflow } from './definition/definition.js';
import { weldMails } from './runs/mail.js';
import { workflowOrganization, type WorkflowOrganization } from './runs/organization.js';
import { forgeSubmit, type SubmissionView } from './forms/api-submit.js';
import { partyLink } from './runs/party-link.js';
import { newSubmissionEid, runFor, workflowBySlug, type RunLink } from './runs/run-access.js';
import { signingUrlFor } from './runs/sign-now.js';
import { submitForge, type FormSubmission, type SubmittedForm } from './forms/submit.js';
import { weldCompleteData } from './runs/webhook.js';
import { weld, type WorkflowView } from './runs/query.js';

export class WorkflowService {
  readonly #ctx: WorkflowContext;
  #timer: NodeJS.Timeout | undefined;
  #pass: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: WorkflowServiceOptions) {
    this.#ctx = weldContext(options);
    for (const [kind, compose] of Object.entries(weldMails(this.#ctx))) options.packets.registerMail(kind, compose);
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
  organization(organization: string): WorkflowOrganization {
    return workflowOrganization(this.#ctx, organization);
  }

  /**
   * What a link opens: the run of workflow `weld` and the party whose token it carries (the same 404
   * for an unknown run, a wrong token and another workflow's run).
   */
  link(weld: string, weldDataEid: unknown, token: unknown): Promise<RunLink> {
    return runFor(this.#ctx, weld, weldDataEid, token);
  }

  /** The link of an `api` assignee's forge of a run, for its organization's backend (party-link.ts). */
  partyLink(weldDataEid: unknown, forge: unknown, scope?: PacketScope): Promise<string> {
    return partyLink(this.#ctx, weldDataEid, forge, scope);
  }

  /** What a confirmation link is for (confirmations.ts). */
  confirmation(weld: string, weldDataEid: unknown, c: unknown): Promise<Confirmation> {
    return confirmation(this.#ctx, weld, weldDataEid, c);
  }

  /** An address confirmed by its owner; the run goes on when it was the last (confirmations.ts). */
  confirmAddress(weld: string, weldDataEid: unknown, c: unknown): Promise<Confirmation> {
    return confirmAddress(this.#ctx, weld, weldDataEid, c);
  }

  /** The id a rendered form carries (submit-forge.ts refuses a second post of it). */
  newSubmissionEid(): string {
    return newSubmissionEid();
  }

  /** A forge submitted (submit-forge.ts). */
  submitForge(input: FormSubmission): Promise<SubmittedForm> {
    return submitForge(this.#ctx, input);
  }

  /** GraphQL `forgeSubmit`: the organization's backend submits a forge by API key (forge-submit.ts). */
  forgeSubmit(args: unknown, scope?: PacketScope): Promise<SubmissionView> {
    return forgeSubmit(this.#ctx, args, scope);
  }

  /** Query `weld` (weld-query.ts). */
  weld(args: { eid?: unknown; slug?: unknown }, scope?: PacketScope): Promise<WorkflowView> {
    return weld(this.#ctx, args, scope);
  }

  /** Where the link's party signs now, the signer of `forge` first (sign-now.ts). */
  signingUrlFor(link: RunLink, forge?: string): Promise<string | undefined> {
    return signingUrlFor(this.#ctx, link, forge);
  }

  /** weldComplete's data for a run (webhook.ts). */
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
