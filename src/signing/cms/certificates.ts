/**
 * What a certificate allows and when: the checks both sides share. Sealing refuses a certificate
 * that fails them (before anything is written); `verifyPdf` reports them per signature.
 * Extensions are read with PKI.js/asn1js; names and dates with node:crypto.
 */
import type { X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

/** A DN on one line, e.g. `O=castpress, OU=install 3f…, CN=castpress local signer 3f…`. */
export function dn(cert: X509Certificate, which: 'subject' | 'issuer'): string {
  return cert[which].split('\n').join(', ');
}

export interface ValidityCheck {
  ok: boolean;
  notBefore: Date;
  notAfter: Date;
  reason?: string;
}

/** notBefore ≤ at ≤ notAfter (RFC 5280 §4.1.2.5: both ends inclusive). */
export function validityAt(cert: X509Certificate, at: Date): ValidityCheck {
  const notBefore = new Date(cert.validFrom);
  const notAfter = new Date(cert.validTo);
  const t = at.getTime();
  if (t < notBefore.getTime())
    return {
      ok: false,
      notBefore,
      notAfter,
      reason: `${dn(cert, 'subject')} was not yet valid at ${at.toISOString()} (valid from ${notBefore.toISOString()})`,
    };
  if (t > notAfter.getTime())
    return {
      ok: false,
      notBefore,
      notAfter,
      reason: `${dn(cert, 'subject')} had expired at ${at.toISOString()} (valid until ${notAfter.toISOString()})`,
    };
  return { ok: true, notBefore, notAfter };
}

const KEY_USAGE_EXTENSION = '2.5.29.15';
const EXT_KEY_USAGE_EXTENSION = '2.5.29.37';

/** RFC 5280 §4.2.1.3, bit 0 first. */
const KEY_USAGE_BITS = [
  'digitalSignature',
  'nonRepudiation',
  'keyEncipherment',
  'dataEncipherment',
  'keyAgreement',
  'keyCertSign',
  'cRLSign',
  'encipherOnly',
  'decipherOnly',
] as const;

const PURPOSE_NAMES: Record<string, string> = {
  '2.5.29.37.0': 'anyExtendedKeyUsage',
  '1.3.6.1.5.5.7.3.1': 'serverAuth',
  '1.3.6.1.5.5.7.3.2': 'clientAuth',
  '1.3.6.1.5.5.7.3.3': 'codeSigning',
  '1.3.6.1.5.5.7.3.4': 'emailProtection',
  '1.3.6.1.5.5.7.3.8': 'timeStamping',
  '1.3.6.1.5.5.7.3.9': 'OCSPSigning',
  '1.3.6.1.5.5.7.3.36': 'documentSigning',
  '1.2.840.113583.1.1.5': 'adobeAuthenticDocumentsTrust',
  '1.3.6.1.4.1.311.10.3.12': 'microsoftDocumentSigning',
};

/**
 * Extended key usages that make a certificate fit to sign documents: any purpose, e-mail
 * protection (what NSS and S/MIME signers check), RFC 9336 document signing, and Adobe's and
 * Microsoft's document-signing purposes. A list of only other purposes (a TLS server or client
 * certificate, code signing) names a certificate issued for something else.
 */
const DOCUMENT_SIGNING_PURPOSES = new Set([
  '2.5.29.37.0',
  '1.3.6.1.5.5.7.3.4',
  '1.3.6.1.5.5.7.3.36',
  '1.2.840.113583.1.1.5',
  '1.3.6.1.4.1.311.10.3.12',
]);
/** RFC 3161 §2.3: a TSA certificate has the timeStamping purpose. */
const TIME_STAMPING = '1.3.6.1.5.5.7.3.8';

export interface KeyUsageCheck {
  ok: boolean;
  /** The keyUsage bits set, when the certificate has the extension. */
  keyUsage?: string[];
  /** The extended key usages by name (OID when unnamed), when the certificate has the extension. */
  extendedKeyUsage?: string[];
  reason?: string;
}

function extensionValue(cert: pkijs.Certificate, id: string): asn1js.AsnType | undefined {
  const ext = cert.extensions?.find((e) => e.extnID === id);
  if (!ext) return undefined;
  const asn = asn1js.fromBER(ext.extnValue.valueBlock.valueHexView);
  if (asn.offset === -1) throw new Error(`extension ${id} does not parse`);
  return asn.result;
}

function keyUsageBits(value: asn1js.AsnType): string[] {
  if (!(value instanceof asn1js.BitString)) throw new Error('keyUsage is not a BIT STRING');
  const bytes = value.valueBlock.valueHexView;
  return KEY_USAGE_BITS.filter((_, i) => ((bytes[i >> 3] ?? 0) & (0x80 >> (i & 7))) !== 0);
}

function purposes(value: asn1js.AsnType): string[] {
  if (!(value instanceof asn1js.Sequence)) throw new Error('extKeyUsage is not a SEQUENCE');
  return value.valueBlock.value.map((v) => {
    if (!(v instanceof asn1js.ObjectIdentifier)) throw new Error('extKeyUsage holds something other than OIDs');
    return v.valueBlock.toString();
  });
}

/**
 * Whether the certificate's key may make a signature of this kind: keyUsage, when present, has
 * digitalSignature or nonRepudiation; extendedKeyUsage, when present, names a document-signing
 * purpose (for `signing`) or timeStamping (for `timestamping`, a TSA's certificate).
 */
export function keyUsageFor(der: Uint8Array, kind: 'signing' | 'timestamping'): KeyUsageCheck {
  let keyUsage: string[] | undefined;
  let oids: string[] | undefined;
  try {
    const cert = pkijs.Certificate.fromBER(new Uint8Array(der));
    const ku = extensionValue(cert, KEY_USAGE_EXTENSION);
    const eku = extensionValue(cert, EXT_KEY_USAGE_EXTENSION);
    keyUsage = ku ? keyUsageBits(ku) : undefined;
    oids = eku ? purposes(eku) : undefined;
  } catch (e) {
    return { ok: false, reason: `Cannot read the certificate's key usage: ${(e as Error).message}` };
  }
  const extendedKeyUsage = oids?.map((o) => PURPOSE_NAMES[o] ?? o);
  const found = { ...(keyUsage ? { keyUsage } : {}), ...(extendedKeyUsage ? { extendedKeyUsage } : {}) };
  if (keyUsage && !keyUsage.includes('digitalSignature') && !keyUsage.includes('nonRepudiation')) {
    return {
      ok: false,
      ...found,
      reason: `The certificate's key usage (${keyUsage.join(', ') || 'none'}) allows neither digitalSignature nor nonRepudiation`,
    };
  }
  if (oids && kind === 'signing' && !oids.some((o) => DOCUMENT_SIGNING_PURPOSES.has(o))) {
    return {
      ok: false,
      ...found,
      reason: `The certificate's extended key usage (${extendedKeyUsage!.join(', ')}) is not for signing documents`,
    };
  }
  if (kind === 'timestamping' && !oids?.includes(TIME_STAMPING)) {
    return {
      ok: false,
      ...found,
      reason: 'The timestamp authority certificate lacks the timeStamping extended key usage',
    };
  }
  return { ok: true, ...found };
}

/**
 * Why a certificate may not sign a document at `at` (its key usage, then its validity period), or
 * undefined. Sealing and making an identity from a supplied certificate refuse on it.
 */
export function signingCertificateProblem(cert: X509Certificate, at: Date): string | undefined {
  const usage = keyUsageFor(cert.raw, 'signing');
  if (!usage.ok) return usage.reason;
  return validityAt(cert, at).reason;
}
