/**
 * The emails of a packet, as text. The signing request keeps the spec's shape: the
 * caller's `signatureEmailBody` beside (not instead of) the instructions and the link;
 * the subject defaults to the packet name; reply-to defaults to the organization.
 */
import type { PacketRecord, SignerRecord } from '../store/index.js';
import type { MailMessage } from './mail.js';

export interface MailContext {
  id: string;
  from: string;
  packet: PacketRecord;
  signer: SignerRecord;
  org: { name: string; supportEmail: string };
  /** The signer's link (with a token made for this email). */
  url: string;
}

function replyTo(c: MailContext): string {
  const name = (c.packet.options.replyToName ?? c.org.name).replace(/["\r\n]/g, '');
  return `"${name}" <${c.packet.options.replyToEmail ?? c.org.supportEmail}>`;
}

const oneLine = (s: string) => s.replace(/[\r\n]+/g, ' ');

export function composeSignatureRequest(c: MailContext): MailMessage {
  const greeting = c.signer.name ? `Hello ${c.signer.name},` : 'Hello,';
  const note = c.packet.options.signatureEmailBody ? `${c.packet.options.signatureEmailBody}\n\n` : '';
  return {
    id: c.id,
    from: c.from,
    to: c.signer.email!,
    replyTo: replyTo(c),
    subject: oneLine(c.packet.options.signatureEmailSubject ?? c.packet.name),
    text: `${greeting}\n\n${note}${c.org.name} asks you to review and sign "${c.packet.name}".\n\nOpen this link to review and sign:\n${c.url}\n\nThe link is personal: do not forward this email.\n`,
  };
}

export function composeCompleted(c: MailContext): MailMessage {
  return {
    id: c.id,
    from: c.from,
    to: c.signer.email!,
    replyTo: replyTo(c),
    subject: oneLine(`Completed: ${c.packet.name}`),
    text: `Hello${c.signer.name ? ` ${c.signer.name}` : ''},\n\nEveryone has signed "${c.packet.name}". Open this link to download the signed documents:\n${c.url}\n`,
  };
}
