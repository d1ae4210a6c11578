/**
 * Signer step "hand-over": an `in-person` or `in-person-inline` signer signs on a device the
 * sender hands over. Before the documents are shown the signer types their name; it must be the
 * signer's name (case and spaces ignored). The confirmation is kept for the URL's token only, so a
 * new URL (another hand-over) asks again; the documents and the submission wait for it.
 * `signerUpdateStatus` records it (`inPerson`, `handedOverAt`).
 */
import { ValidationError } from '../../../errors/index.js';
import { cleanTypedText } from '../../../format/index.js';
import { parseWith } from '../../../schema/index.js';
import { IN_PERSON_SIGNER_TYPES } from '../../request/request.js';
import type { SignerRecord } from '../../store/index.js';
import { signerAccessArgs } from '../state/args.js';
import type { WorkflowContext } from '../core/context.js';
import { SignerError } from '../state/errors.js';
import { signerStatusEvent } from '../core/outbox.js';
import { access, assertTurn } from '../core/signer-access.js';
import { runStep, signerOfSnap } from '../core/step.js';
import { checkToken } from '../state/tokens.js';

/** A name as compared at hand-over: case, spaces and invisible characters do not count. */
function nameKey(name: string): string {
  return cleanTypedText(name).normalize('NFKC').toLowerCase().replace(/\s+/g, '');
}

/** The name the signer must confirm before the documents are shown to the holder of token `tokenEid`; null when none. */
export function handOverFor(s: SignerRecord, tokenEid: string): string | null {
  if (!IN_PERSON_SIGNER_TYPES.includes(s.signerType)) return null;
  if (s.signer.handedOver?.tokenEid === tokenEid) return null;
  return s.name ?? '';
}

/** Refuses documents or a submission before the hand-over of this URL was confirmed. */
export function assertHandedOver(s: SignerRecord, tokenEid: string): void {
  if (handOverFor(s, tokenEid) === null) return;
  throw new SignerError(
    'unknown',
    'Hand-over not confirmed',
    'The signer has not confirmed their name on this device yet: the documents are shown once they have',
    s.eid,
    403,
  );
}

export async function confirmHandOver(ctx: WorkflowContext, args: unknown, typed: unknown): Promise<void> {
  const { signerEid, token } = parseWith(signerAccessArgs, args);
  const { signer } = await access(ctx, signerEid, token);
  if (typeof typed !== 'string' || nameKey(typed) === '')
    throw ValidationError.of('name', 'Type your full name to confirm you are the signer');
  if (!IN_PERSON_SIGNER_TYPES.includes(signer.signerType))
    throw ValidationError.of('name', `A ${signer.signerType} signer is not handed a device: nothing to confirm`);
  await runStep<{ tokenEid: string }>(
    ctx,
    signer.packetEid,
    async (tx, snap, now, work) => {
      const s = signerOfSnap(snap, signerEid);
      s.signer = { ...s.signer, handedOver: { tokenEid: work.tokenEid, at: now, name: cleanTypedText(typed) } };
      await tx.updateSigner(s);
      return signerStatusEvent(ctx, tx, snap, s, now, {
        signerType: s.signerType,
        inPerson: true,
        handedOverAt: new Date(now).toISOString(),
      });
    },
    async (snap, now) => {
      // Checked on the state the step works on: the signer may have signed, or the token been revoked, meanwhile.
      const s = signerOfSnap(snap, signerEid);
      assertTurn(snap, s, true);
      const matched = checkToken(token, await ctx.store.tokens(signerEid), signerEid, now);
      if (nameKey(typed) !== nameKey(s.name ?? '')) {
        // The message alone (no property prefix): the hand-over step shows it as it is.
        const message = `That is not the name of the signer. Please hand this device to ${s.name ?? 'the signer'}.`;
        throw new ValidationError([{ property: 'name', message }], message);
      }
      return { tokenEid: matched.eid };
    },
  );
}
