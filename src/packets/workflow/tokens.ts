/**
 * Signer tokens: 256 random bits, handed out once inside a signing URL; the store
 * keeps only their SHA-256. A presented token is compared with each of the signer's
 * token hashes in constant time.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { TokenRecord } from '../store/index.js';
import { SignerError } from './errors.js';

export function newToken(): { token: string; hash: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, hash: hashToken(token) };
}

export function hashToken(token: string): string {
  return createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A random id with a readable prefix (`pkt_…`, `sgn_…`). */
export function newEid(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString('base64url').replace(/[-_]/g, 'x')}`;
}

/**
 * The signer's token that `presented` is, if valid at `now`. A token that is none of this
 * signer's is `tokenInvalid` (it may be another signer's: possibly hostile); one of theirs
 * that expired or was invalidated is `tokenExpired`.
 */
export function checkToken(
  presented: string,
  tokens: readonly TokenRecord[],
  signerEid: string,
  now: number,
): TokenRecord {
  const hash = Buffer.from(hashToken(presented), 'hex');
  let match: TokenRecord | undefined;
  for (const t of tokens) {
    // Every hash is compared, so the time taken does not tell which one matched.
    if (timingSafeEqual(hash, Buffer.from(t.hash, 'hex')) && !match) match = t;
  }
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
