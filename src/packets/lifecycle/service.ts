/**
 * The packet workflow (spec: States and transitions, Rules, Events, Errors) as a service over a
 * store, the engine and a signing identity. No HTTP: the server's GraphQL routes and the signing
 * page call these methods.
 *
 * A thin façade: each operation lives in its own file as a function of the workflow's context
 * (context.ts); every state change goes through the step runner (step.ts), and the events it
 * causes through the outbox (outbox.ts).
 *
 * Every operation takes the caller's `scope` (see scope.ts): a packet, signer or group outside
 * it is answered as an unknown one. Without a scope every packet is visible. The signer's side
 * (token-checked) takes no scope: the token is the credential.
 */
import type { MailMessage } from '../events/mail.js';
import type { OutboxRecord } from '../store/index.js';
import { workflowContext, type PacketServiceOptions, type WorkflowContext } from './core/context.js';
import { createEtchPacket, type CreateEtchPacketOptions } from './packet/create.js';
import { composeMail, mailSender, PACKET_MAILS, webhookOf, type MailComposer } from './packet/delivery.js';
import { etchPacket } from './packet/read.js';
import { retryDelivery } from './packet/retry-delivery.js';
import { expireSignerTokens } from './signer/expire-tokens.js';
import { generateEtchSignURL } from './signer/sign-url.js';
import { confirmHandOver } from './signer/hand-over.js';
import { groupDocuments } from './packet/group-documents.js';
import { openSigning, type SeenRequest } from './signer/open-signing.js';
import { redirectFor } from './signer/redirect-for.js';
import { resendSignatureRequest } from './signer/resend-request.js';
import type { PacketScope } from './state/scope.js';
import { sendEtchPacket } from './packet/send.js';
import type { SignerEvent, SigningSession } from './core/session.js';
import { signerDocument } from './signer/signer-document.js';
import { signerDownloads, type SignerDownloads } from './signer/signer-downloads.js';
import { submitSigning, type SigningSubmission } from './signer/submit-signing.js';
import { updateEtchPacket } from './packet/update.js';
import { updateOwnDetails } from './signer/update-own-details.js';
import { updateSigner } from './signer/update-signer.js';
import type { EtchPacketView } from './state/views.js';

export class PacketService {
  readonly #ctx: WorkflowContext;
  readonly #mails = new Map<string, MailComposer>();

  constructor(options: PacketServiceOptions) {
    this.#ctx = workflowContext(options);
  }

  // ——— operations of the spec ———

  /** `createEtchPacket` (create-etch-packet.ts). */
  createEtchPacket(body: unknown, scope?: PacketScope, options?: CreateEtchPacketOptions): Promise<EtchPacketView> {
    return createEtchPacket(this.#ctx, body, scope, options);
  }

  /** `sendEtchPacket` (send-etch-packet.ts). */
  sendEtchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    return sendEtchPacket(this.#ctx, args, scope);
  }

  /** `generateEtchSignURL` (generate-etch-sign-url.ts): a new URL; the earlier ones stay valid. */
  generateEtchSignURL(args: unknown, scope?: PacketScope): Promise<string> {
    return generateEtchSignURL(this.#ctx, args, scope);
  }

  /** `expireSignerTokens` (expire-signer-tokens.ts). */
  expireSignerTokens(args: unknown, scope?: PacketScope): Promise<{ signerEid: string; expired: number }> {
    return expireSignerTokens(this.#ctx, args, scope);
  }

  /** `updateEtchPacket` (update-etch-packet.ts). */
  updateEtchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    return updateEtchPacket(this.#ctx, args, scope);
  }

  /** `updateSigner` (update-signer.ts). */
  updateSigner(
    args: unknown,
    scope?: PacketScope,
  ): Promise<{ eid: string; name: string | null; email: string | null; status: string }> {
    return updateSigner(this.#ctx, args, scope);
  }

  /** Query `etchPacket` (etch-packet.ts). */
  etchPacket(args: unknown, scope?: PacketScope): Promise<EtchPacketView> {
    return etchPacket(this.#ctx, args, scope);
  }

  /** A signer's signing request email, sent again with a new link (resend-request.ts). */
  resendSignatureRequest(signerEid: string, scope?: PacketScope): Promise<{ signerEid: string; queued: boolean }> {
    return resendSignatureRequest(this.#ctx, signerEid, scope);
  }

  // ——— the signer's side (the signing page) ———

  /** Opens the signing page: checks the token, marks the signer `viewed` (open-signing.ts). */
  openSigning(args: unknown, seen?: SeenRequest): Promise<SigningSession> {
    return openSigning(this.#ctx, args, seen);
  }

  /** A document as the signer sees it now (signer-document.ts). */
  signerDocument(args: unknown, index: number): Promise<{ filename: string; pdf: Uint8Array }> {
    return signerDocument(this.#ctx, args, index);
  }

  /** The signer finishes; the last signer completes and seals the packet (submit-signing.ts). */
  submitSigning(submission: SigningSubmission): Promise<SignerEvent & { redirectURL?: string }> {
    return submitSigning(this.#ctx, submission);
  }

  /** A signer changes their own name or email (update-own-details.ts). */
  updateOwnDetails(args: unknown, change: { name?: string; email?: string }): Promise<void> {
    return updateOwnDetails(this.#ctx, args, change);
  }

  /** An in-person signer confirms their name on the device handed to them (hand-over.ts). */
  confirmHandOver(args: unknown, name: unknown): Promise<void> {
    return confirmHandOver(this.#ctx, args, name);
  }

  /** The parameters of where a signer stands, and their redirectURL if any (redirect-for.ts). */
  redirectFor(signerEid: string): Promise<{ url?: string; event: SignerEvent } | undefined> {
    return redirectFor(this.#ctx, signerEid);
  }

  // ——— downloads ———

  /** Every document of a document group as it is now (group-documents.ts). */
  groupDocuments(groupEid: string, scope?: PacketScope): Promise<Array<{ filename: string; pdf: Uint8Array }>> {
    return groupDocuments(this.#ctx, groupEid, scope);
  }

  /** A signer's completed documents, by a download token or the token they signed with (signer-downloads.ts). */
  signerDownloads(args: unknown): Promise<SignerDownloads> {
    return signerDownloads(this.#ctx, args);
  }

  // ——— delivery of outbox events ———

  /**
   * The email an outbox event describes, made at delivery (delivery.ts). A mail of another floor whose
   * composer this process has not registered (yet) fails the attempt, so the event is tried again, not dropped.
   */
  composeMail(event: OutboxRecord): Promise<MailMessage | null> {
    const kind = String(event.payload.mail);
    if (PACKET_MAILS.has(kind)) return composeMail(this.#ctx, event);
    const compose = this.#mails.get(kind);
    if (!compose) return Promise.reject(new Error(`No composer for mail "${kind}" in this process`));
    return compose(event, (organization) => mailSender(this.#ctx, organization));
  }

  /** Registers the composer of mails of kind `kind` another floor queues (the workflows' links). */
  registerMail(kind: string, compose: MailComposer): void {
    if (PACKET_MAILS.has(kind)) throw new Error(`Mail "${kind}" is the packets' own`);
    this.#mails.set(kind, compose);
  }

  /** A failed webhook or email of a packet tried again now (retry-delivery.ts). */
  retryDelivery(packetEid: string, id: string, scope?: PacketScope): Promise<{ id: string; status: 'pending' }> {
    return retryDelivery(this.#ctx, packetEid, id, scope);
  }

  /** What a webhook outbox event delivers. */
  webhookOf(event: OutboxRecord): ReturnType<typeof webhookOf> {
    return webhookOf(event);
  }
}
