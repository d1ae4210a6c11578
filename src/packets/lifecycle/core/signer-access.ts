/**
 * A signer's credentials and turn: tokens issued (only their hash stored), a presented token
 * checked, and whether the signer may open or sign now.
 */
import { TOKEN_MINUTES_EMAIL, TOKEN_MINUTES_EMBEDDED } from '../../request/request.js';
import type { PacketWrites, SignerRecord, TokenRecord, TokenType } from '../../store/index.js';
import type { WorkflowContext } from './context.js';
import { SignerError } from '../state/errors.js';
import { route } from '../state/routing.js';
import type { Snapshot } from './step.js';
import { checkToken, newEid, newToken } from '../state/tokens.js';
import { signerDownloadUrl, signingUrl } from '../state/urls.js';

const MINUTE = 60_000;

/**
 * Lifetime of the etchComplete mail's download link (the spec names none): 30 days, whatever the
 * signer's `tokenValidForMinutes` (that one is for signing). Long enough to open a mail read late;
 * after it, the documents are still there for the caller (API key downloads).
 */
const TOKEN_MINUTES_DOWNLOAD = 30 * 24 * 60;

/** A new token of `type` for the signer; the URL that carries it (the signing page, or for `download` the documents). */
export async function issueToken(
  ctx: WorkflowContext,
  tx: PacketWrites,
  s: SignerRecord,
  type: TokenType,
  now: number,
): Promise<string> {
  const minutes =
    type === 'download'
      ? TOKEN_MINUTES_DOWNLOAD
      : typeof s.signer.tokenValidForMinutes === 'number'
        ? s.signer.tokenValidForMinutes
        : type === 'embedded'
          ? TOKEN_MINUTES_EMBEDDED
          : TOKEN_MINUTES_EMAIL;
  const { token, hash } = newToken();
  await tx.insertToken({
    eid: newEid('tok'),
    signerEid: s.eid,
    hash,
    type,
    createdAt: now,
    validUntil: now + minutes * MINUTE,
    invalidatedAt: null,
    signedAt: null,
  });
  return type === 'download'
    ? signerDownloadUrl(ctx.options.baseUrl, s.eid, token)
    : signingUrl(ctx.options.baseUrl, s.eid, token);
}

/** Checks a signer's token (outside a transaction: a refusal changes nothing). */
export async function access(
  ctx: WorkflowContext,
  signerEid: string,
  token: string,
): Promise<{ signer: SignerRecord; token: TokenRecord }> {
  const signer = await ctx.store.signer(signerEid);
  if (!signer) throw new SignerError('notFound', 'Signer not found', `No signer "${signerEid}"`, signerEid);
  const matched = checkToken(token, await ctx.store.tokens(signerEid), signerEid, ctx.now());
  return { signer, token: matched };
}

/** Refuses a signer who may not open (`toSign` false) or sign now: draft packet, signed already, pending, skipped, not their round. */
export function assertTurn(snap: Snapshot, s: SignerRecord, toSign: boolean): void {
  const fail = (message: string) => new SignerError('unknown', 'Cannot sign now', message, s.eid);
  if (snap.packet.status === 'draft') throw fail('The packet has not been sent yet');
  if (s.status === 'completed') {
    if (toSign) throw fail('You have already signed');
    return;
  }
  if (s.status === 'pending' || s.status === 'skipped') throw fail(`This signer is ${s.status}`);
  if (!route(snap.signers).current.includes(s.eid))
    throw fail('Earlier signers in the routing order have not finished yet');
}
