/** What an outbox event delivers, made at delivery time (the dispatcher's handlers call these). */
import type { MailMessage } from '../../events/mail.js';
import { composeCompleted, composeSignatureRequest } from '../../events/messages.js';
import type { OutboxRecord } from '../../store/index.js';
import { settingsOf, type WorkflowContext } from '../core/context.js';
import { issueToken } from '../core/signer-access.js';

/**
 * The email an outbox event describes: its link carries a token made now (only its hash is kept), a
 * signing token for a signature request, a download token (the completed documents only) for etchComplete.
 */
export async function composeMail(ctx: WorkflowContext, event: OutboxRecord): Promise<MailMessage | null> {
  const signerEid = String(event.payload.signerEid);
  const kind = String(event.payload.mail);
  const s = await ctx.store.signer(signerEid);
  const packet = s && (await ctx.store.packet(s.packetEid));
  if (!s || !packet || !s.email) return null;
  if (
    kind === 'signatureRequest' &&
    (s.status === 'completed' || s.status === 'skipped' || packet.status === 'complete')
  )
    return null;
  const now = ctx.now();
  const url = await ctx.store.transaction((tx) =>
    issueToken(ctx, tx, s, kind === 'etchComplete' ? 'download' : 'email', now),
  );
  const base = { id: event.id, ...mailSender(ctx, packet.organization), packet, signer: s, url };
  return kind === 'etchComplete' ? composeCompleted(base) : composeSignatureRequest(base);
}

/** Who an organization's mail is from: its name (the address stays the server's: it is the one that sends). */
export function mailSender(ctx: WorkflowContext, organization: string): MailSender {
  const fallback = ctx.options.organization ?? { name: 'castpress', supportEmail: 'support@castpress.local' };
  const settings = settingsOf(ctx, organization);
  const org = settings
    ? {
        name: settings.name,
        supportEmail: settings.supportEmail ?? fallback.supportEmail,
        ...(settings.logo ? { logo: settings.logo } : {}),
      }
    : fallback;
  const from = ctx.options.mailFrom ?? `"${org.name.replace(/["\r\n]/g, '')} via castpress" <no-reply@castpress.local>`;
  return { from, org };
}

/** An organization's sender: the From header and the organization as mails name it. */
export interface MailSender {
  from: string;
  org: { name: string; supportEmail: string; logo?: string };
}

/**
 * A mail that another floor queues in the outbox (`payload.mail` names it: the workflows' links) and
 * composes at delivery, so a link's token is made then and only its hash is kept. Null: nothing to send.
 */
export type MailComposer = (
  event: OutboxRecord,
  sender: (organization: string) => MailSender,
) => Promise<MailMessage | null>;

/** The packets' own mails (the others need a registered composer). */
export const PACKET_MAILS: ReadonlySet<string> = new Set(['signatureRequest', 'etchComplete']);

/** What a webhook outbox event delivers. */
export function webhookOf(event: OutboxRecord): { url: string; action: string; data: unknown; organization?: string } {
  const organization = event.payload.organization;
  return {
    url: String(event.payload.url),
    action: String(event.payload.action),
    data: event.payload.data,
    // Events written before organizations had settings name none: the workflow's own webhook options apply.
    ...(typeof organization === 'string' ? { organization } : {}),
  };
}
