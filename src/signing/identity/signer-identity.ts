/**
 * Per-signer identities: each signer of a packet signs with a certificate of their own,
 * issued for that one signature by the operator's local CA, with a key made for it and never
 * reused. The certificate names the signer (CN = name, e-mail as subjectAltName rfc822Name);
 * which packet and which signer it was is said in the signature dictionary's /Reason (seal.ts).
 */
import { ValidationError } from '../../errors/index.js';
import type { SigningIdentity } from './options.js';
import { SignerCertificateIssuer, type SignerIdentityOptions } from './signer-issuer.js';
export type { SignerIdentityOptions } from './signer-issuer.js';

/**
 * A signing identity for one signer, issued by the operator's local CA (a generated identity whose
 * root key is at hand; a PKCS#12 or PEM identity is a signing certificate, not a CA): a fresh ECDSA P-256 key, the CA's key usage and EKU, the signer's
 * name and e-mail. A `ValidationError` on `identity` when the operator cannot issue.
 */
export async function issueSignerIdentity(
  operator: SigningIdentity,
  options: SignerIdentityOptions,
): Promise<SigningIdentity> {
  if (options.name.trim() === '')
    throw ValidationError.of('signer.name', "A per-signer certificate needs the signer's name");
  const issued = await issueOrUndefined(operator, options);
  if (!issued)
    throw ValidationError.of('identity', 'Only a local CA with its root key can issue per-signer certificates');
  return issued;
}

/**
 * The identity a per-signer signature uses: one the operator's local CA issues for it
 * (`issueSignerIdentity`), else — a PKCS#12 or PEM identity, a CA whose root key is offline —
 * the operator's own. Reads the CA's files once.
 */
export async function signerIdentityFor(
  operator: SigningIdentity,
  options: SignerIdentityOptions,
): Promise<SigningIdentity> {
  return (await issueOrUndefined(operator, options)) ?? operator;
}

/**
 * Issues for `options`, or undefined when `operator` cannot issue (no local CA, or its root key not
 * at hand). Opens an issuer for this one certificate: a caller signing more than once keeps a
 * `SignerCertificateIssuer` open instead.
 */
async function issueOrUndefined(
  operator: SigningIdentity,
  options: SignerIdentityOptions,
): Promise<SigningIdentity | undefined> {
  const issuer = await SignerCertificateIssuer.open(operator);
  if (!issuer) return undefined;
  try {
    return await issuer.issue(options);
  } finally {
    issuer.close();
  }
}
