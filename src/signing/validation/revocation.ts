/**
 * Revocation status of a certificate from the CRLs a document carries in its DSS (PAdES B-LT):
 * good, revoked, or unknown when no CRL of its issuer (signed by that issuer) speaks for it.
 * Only CRLs are read; OCSP responses in the DSS are not checked yet (castpress writes none).
 */
import { verify as verifySignature, X509Certificate } from 'node:crypto';
import * as pkijs from 'pkijs';

export interface RevocationReport {
  status: 'good' | 'revoked' | 'unknown';
  /** When the CRL says the certificate was revoked. */
  revokedAt?: Date;
  /** thisUpdate of the CRL the status comes from. */
  crlIssuedAt?: Date;
  /** Why unknown or revoked, in words. */
  reason?: string;
}

/** Signature algorithms a CRL may be signed with, and the digest node:crypto verifies them with. */
const CRL_SIGNATURE_DIGESTS: Record<string, string> = {
  '1.2.840.113549.1.1.11': 'sha256',
  '1.2.840.113549.1.1.12': 'sha384',
  '1.2.840.113549.1.1.13': 'sha512',
  '1.2.840.10045.4.3.2': 'sha256',
  '1.2.840.10045.4.3.3': 'sha384',
  '1.2.840.10045.4.3.4': 'sha512',
};

interface ReadCrl {
  thisUpdate: Date;
  nextUpdate?: Date;
  revoked: Map<string, Date>;
}

/** A CRL `issuer` signed and whose issuer name is the certificate's issuer, or undefined. */
function readCrl(der: Uint8Array, cert: X509Certificate, issuer: X509Certificate): ReadCrl | undefined {
  let crl: pkijs.CertificateRevocationList;
  try {
    crl = pkijs.CertificateRevocationList.fromBER(new Uint8Array(der));
  } catch {
    return undefined;
  }
  const certIssuer = pkijs.Certificate.fromBER(new Uint8Array(cert.raw)).issuer;
  if (!crl.issuer.isEqual(certIssuer)) return undefined;
  const digest = CRL_SIGNATURE_DIGESTS[crl.signatureAlgorithm.algorithmId];
  if (!digest) return undefined;
  let ok = false;
  try {
    ok = verifySignature(digest, crl.tbsView, issuer.publicKey, crl.signatureValue.valueBlock.valueHexView);
  } catch {
    ok = false;
  }
  if (!ok) return undefined;
  const revoked = new Map<string, Date>();
  for (const entry of crl.revokedCertificates ?? []) {
    revoked.set(
      Buffer.from(entry.userCertificate.valueBlock.valueHexView).toString('hex').replace(/^0+/, '').toUpperCase(),
      entry.revocationDate.value,
    );
  }
  return { thisUpdate: crl.thisUpdate.value, ...(crl.nextUpdate ? { nextUpdate: crl.nextUpdate.value } : {}), revoked };
}

/**
 * The status of `certificate` (issued by `issuer`, both DER) at `at` from `crls`. Revoked when a CRL
 * lists it from `at` or earlier, or at any time when `at` is only the signer's claim (`timeProven`
 * false: a signer with a revoked key could backdate /M). Good when not listed by a CRL current at or
 * after `at` (its nextUpdate, else thisUpdate, not before `at`). Otherwise unknown.
 */
export function revocationOf(
  certificate: Uint8Array,
  issuer: Uint8Array,
  crls: readonly Uint8Array[],
  at: Date,
  timeProven = true,
): RevocationReport {
  let cert: X509Certificate;
  let issuerCert: X509Certificate;
  try {
    cert = new X509Certificate(certificate);
    issuerCert = new X509Certificate(issuer);
  } catch {
    return { status: 'unknown', reason: 'Unreadable certificate' };
  }
  const serial = cert.serialNumber.replace(/^0+/, '').toUpperCase();
  let current: ReadCrl | undefined;
  for (const der of crls) {
    const crl = readCrl(der, cert, issuerCert);
    if (!crl) continue;
    const revokedAt = crl.revoked.get(serial);
    if (revokedAt && (!timeProven || revokedAt.getTime() <= at.getTime())) {
      return {
        status: 'revoked',
        revokedAt,
        crlIssuedAt: crl.thisUpdate,
        reason: `The signing certificate was revoked on ${revokedAt.toISOString()} (CRL in the DSS)`,
      };
    }
    if (
      (crl.nextUpdate ?? crl.thisUpdate).getTime() >= at.getTime() &&
      (!current || crl.thisUpdate > current.thisUpdate)
    )
      current = crl;
  }
  if (current) return { status: 'good', crlIssuedAt: current.thisUpdate };
  return {
    status: 'unknown',
    reason: crls.length
      ? 'No CRL in the DSS from the issuer covers the signing time'
      : 'No revocation data (no CRL in the DSS)',
  };
}
