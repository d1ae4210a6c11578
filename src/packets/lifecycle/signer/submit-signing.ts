/**
 * Signer step "sign": their inputs drawn on the documents, once every box they had to accept
 * was accepted and the details asked on opening were entered; the last signer completes and
 * seals the packet (certificate, `etchPacketComplete`).
 */
import { ValidationError } from '../../../errors/index.js';
import { parseWith } from '../../../schema/index.js';
import type { SignerInputs } from '../../signatures/apply.js';
import {
  acceptsEachField,
  acceptedBoxesOf,
  checkAccepted,
  detailsRequired,
  type AcceptedField,
} from '../core/acceptance.js';
import { advance } from '../core/advance.js';
import { signerAccessArgs } from '../state/args.js';
import { encode } from '../state/codec.js';
import { signerSealOf, type WorkflowContext } from '../core/context.js';
import { completionEvents, signersData, webhookEvent } from '../core/outbox.js';
import { certificateRecord, completePacket, signerOf } from '../packet/packet-documents.js';
import { redirectGroupStatus, route } from '../state/routing.js';
import { documentsVersionOf, type SignerEvent } from '../core/session.js';
import { PacketStateError } from '../state/errors.js';
import { access, assertTurn } from '../core/signer-access.js';
import { runStep, signerOfSnap } from '../core/step.js';
import { assertHandedOver } from './hand-over.js';
import { cleanSeen } from './open-signing.js';
import { checkToken } from '../state/tokens.js';

/** What a signer submits when finishing (the signing page posts it). */
export interface SigningSubmission {
  signerEid: string;
  token: string;
  inputs: SignerInputs;
  ip?: string;
  userAgent?: string;
  /**
   * The signature/initials boxes the signer accepted one by one. The signing page always
   * sends it; when given and the signer accepts each field, every box of theirs must be in it.
   */
  accepted?: readonly AcceptedField[];
  /**
   * The IANA time zone the signing page reported (`Intl.DateTimeFormat().resolvedOptions().timeZone`).
   * The browser's word: checked to be an IANA name (else a 400 on `timeZone`) and recorded in the audit
   * trail, never used for anything else (the date fields follow `inputs.timeZone`, the caller's).
   */
  timeZone?: string;
  /**
   * The session's `documentsVersion` (the signing page sends it): when given and the documents were
   * made again since the page was opened (a payload update, a newer template version of a packet by
   * reference), the submission is refused (409 on `documentsVersion`) and nothing is signed, so
   * nobody signs a version they were not shown. Callers of the library may leave it out.
   */
  documentsVersion?: string;
}

