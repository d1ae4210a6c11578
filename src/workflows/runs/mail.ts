/**
 * The workflows' mails, queued in the packets' outbox by the transaction that causes them and
 * composed at delivery (the packets' dispatcher calls these through `PacketService.registerMail`), so
 * each link's token is made then and only its hash is kept:
 *
 * - `weldLink`: an email assignee's link to their forms;
 * - `weldConfirm`: the confirmation link of an address typed into a form, before packet mail goes to it.
 *
 * Both are plain text, and hold no text a visitor typed but the address they go to: the
 * organization's name, the definition's titles and the link. Who sends is the organization, as for
 * its packets' mails (`MailSender`).
 */
import type { MailComposer, MailMessage, MailSender, OutboxRecord, WeldDataRecord } from '../../packets/index.js';
import type { WorkflowContext } from './context.js';
import type { Workflow } from '../definition/definition.js';
import { assigneeAddress, formsOf } from '../definition/parties.js';
import { valuesOf } from '../definition/placeholders.js';
import { mintToken, workflowOfRun } from './run-access.js';

export const WELD_LINK_MAIL = 'weldLink';
export const WELD_CONFIRM_MAIL = 'weldConfirm';

/** A link to one of the workflow's pages, with its query. */
export function weldUrl(ctx: WorkflowContext, workflow: Workflow, page: string, query: Record<string, string>): string {
  const path = `/weld/${encodeURIComponent(workflow.slug)}/${encodeURIComponent(page)}`;
  return `${ctx.baseUrl()}${path}?${new URLSearchParams(query).toString()}`;
}

const oneLine = (s: string): string => s.replace(/[\r\n]+/g, ' ');

/** One plain address (no display name, list or comment a mail header would read as more): else nothing is sent. */
const PLAIN_ADDRESS = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)+$/;

function message(event: OutboxRecord, sender: MailSender, to: string, subject: string, text: string): MailMessage {
  const name = sender.org.name.replace(/["\r\n]/g, '');
  return {
    id: event.id,
    from: sender.from,
    to,
    replyTo: `"${name}" <${sender.org.supportEmail}>`,
    subject: oneLine(subject),
    text,
  };
}

async function runOf(ctx: WorkflowContext, event: OutboxRecord): Promise<WeldDataRecord | undefined> {
  const eid = event.payload.weldDataEid;
  return typeof eid === 'string' ? ctx.store.welds.weldData(eid) : undefined;
}

/** An email assignee's link: to their first forge, with a token of their party. Null once the run moved on. */
async function linkMail(
  ctx: WorkflowContext,
  event: OutboxRecord,
  sender: (organization: string) => MailSender,
): Promise<MailMessage | null> {
  const run = await runOf(ctx, event);
  const party = Number(event.payload.party);
  if (!run || run.status !== 'open' || !Number.isInteger(party) || party < 1) return null;
  const workflow = workflowOfRun(ctx, run);
  const first = formsOf(workflow, party)[0];
  const to = first && assigneeAddress(first, valuesOf(await ctx.store.welds.submissions(run.eid)));
  if (!first || !to || !PLAIN_ADDRESS.test(to)) return null;
  const token = await ctx.store.transaction((tx) => mintToken(tx.welds, run, 'party', party, null, ctx.now()));
  const url = weldUrl(ctx, workflow, first.slug, { run: run.eid, t: token });
  const from = sender(run.organization);
  return message(
    event,
    from,
    to,
    `${workflow.title}: ${first.name}`,
    `Hello,\n\n${from.org.name} asks you to fill in "${first.name}" of "${workflow.title}".\n\nOpen this link:\n${url}\n\nThe link is personal: do not forward this email.\n`,
  );
}

/** The confirmation of an address typed into a form. Null unless the run still waits for it. */
async function confirmMail(
  ctx: WorkflowContext,
  event: OutboxRecord,
  sender: (organization: string) => MailSender,
): Promise<MailMessage | null> {
  const run = await runOf(ctx, event);
  const to = event.payload.email;
  if (!run || run.status !== 'confirming' || typeof to !== 'string' || !PLAIN_ADDRESS.test(to)) return null;
  const workflow = workflowOfRun(ctx, run);
  const token = await ctx.store.transaction((tx) => mintToken(tx.welds, run, 'confirm', 0, to, ctx.now()));
  const url = weldUrl(ctx, workflow, 'confirm', { run: run.eid, c: token });
  const from = sender(run.organization);
  return message(
    event,
    from,
    to,
    `Confirm your email address for ${workflow.title}`,
    `Hello,\n\nThis address, ${to}, was given in "${workflow.title}" of ${from.org.name}. Documents to sign go to it once you confirm that it is yours:\n${url}\n\nIf you did not expect this, ignore this email: nothing more is sent to you.\n`,
  );
}

/** The composers the workflows register with the packets' delivery. */
export function weldMails(ctx: WorkflowContext): Record<string, MailComposer> {
  return {
    [WELD_LINK_MAIL]: (event, sender) => linkMail(ctx, event, sender),
    [WELD_CONFIRM_MAIL]: (event, sender) => confirmMail(ctx, event, sender),
  };
}
