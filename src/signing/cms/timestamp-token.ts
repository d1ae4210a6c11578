import type { TimestampAuthority } from '@libpdf/core';
import { CastpressError, SigningError } from '../../errors/index.js';

/**
 * A token from `tsa` over `digest` (SHA-256). A TSA that refuses, fails or does not answer is the
 * TSA's failure: a SigningError (502) on `timestamp`, not the document's.
 */
export async function timestampToken(tsa: TimestampAuthority, digest: Uint8Array): Promise<Uint8Array> {
  try {
    return await tsa.timestamp(digest, 'SHA-256');
  } catch (e) {
    if (e instanceof CastpressError) throw e;
    throw new SigningError(`Timestamp authority failed: ${(e as Error).message}`, 'timestamp', 502, { cause: e });
  }
}
