/**
 * Signer tokens: 256 random bits, handed out once inside a signing URL; the store
 * keeps only their SHA-256. A presented token is compared with each of the signer's
 * token hashes in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenRecord } from '../../store/index.js';
import { SignerError } from './errors.js';

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A random id with a readable prefix (`pkt_…`, `sgn_…`). */
export function newEid(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/** The token of `tokens` whose hash `presented` has, if any. */
function matching(presented: string, tokens: readonly TokenRecord[]): TokenRecord | undefined {
  const hash = Buffer.from(hashToken(presented), 'hex');
  let match: TokenRecord | undefined;
  for (const t of tokens) {
    // Every hash is compared, so the time taken does not tell which one matched.
    if (timingSafeEqual(hash, Buffer.from(t.hash, 'hex')) && !match) match = t;
  }
  return match;
}

/**
 * The signer's signing token that `presented` is, if valid at `now`. A token that is none of this
 * signer's signing tokens is `tokenInvalid` (it may be another signer's, or a download token:
 * possibly hostile); one of theirs that expired or was invalidated is `tokenExpired`.
 */
export function checkToken(
  presented: string,
  tokens: readonly TokenRecord[],
  signerEid: string,
  now: number,
): TokenRecord {
  const match = matching(
    presented,
    tokens.filter((t) => t.type !== 'download'),
  );
  if (!match)
    throw new SignerError(
      'tokenInvalid',
      'Invalid link',
      'This signing link does not belong to this signer',
      signerEid,
    );
  if (match.invalidatedAt !== null && match.invalidatedAt <= now)
    throw new SignerError(
      'tokenExpired',
      'Link expired',
      'This signing link is no longer valid; ask for a new one',
      signerEid,
    );
  if (match.validUntil <= now)
    throw new SignerError(
      'tokenExpired',
      'Link expired',
      'This signing link has expired; ask for a new one',
      signerEid,
    );
  return match;
}

/**
 * Whether `presented` may fetch the signer's completed documents at `now`: a download token of
 * theirs (the etchComplete mail's) still in its lifetime, or the signing token they signed with
 * (the signing page shows the downloads to the link that signed) while it lives. Anything else is
 * refused as a signing link would be.
 */
export function checkDownloadToken(
  presented: string,
  tokens: readonly TokenRecord[],
  signerEid: string,
  now: number,
): TokenRecord {
  const match = matching(presented, tokens);
  if (!match || (match.type !== 'download' && match.signedAt === null))
    throw new SignerError(
      'tokenInvalid',
      'Invalid link',
      'This download link does not belong to this signer',
      signerEid,
    );
  if ((match.invalidatedAt !== null && match.invalidatedAt <= now) || match.validUntil <= now)
    throw new SignerError('tokenExpired', 'Link expired', 'This download link has expired', signerEid);
  return match;
}
