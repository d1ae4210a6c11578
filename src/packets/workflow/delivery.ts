/** What an outbox event delivers, made at delivery time (the dispatcher's handlers call these). */
import type { MailMessage } from '../events/mail.js';
import { composeCompleted, composeSignatureRequest } from '../events/messages.js';
import type { OutboxRecord } from '../store/index.js';
import type { WorkflowContext } from './context.js';
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
  const type = kind === 'etchComplete' ? 'download' : 'email';
  const url = await ctx.store.transaction((tx) => issueToken(ctx, tx, s, type, now));
  const org = ctx.options.organization ?? { name: 'castpress', supportEmail: 'support@castpress.local' };
  const from = ctx.options.mailFrom ?? `"${org.name} via castpress" <no-reply@castpress.local>`;
  const base = { id: event.id, from, packet, signer: s, org, url };
  return kind === 'etchComplete' ? composeCompleted(base) : composeSignatureRequest(base);
}

/** What a webhook outbox event delivers. */
export function webhookOf(event: OutboxRecord): { url: string; action: string; data: unknown } {
  return { url: String(event.payload.url), action: String(event.payload.action), data: event.payload.data };
}
