/**
 * Per-signer identities (#31): each signer of a packet signs with a certificate of their own,
 * issued for that one signature by the operator's local CA, with a key made for it and never
 * reused. The certificate names the signer (CN = name, e-mail as subjectAltName rfc822Name);
 * which packet and which signer it was is said in the signature dictionary's /Reason (seal.ts).
 */
import { createPrivateKey } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import * as pkijs from 'pkijs';
import { ValidationError } from '../errors/index.js';
import { createSigningIdentity } from './identity.js';
import type { SigningIdentity } from './identity-options.js';
import { issueEndEntity } from './local-ca.js';
import { certificatesFromPem, toPem } from './pem.js';

export interface SignerIdentityOptions {
  /** Signer's name: the certificate's CN. */
  name: string;
  email?: string;
  /** When the certificate starts to count (it starts a day earlier); default now. */
  now?: Date;
}

const CRL_DISTRIBUTION_POINTS = '2.5.29.31';

/** The operator's signing certificate's first CRL URL: the issued certificate names the same CRL (same root). */
function crlUrlOf(der: Uint8Array): string | undefined {
  const cert = pkijs.Certificate.fromBER(new Uint8Array(der));
  const ext = cert.extensions?.find((e) => e.extnID === CRL_DISTRIBUTION_POINTS);
  const parsed = ext?.parsedValue as pkijs.CRLDistributionPoints | undefined;
  const names = parsed?.distributionPoints[0]?.distributionPoint;
  const first = Array.isArray(names) ? names[0] : undefined;
  return first && first.type === 6 && typeof first.value === 'string' ? first.value : undefined;
}

/**
 * Whether `operator` can issue per-signer certificates: a local CA (generated identity) whose
 * root key is at hand. A PKCS#12 or PEM identity cannot (it is a signing certificate, not a CA).
 */
export async function canIssueSignerCertificates(operator: SigningIdentity): Promise<boolean> {
  if (operator.kind !== 'generated' || !operator.files) return false;
  return readFile(operator.files.rootKey).then(
    () => true,
    () => false,
  );
}

/**
 * A signing identity for one signer, issued by the operator's local CA (see
 * `canIssueSignerCertificates`): a fresh ECDSA P-256 key, the CA's key usage and EKU, the signer's
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
 * the operator's own. Reads the CA's files once (asking `canIssueSignerCertificates` first read
 * the root key twice per signature).
 */
export async function signerIdentityFor(
  operator: SigningIdentity,
  options: SignerIdentityOptions,
): Promise<SigningIdentity> {
  return (await issueOrUndefined(operator, options)) ?? operator;
}

/** Issues for `options`, or undefined when `operator` cannot issue (no local CA, or its root key not at hand). */
async function issueOrUndefined(
  operator: SigningIdentity,
  options: SignerIdentityOptions,
): Promise<SigningIdentity | undefined> {
  if (operator.kind !== 'generated' || !operator.files) return undefined;
  const name = options.name.trim().slice(0, 64);
  if (name === '') throw ValidationError.of('signer.name', "A per-signer certificate needs the signer's name");
  const files = operator.files;
  const read = await Promise.all([readFile(files.rootCertificate, 'utf8'), readFile(files.rootKey, 'utf8')]).catch(
    () => undefined,
  );
  if (!read) return undefined;
  const [rootPem, keyPem] = read;
  const rootDer = certificatesFromPem(rootPem)[0]!;
  const rootKey = new Uint8Array(createPrivateKey(keyPem).export({ type: 'pkcs8', format: 'der' }));
  const now = options.now ?? new Date();
  const crlUrl = crlUrlOf(operator.certificate);
  const issued = await issueEndEntity(
    { der: rootDer, pkcs8: rootKey },
    { commonName: name, ...(options.email ? { email: options.email } : {}) },
    now,
    crlUrl ? { crlUrl } : {},
  );
  return createSigningIdentity({
    privateKey: toPem(issued.pkcs8, 'PRIVATE KEY'),
    certificates: [toPem(issued.der, 'CERTIFICATE'), toPem(rootDer, 'CERTIFICATE')],
    clock: () => now,
  });
}
