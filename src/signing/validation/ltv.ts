/**
 * Long-term validation in the verifier: what makes a signature's revocation data count. PAdES B-LT
 * needs the DSS to hold revocation data for the signer's certificate gathered after the signature
 * was made (ETSI EN 319 102-1: issued after the signature's time, or it could not show that the key
 * was not revoked before then). With `requireRevocation`, a signature without such data (status
 * other than good) is not valid — AdES validation with revocation checking required, offline, from
 * the document's own DSS.
 */
import type { Checked } from './report.js';

/** The DSS's revocation data says good for the signer and was issued at or after the signature's (timestamp) time. */
export function hasFreshRevocation(sig: Pick<Checked, 'revocation' | 'timestamp' | 'validityPeriod'>): boolean {
  const r = sig.revocation;
  if (r?.status !== 'good' || !r.crlIssuedAt) return false;
  const signedAt = sig.timestamp?.time ?? sig.validityPeriod.time;
  return r.crlIssuedAt.getTime() >= signedAt.getTime();
}

/** `sig` held to required revocation data: not valid unless its certificate's status is good. */
export function withRevocationRequired(sig: Checked): Checked {
  if (sig.kind !== 'signature' || !sig.revocation || sig.revocation.status === 'good') return sig;
  if (sig.revocation.status === 'revoked') return sig; // already not valid, with its reason
  return {
    ...sig,
    valid: false,
    problems: [...sig.problems, `Revocation data required: ${sig.revocation.reason ?? 'status unknown'}`],
  };
}
