/**
 * Integrity: the CMS of a signature or an RFC 3161 token, read with PKI.js and checked with
 * node:crypto — the digest of the covered bytes, the signer's signature over the signed
 * attributes, the container's form (DER, RFC 5652), the ESS signing-certificate-v2 attribute.
 */
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { dn } from './certificates.js';

export interface TimestampReport {
  /** genTime of the RFC 3161 token. */
  time: Date;
  /** The token's message imprint equals the hash of the signature value. */
  imprintMatches: boolean;
  /** The token's own CMS signature verifies with the TSA certificate it carries. */
  signatureValid: boolean;
  tsa?: string;
  /** For a signature timestamp: its TSA chains to a trust anchor (timeStamping, valid at the token's time), so its time counts. */
  trusted?: boolean;
  /** Why its time does not count, when not trusted. */
  untrustedReason?: string;
}

export const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timestampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
} as const;

export const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

export function attribute(info: pkijs.SignerInfo, type: string, unsigned = false): pkijs.Attribute | undefined {
  return (unsigned ? info.unsignedAttrs : info.signedAttrs)?.attributes.find((a) => a.type === type);
}

export function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1) throw new Error('the signature value is not DER');
  // /Contents is the CMS followed by zero padding; anything else there was written afterwards.
  if (der.subarray(asn.offset).some((b) => b !== 0))
    throw new Error('bytes other than zero padding follow the signature value');
  // DER has one encoding per value: what parses but encodes differently was changed (a length, a tag).
  if (!Buffer.from(asn.result.toBER(false)).equals(Buffer.from(der.subarray(0, asn.offset))))
    throw new Error('the signature value is not in DER form');
  const info = new pkijs.ContentInfo({ schema: asn.result });
  if (info.contentType !== OID.signedData) throw new Error(`content type ${info.contentType} is not signed-data`);
  return new pkijs.SignedData({ schema: info.content });
}

export interface CmsCertificate {
  pki: pkijs.Certificate;
  x509: X509Certificate;
}