/** An IANA time zone name the runtime knows (`Europe/Paris`, `UTC`), else undefined. */
function ianaTimeZone(value: unknown): string | undefined {
  if (
    typeof value !== 'string' ||
    value.length > 64 ||
    !/^[A-Za-z][A-Za-z0-9_+\-]*(\/[A-Za-z0-9_+\-]+){0,2}$/.test(value)
  )
    return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: value }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export async function submitSigning(
  ctx: WorkflowContext,
  submission: SigningSubmission,
): Promise<SignerEvent & { redirectURL?: string }> {
  const { signerEid, token } = parseWith(signerAccessArgs, {
    signerEid: submission.signerEid,
    token: submission.token,
  });
  const timeZone = submission.timeZone === undefined ? undefined : ianaTimeZone(submission.timeZone);
  if (submission.timeZone !== undefined && timeZone === undefined)
    throw ValidationError.of('timeZone', 'Not an IANA time zone name (e.g. Europe/Paris)');
  const { signer: found } = await access(ctx, signerEid, token);
  let event: SignerEvent | undefined;
  let redirectURL: string | undefined;
  await runStep<{ tokenEid: string }>(
    ctx,
    found.packetEid,
    async (tx, snap, now, work) => {
      const s = signerOfSnap(snap, signerEid);
      await tx.putDocuments(snap.packet.eid, snap.documents);
      await tx.updateSigner(s);
      await tx.markTokenSigned(work.tokenEid, now);
      // The signer's other links end: none of them can sign again (they read valid: false).
      await tx.invalidateTokens(signerEid, now, work.tokenEid);
      let events = await advance(tx, snap, now, {});
      const next = route(snap.signers);
      event = {
        action: 'signerComplete',
        signerStatus: 'completed',
        signerEid,
        nextSignerEid: snap.signers.find((x) => next.current.includes(x.eid))?.eid ?? null,
        documentGroupStatus: redirectGroupStatus(snap.packet.status),
        documentGroupEid: snap.packet.groupEid,
        etchPacketEid: snap.packet.eid,
      };
      redirectURL = typeof s.signer.redirectURL === 'string' ? s.signer.redirectURL : undefined;
      events += await webhookEvent(
        ctx,
        tx,
        snap,
        'signerComplete',
        { ...event, aliasId: s.aliasId, signers: signersData(snap) },
        now,
      );
      if (snap.packet.status === 'complete') events += await completionEvents(ctx, tx, snap, now);
      return events;
    },
    async (snap, now) => {
      // Checked again on the state the step works on: another tab may have finished meanwhile.
      const s = signerOfSnap(snap, signerEid);
      assertTurn(snap, s, true);
      const matched = checkToken(token, await ctx.store.tokens(signerEid), signerEid, now);
      assertHandedOver(s, matched.eid);
      const missing = detailsRequired(s.signer);
      if (missing.name || missing.email) {
        throw ValidationError.of(
          missing.name ? 'name' : 'email',
          `Enter your ${missing.name ? 'name' : 'email'} before signing (required on opening)`,
        );
      }
      if (submission.accepted && acceptsEachField(s.signer))
        checkAccepted(snap.documents, s.aliasId, submission.accepted);
      if (
        submission.documentsVersion !== undefined &&
        submission.documentsVersion !== documentsVersionOf(snap.documents)
      )
        throw new PacketStateError(
          'The documents changed since the signing page was opened: reload the page to review them before signing',
          'documentsVersion',
        );
      const inputs: SignerInputs = { ...submission.inputs, signedAt: new Date(now) };
      const current = await Promise.all(snap.documents.map((d) => ctx.blob(d.currentHash)));
      const signed = await ctx.work.sign(
        snap.documents.map((d, i) => ({ pdf: current[i]!, fields: d.fields })),
        signerOf(s),
        inputs,
        signerSealOf(ctx, snap.packet.eid, signerEid),
      );
      s.status = 'completed';
      s.signedAt = now;
      const seen = cleanSeen({ ip: submission.ip, userAgent: submission.userAgent });
      s.ip = seen.ip ?? null;
      s.userAgent = seen.userAgent ?? null;
      // The audit trail: the boxes the page said were accepted, and the zone it reported.
      s.signer = {
        ...s.signer,
        audit: {
          ...s.signer.audit,
          ...(submission.accepted ? { accepted: acceptedBoxesOf(snap.documents, s.aliasId, submission.accepted) } : {}),
          ...(timeZone ? { timeZone } : {}),
        },
      };
      if (s.viewedAt === null) s.viewedAt = now;
      s.inputsHash = await ctx.store.blobs.put(new TextEncoder().encode(encode(inputs)));
      const finals =
        route(snap.signers).order === null
          ? await completePacket(ctx, snap, signed, now, { signerEid, tokenEid: matched.eid })
          : signed;
      for (const [i, d] of snap.documents.entries()) d.currentHash = await ctx.store.blobs.put(finals[i]!);
      // Per-signer mode: the certificate of completion comes back as one more, separately sealed, document.
      const certificate = finals[snap.documents.length];
      if (certificate)
        snap.documents.push(await certificateRecord(ctx, snap.packet.eid, snap.documents.length, certificate));
      return { tokenEid: matched.eid };
    },
  );
  return { ...event!, ...(redirectURL ? { redirectURL } : {}) };
}
