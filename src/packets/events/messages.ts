/**
 * The emails of a packet, as text. The signing request keeps the spec's shape: the
 * caller's `signatureEmailBody` beside (not instead of) the instructions and the link;
 * the subject defaults to the packet name; reply-to defaults to the organization.
 */
import { escapeHtml } from '../../format/index.js';
import type { PacketRecord, SignerRecord } from '../store/index.js';
import { withOrganizationName } from '../request/org.js';
import type { MailMessage } from './mail.js';

export interface MailContext {
  id: string;
  from: string;
  packet: PacketRecord;
  signer: SignerRecord;
  /** `logo`: an image data URL, shown at most 30 px high above an HTML copy of the text. */
  org: { name: string; supportEmail: string; logo?: string };
  /** The signer's link (with a token made for this email). */
  url: string;
}

function replyTo(c: MailContext): string {
  const name = (c.packet.options.replyToName ?? c.org.name).replace(/["\r\n]/g, '');
  return `"${name}" <${c.packet.options.replyToEmail ?? c.org.supportEmail}>`;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

/**
 * With a logo, an HTML copy of the text under it (at most 30 px high, as on the signing page). The logo
 * travels as an inline attachment (`cid:`): mail clients block `data:` images in a message's HTML.
 */
function withLogo(c: MailContext, message: MailMessage): MailMessage {
  const m = c.org.logo ? /^data:(image\/[a-z+]+);base64,(.*)$/.exec(c.org.logo) : null;
  if (!m) return message;
  const text = escapeHtml(message.text);
  return {
    ...message,
    html: `<!doctype html><html><body><p><img src="cid:logo@castpress" alt="${escapeHtml(c.org.name)}" style="max-height:30px;max-width:100%"></p><pre style="font-family:inherit;white-space:pre-wrap">${text}</pre></body></html>`,
    attachments: [
      { cid: 'logo@castpress', filename: 'logo', contentType: m[1]!, content: Buffer.from(m[2]!, 'base64') },
    ],
  };
}

/** The caller's texts with `{{organization.name}}` replaced. */
const orgText = (c: MailContext, s: string) => withOrganizationName(s, c.org.name);

export function composeSignatureRequest(c: MailContext): MailMessage {
  const greeting = c.signer.name ? `Hello ${c.signer.name},` : 'Hello,';
  const note = c.packet.options.signatureEmailBody ? `${orgText(c, c.packet.options.signatureEmailBody)}\n\n` : '';
  return withLogo(c, {
    id: c.id,
    from: c.from,
    to: c.signer.email!,
    replyTo: replyTo(c),
    subject: oneLine(orgText(c, c.packet.options.signatureEmailSubject ?? c.packet.name)),
    text: `${greeting}\n\n${note}${c.org.name} asks you to review and sign "${c.packet.name}".\n\nOpen this link to review and sign:\n${c.url}\n\nThe link is personal: do not forward this email.\n`,
  });
}

export function composeCompleted(c: MailContext): MailMessage {
  return withLogo(c, {
    id: c.id,
    from: c.from,
    to: c.signer.email!,
    replyTo: replyTo(c),
    subject: oneLine(`Completed: ${c.packet.name}`),
    text: `Hello${c.signer.name ? ` ${c.signer.name}` : ''},\n\nEveryone has signed "${c.packet.name}". Open this link to download the signed documents:\n${c.url}\n`,
  });
}