export function certificatesOf(sd: pkijs.SignedData): CmsCertificate[] {
  return (sd.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((pki) => ({ pki, x509: new X509Certificate(Buffer.from(pki.toSchema().toBER(false))) }));
}

const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';

/** The certificate a SignerInfo names: by issuer and serial number, or by subject key identifier. */
export function findSignerCertificate(info: pkijs.SignerInfo, certs: CmsCertificate[]): X509Certificate | undefined {
  const sid: unknown = info.sid;
  if (sid instanceof pkijs.IssuerAndSerialNumber) {
    return certs.find((c) => c.pki.serialNumber.isEqual(sid.serialNumber) && c.pki.issuer.isEqual(sid.issuer))?.x509;
  }
  // [0] SubjectKeyIdentifier: an implicitly tagged OCTET STRING.
  const keyId = sid instanceof asn1js.Primitive ? Buffer.from(sid.valueBlock.valueHexView) : undefined;
  if (!keyId) return undefined;
  return certs.find((c) => {
    const ext = c.pki.extensions?.find((e) => e.extnID === SUBJECT_KEY_IDENTIFIER);
    const value = ext?.parsedValue;
    return value instanceof asn1js.OctetString && Buffer.from(value.valueBlock.valueHexView).equals(keyId);
  })?.x509;
}

/**
 * Every certificate the CMS carries that names a carried (or trusted) issuer verifies with one of
 * them: the copies are outside what the signature covers, so a changed byte there shows only here.
 */
export function damagedCertificate(certs: X509Certificate[], anchors: X509Certificate[]): X509Certificate | undefined {
  const pool = [...certs, ...anchors];
  return certs.find((cert) => {
    // Candidates by name, not checkIssued: a changed key identifier must not hide a changed certificate.
    const issuers = pool.filter((c) => c.subject === cert.issuer);
    if (issuers.length === 0) return false;
    return !issuers.some((c) => {
      try {
        return cert.verify(c.publicKey);
      } catch {
        return false;
      }
    });
  });
}

/**
 * The parts of SignedData no signature covers, held to RFC 5652: the version its content asks
 * for, the signer's digest among digestAlgorithms, eContentType equal to the signed content-type.
 */
export function cmsStructureProblem(sd: pkijs.SignedData, info: pkijs.SignerInfo): string | undefined {
  const eContentType = sd.encapContentInfo.eContentType;
  const expectedVersion = eContentType !== OID.data || sd.signerInfos.some((s) => s.version === 3) ? 3 : 1;
  if (sd.version !== expectedVersion && !(sd.version === 4 || sd.version === 5))
    return `SignedData version ${sd.version}, expected ${expectedVersion}`;
  const expectedSignerVersion = info.sid instanceof pkijs.IssuerAndSerialNumber ? 1 : 3;
  if (info.version !== expectedSignerVersion)
    return `SignerInfo version ${info.version}, expected ${expectedSignerVersion}`;
  if (!sd.digestAlgorithms.some((a) => a.algorithmId === info.digestAlgorithm.algorithmId))
    return "The signer's digest algorithm is not among the SignedData digest algorithms";
  if (sd.digestAlgorithms.some((a) => DIGESTS[a.algorithmId] === undefined))
    return 'Unknown digest algorithm in SignedData';
  const ct = attribute(info, OID.contentType)?.values[0];
  if (!(ct instanceof asn1js.ObjectIdentifier) || ct.valueBlock.toString() !== eContentType)
    return 'The content-type attribute does not match the encapsulated content type';
  return undefined;
}

/** Signature algorithms checked here: the key type they need and the digest they name, if any. */
const SIGNATURE_ALGORITHMS: Record<string, { key: 'rsa' | 'ec'; digest?: string }> = {
  '1.2.840.113549.1.1.1': { key: 'rsa' },
  '1.2.840.113549.1.1.5': { key: 'rsa', digest: 'sha1' },
  '1.2.840.113549.1.1.11': { key: 'rsa', digest: 'sha256' },
  '1.2.840.113549.1.1.12': { key: 'rsa', digest: 'sha384' },
  '1.2.840.113549.1.1.13': { key: 'rsa', digest: 'sha512' },
  '1.2.840.10045.2.1': { key: 'ec' },
  '1.2.840.10045.4.3.2': { key: 'ec', digest: 'sha256' },
  '1.2.840.10045.4.3.3': { key: 'ec', digest: 'sha384' },
  '1.2.840.10045.4.3.4': { key: 'ec', digest: 'sha512' },
};

/**
 * Verifies the signer's signature over `data` (the DER of the signed attributes) with the
 * certificate's key, for an algorithm that fits the key and the digest (PKCS#1 v1.5, ECDSA;
 * RSASSA-PSS is not produced by us and not checked).
 */
export function signatureVerifies(
  info: pkijs.SignerInfo,
  data: Uint8Array,
  cert: X509Certificate,
  digest: string,
): boolean {
  const alg = SIGNATURE_ALGORITHMS[info.signatureAlgorithm.algorithmId];
  if (!alg || alg.key !== cert.publicKey.asymmetricKeyType || (alg.digest !== undefined && alg.digest !== digest))
    return false;
  try {
    return verifySignature(digest, data, cert.publicKey, info.signature.valueBlock.valueHexView);
  } catch {
    return false;
  }
}

export function hashRanges(file: Buffer, ranges: Array<[number, number]>, digest: string): Buffer {
  const hash = createHash(digest);
  for (const [start, end] of ranges) hash.update(file.subarray(start, end));
  return hash.digest();
}

export function signingCertificateV2Names(info: pkijs.SignerInfo, cert: X509Certificate): boolean {
  const attr = attribute(info, OID.signingCertificateV2);
  if (!attr) return false;
  // SigningCertificateV2 ::= SEQUENCE { certs SEQUENCE OF ESSCertIDv2, … }; ESSCertIDv2 ::= SEQUENCE
  // { hashAlgorithm AlgorithmIdentifier DEFAULT sha256, certHash OCTET STRING, … }. Read through asn1js.
  try {
    const certs = (attr.values[0] as asn1js.Sequence).valueBlock.value[0] as asn1js.Sequence;
    const first = certs.valueBlock.value[0] as asn1js.Sequence;
    let hashAlg = 'sha256';
    let certHash: Uint8Array | undefined;
    for (const part of first.valueBlock.value) {
      if (part instanceof asn1js.Sequence)
        hashAlg = DIGESTS[new pkijs.AlgorithmIdentifier({ schema: part }).algorithmId] ?? 'unknown';
      else if (part instanceof asn1js.OctetString) {
        certHash = part.valueBlock.valueHexView;
        break;
      }
    }
    if (!certHash || hashAlg === 'unknown') return false;
    return createHash(hashAlg).update(cert.raw).digest().equals(Buffer.from(certHash));
  } catch {
    return false;
  }
}

export function timeOf(attr: pkijs.Attribute | undefined): Date | undefined {
  const v = attr?.values[0];
  if (v instanceof asn1js.UTCTime || v instanceof asn1js.GeneralizedTime) return v.toDate();
  return undefined;
}

export interface TokenCheck extends TimestampReport {
  tsaCertificate?: X509Certificate;
  certificates: X509Certificate[];
}

/**
 * An RFC 3161 token: its TSTInfo's message imprint against `imprintOf` (what it should
 * timestamp, hashed with the token's own algorithm), and the TSA's CMS signature.
 */
export function checkToken(token: pkijs.SignedData, imprintOf: (digest: string) => Buffer): TokenCheck {
  const content = token.encapContentInfo.eContent;
  if (!content || token.encapContentInfo.eContentType !== OID.tstInfo)
    throw new Error('the timestamp token holds no TSTInfo');
  const tstDer = new Uint8Array(content.getValue());
  const tst = pkijs.TSTInfo.fromBER(tstDer);
  const imprintAlg = DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId];
  const imprintMatches =
    imprintAlg !== undefined &&
    imprintOf(imprintAlg).equals(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView));
  const tsInfo = token.signerInfos[0];
  const cmsCerts = certificatesOf(token);
  const tsaCert = tsInfo ? findSignerCertificate(tsInfo, cmsCerts) : undefined;
  let signatureValid = false;
  if (tsInfo && tsaCert) {
    const alg = DIGESTS[tsInfo.digestAlgorithm.algorithmId];
    const digestAttr = attribute(tsInfo, OID.messageDigest)?.values[0];
    if (alg && digestAttr instanceof asn1js.OctetString && tsInfo.signedAttrs) {
      const contentDigestOk = createHash(alg)
        .update(tstDer)
        .digest()
        .equals(Buffer.from(digestAttr.valueBlock.valueHexView));
      signatureValid =
        contentDigestOk && signatureVerifies(tsInfo, new Uint8Array(tsInfo.signedAttrs.encodedValue), tsaCert, alg);
    }
  }
  return {
    time: tst.genTime,
    imprintMatches,
    signatureValid,
    ...(tsaCert ? { tsa: dn(tsaCert, 'subject'), tsaCertificate: tsaCert } : {}),
    certificates: cmsCerts.map((c) => c.x509),
  };
}

export function tokenReport(check: TokenCheck): TimestampReport {
  return {
    time: check.time,
    imprintMatches: check.imprintMatches,
    signatureValid: check.signatureValid,
    ...(check.tsa ? { tsa: check.tsa } : {}),
  };
}

/** The signature timestamp (PAdES B-T) in the unsigned attributes: it covers the signature value. */
export function checkTimestamp(info: pkijs.SignerInfo): TokenCheck | undefined {
  const attr = attribute(info, OID.timestampToken, true);
  if (!attr) return undefined;
  const token = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: attr.values[0] }).content });
  return checkToken(token, (alg) => createHash(alg).update(info.signature.valueBlock.valueHexView).digest());
}
