/** What an outbox event delivers, made at delivery time (the dispatcher's handlers call these). */
import type { MailMessage } from '../events/mail.js';
import { composeCompleted, composeSignatureRequest } from '../events/messages.js';
import type { OutboxRecord } from '../store/index.js';
import { settingsOf, type WorkflowContext } from './context.js';
import { issueToken } from './signer-access.js';

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
  const fallback = ctx.options.organization ?? { name: 'castpress', supportEmail: 'support@castpress.local' };
  const settings = settingsOf(ctx, packet.organization);
  const org = settings
    ? {
        name: settings.name,
        supportEmail: settings.supportEmail ?? fallback.supportEmail,
        ...(settings.logo ? { logo: settings.logo } : {}),
      }
    : fallback;
  // The From name is the organization's (the address stays the server's: it is the one that sends).
  const from = ctx.options.mailFrom ?? `"${org.name.replace(/["\r\n]/g, '')} via castpress" <no-reply@castpress.local>`;
  const base = { id: event.id, from, packet, signer: s, org, url };
  return kind === 'etchComplete' ? composeCompleted(base) : composeSignatureRequest(base);
}

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
