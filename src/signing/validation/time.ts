/**
 * The time a signature's certificate is judged at. /M and a CMS signing-time are the signer's own
 * claim: anyone holding an expired (or revoked) key can write last year's date there. So a
 * signature is judged at the validation time (the caller's `at`, else now) unless a trusted time
 * shows it existed earlier (ETSI EN 319 102-1 "proof of existence"):
 *
 * - its signature timestamp (PAdES B-T), when the token is intact and its TSA chains to one of the
 *   caller's anchors with the timeStamping purpose, valid at the token's time;
 * - else, when the certificate fails at the validation time, a later document timestamp covering
 *   the signature (B-LTA), itself valid, at whose time the certificate was valid and the DSS's
 *   revocation data says good.
 *
 * Without either, an expired certificate makes the signature not valid (indeterminate: no proof
 * that it was made before the expiry), whatever /M says.
 */
import type { X509Certificate } from 'node:crypto';
import { keyUsageFor, validityAt } from '../cms/certificates.js';
import type { TokenCheck } from '../cms/integrity.js';
import type { RevocationReport } from './revocation.js';
import type { ValidityPeriodReport } from './report.js';
import { buildChain } from './trust.js';

export type JudgedTime = Pick<ValidityPeriodReport, 'time' | 'timeSource'>;

/** A document timestamp that checked out (intact, trusted, valid at its own time): a proof of existence. */
export interface ProofOfExistence {
  /** The end of the bytes it covers (a signature whose ranges end at or before it existed at `time`). */
  end: number;
  time: Date;
}

/** Whether a signature timestamp's TSA is trusted at the token's time; the reason when not. */
export function tokenTrust(
  check: TokenCheck,
  anchors: X509Certificate[],
): { trusted: true } | { trusted: false; reason: string } {
  if (!check.imprintMatches || !check.signatureValid)
    return { trusted: false, reason: 'The timestamp token does not match the signature' };
  const tsa = check.tsaCertificate;
  if (!tsa) return { trusted: false, reason: 'The timestamp token carries no TSA certificate' };
  const chain = buildChain(tsa, check.certificates, anchors, check.time);
  if (!chain.trusted) return { trusted: false, reason: `The timestamp authority is not trusted: ${chain.problem}` };
  const usage = keyUsageFor(tsa.raw, 'timestamping');
  if (!usage.ok) return { trusted: false, reason: usage.reason ?? 'Not a timestamping certificate' };
  return { trusted: true };
}

export interface TimeInputs {
  /** The caller's validation time, if given. */
  at: Date | undefined;
  now: Date;
  /** The signature timestamp's time, when its token is intact and its TSA trusted. */
  trustedTimestamp: Date | undefined;
  /** The end of the signature's covered bytes. */
  end: number;
  /** Valid document timestamps of the file (computed only when asked). */
  proofs: () => ProofOfExistence[];
  /** The signer certificate's revocation status at a proven time, from the DSS. */
  revocationAt: (time: JudgedTime) => RevocationReport;
}

/** The time to judge a signature's certificate at (see the module comment). */
export function signatureTime(cert: X509Certificate | undefined, inputs: TimeInputs): JudgedTime {
  if (inputs.trustedTimestamp) return { time: inputs.trustedTimestamp, timeSource: 'timestamp' };
  const validation: JudgedTime = inputs.at
    ? { time: inputs.at, timeSource: 'at' }
    : { time: inputs.now, timeSource: 'now' };
  if (!cert || validityAt(cert, validation.time).ok) return validation;
  // The earliest document timestamp after the signature at which its certificate was valid and not revoked.
  const proofs = inputs
    .proofs()
    .filter((p) => p.end >= inputs.end && p.time.getTime() <= validation.time.getTime())
    .sort((a, b) => a.time.getTime() - b.time.getTime());
  for (const proof of proofs) {
    const at: JudgedTime = { time: proof.time, timeSource: 'documentTimestamp' };
    if (validityAt(cert, proof.time).ok && inputs.revocationAt(at).status === 'good') return at;
  }
  return validation;
}

/** The validity period's reason when a certificate fails at the validation time and /M claims a time it was valid. */
export function noProofReason(
  reason: string | undefined,
  time: JudgedTime,
  claimed: Date | undefined,
  cert: X509Certificate | undefined,
): string | undefined {
  if (!reason || !cert || (time.timeSource !== 'now' && time.timeSource !== 'at')) return reason;
  if (time.time.getTime() <= new Date(cert.validTo).getTime()) return reason;
  const claim =
    claimed && validityAt(cert, claimed).ok
      ? ` (its claimed signing time ${claimed.toISOString()} is the signer's word)`
      : '';
  return `${reason}: indeterminate, no trusted time shows the signature was made while the certificate was valid${claim}; a signature timestamp, or a document timestamp with revocation data, from before the expiry would`;
}
