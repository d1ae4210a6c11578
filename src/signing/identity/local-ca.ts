/**
 * The local certificate authority used when the caller configures no certificate:
 * a self-signed root CA and a signing certificate it issues. Certificates are built
 * with PKI.js (no hand-written ASN.1); keys are RSA 2048 with SHA-256, which every
 * validator we test with (poppler/NSS, MuPDF, OpenSSL) and Acrobat accept.
 */
import { webcrypto } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';

const RSA_KEY: RsaHashedKeyGenParams = {
  name: 'RSASSA-PKCS1-v1_5',
  modulusLength: 2048,
  publicExponent: new Uint8Array([1, 0, 1]),
  hash: 'SHA-256',
};

const OID = {
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
  subjectKeyIdentifier: '2.5.29.14',
  keyUsage: '2.5.29.15',
  basicConstraints: '2.5.29.19',
  authorityKeyIdentifier: '2.5.29.35',
  extKeyUsage: '2.5.29.37',
  crlDistributionPoints: '2.5.29.31',
  subjectAltName: '2.5.29.17',
  emailProtection: '1.3.6.1.5.5.7.3.4',
  documentSigning: '1.3.6.1.5.5.7.3.36',
  timeStamping: '1.3.6.1.5.5.7.3.8',
} as const;

/** KeyUsage bits, first octet (RFC 5280 §4.2.1.3: bit 0 is the most significant). */
const KU_DIGITAL_SIGNATURE = 0x80;
const KU_NON_REPUDIATION = 0x40;
const KU_KEY_CERT_SIGN = 0x04;
const KU_CRL_SIGN = 0x02;

const DAY_MS = 86_400_000;

export interface GeneratedCertificate {
  /** DER-encoded certificate. */
  der: Uint8Array;
  /** PKCS#8 DER private key. */
  pkcs8: Uint8Array;
}

export interface LocalCa {
  root: GeneratedCertificate;
  leaf: GeneratedCertificate;
}

export interface LocalCaNames {
  rootCommonName: string;
  signerCommonName: string;
  organization: string;
  /** `OU=` of both certificates (e.g. `install 3f2a…`): what tells one install's CA from another's. */
  organizationalUnit?: string;
}

export function engine(): pkijs.CryptoEngine {
  // Node's global Crypto is its WebCrypto (node:crypto's webcrypto), typed as the DOM's that PKI.js takes.
  return new pkijs.CryptoEngine({ name: 'node', crypto: globalThis.crypto });
}

function names(
  commonName: string,
  organization: string,
  organizationalUnit: string | undefined,
): pkijs.RelativeDistinguishedNames {
  const attribute = (type: string, value: string) =>
    new pkijs.AttributeTypeAndValue({ type, value: new asn1js.Utf8String({ value }) });
  const attributes = [
    attribute(OID.organization, organization),
    ...(organizationalUnit ? [attribute(OID.organizationalUnit, organizationalUnit)] : []),
    attribute(OID.commonName, commonName),
  ];
  // One attribute per RDN (O=…, OU=…, CN=…): PKI.js would put them all in one multi-valued RDN (O=… + CN=…).
  const sequence = new asn1js.Sequence({ value: attributes.map((a) => new asn1js.Set({ value: [a.toSchema()] })) });
  return pkijs.RelativeDistinguishedNames.fromBER(sequence.toBER(false));
}

function keyUsage(bits: number): pkijs.Extension {
  // Unused trailing bits of the one-octet BIT STRING: DER wants the shortest form.
  let unused = 0;
  while (unused < 7 && (bits & (1 << unused)) === 0) unused++;
  const value = new asn1js.BitString({ valueHex: new Uint8Array([bits]).buffer, unusedBits: unused });
  return new pkijs.Extension({
    extnID: OID.keyUsage,
    critical: true,
    extnValue: value.toBER(false),
    parsedValue: value,
  });
}

function randomSerial(): asn1js.Integer {
  const bytes = webcrypto.getRandomValues(new Uint8Array(16));
  bytes[0] = (bytes[0]! & 0x7f) | 0x40; // positive, and 16 bytes long
  return new asn1js.Integer({ valueHex: bytes.buffer });
}

async function keyId(publicKey: CryptoKey): Promise<ArrayBuffer> {
  const spki = new Uint8Array(await webcrypto.subtle.exportKey('spki', publicKey));
  return keyIdOf(pkijs.PublicKeyInfo.fromBER(spki));
}

/** RFC 5280 §4.2.1.2 method 1: SHA-1 of the subjectPublicKey bits. */
function keyIdOf(info: pkijs.PublicKeyInfo): Promise<ArrayBuffer> {
  return webcrypto.subtle.digest('SHA-1', info.subjectPublicKey.valueBlock.valueHexView);
}

interface Issue {
  subject: pkijs.RelativeDistinguishedNames;
  issuer: pkijs.RelativeDistinguishedNames;
  /** The subject's public key. */
  publicKey: CryptoKey;
  /** The issuer's private key and key identifier (authorityKeyIdentifier). */
  issuerKeys: { privateKey: CryptoKey; keyId: ArrayBuffer };
  notBefore: Date;
  notAfter: Date;
  ca: boolean;
  /** Where the issuer publishes its CRL (RFC 5280 §4.2.1.13); end-entity certificates only. */
  crlUrl?: string;
  /** End-entity purposes; default document signing (emailProtection + documentSigning, not critical). */
  purposes?: { oids: string[]; critical: boolean };
  /** An e-mail address for subjectAltName rfc822Name (RFC 5280 §4.2.1.6); end-entity certificates only. */
  email?: string;
}

function emailAltName(email: string): pkijs.Extension {
  const value = new pkijs.AltName({ altNames: [new pkijs.GeneralName({ type: 1, value: email })] });
  return new pkijs.Extension({
    extnID: OID.subjectAltName,
    critical: false,
    extnValue: value.toSchema().toBER(false),
    parsedValue: value,
  });
}

function crlDistributionPoint(url: string): pkijs.Extension {
  const point = new pkijs.DistributionPoint({ distributionPoint: [new pkijs.GeneralName({ type: 6, value: url })] });
  const value = new pkijs.CRLDistributionPoints({ distributionPoints: [point] });
  return new pkijs.Extension({
    extnID: OID.crlDistributionPoints,
    critical: false,
    extnValue: value.toSchema().toBER(false),
    parsedValue: value,
  });
}

async function issue(spec: Issue): Promise<Uint8Array> {
  const cert = new pkijs.Certificate();
  cert.version = 2;
  cert.serialNumber = randomSerial();
  cert.issuer = spec.issuer;
  cert.subject = spec.subject;
  cert.notBefore.value = spec.notBefore;
  cert.notAfter.value = spec.notAfter;
  const crypto = engine();
  await cert.subjectPublicKeyInfo.importKey(spec.publicKey, crypto);

  const basic = new pkijs.BasicConstraints({ cA: spec.ca });
  const ski = await keyIdOf(cert.subjectPublicKeyInfo);
  const aki = new pkijs.AuthorityKeyIdentifier({
    keyIdentifier: new asn1js.OctetString({ valueHex: spec.issuerKeys.keyId }),
  });
  const extensions = [
    new pkijs.Extension({
      extnID: OID.basicConstraints,
      critical: true,
      extnValue: basic.toSchema().toBER(false),
      parsedValue: basic,
    }),
    keyUsage(spec.ca ? KU_KEY_CERT_SIGN | KU_CRL_SIGN : KU_DIGITAL_SIGNATURE | KU_NON_REPUDIATION),
    new pkijs.Extension({
      extnID: OID.subjectKeyIdentifier,
      critical: false,
      extnValue: new asn1js.OctetString({ valueHex: ski }).toBER(false),
    }),
    new pkijs.Extension({
      extnID: OID.authorityKeyIdentifier,
      critical: false,
      extnValue: aki.toSchema().toBER(false),
      parsedValue: aki,
    }),
  ];
  if (!spec.ca) {
    // NSS checks signing certificates for e-mail signer usage; document signing is RFC 9336's purpose.
    const purposes = spec.purposes ?? { oids: [OID.emailProtection, OID.documentSigning], critical: false };
    const eku = new pkijs.ExtKeyUsage({ keyPurposes: purposes.oids });
    extensions.push(
      new pkijs.Extension({
        extnID: OID.extKeyUsage,
        critical: purposes.critical,
        extnValue: eku.toSchema().toBER(false),
        parsedValue: eku,
      }),
    );
    if (spec.crlUrl) extensions.push(crlDistributionPoint(spec.crlUrl));
    if (spec.email) extensions.push(emailAltName(spec.email));
  }
  cert.extensions = extensions;
  await cert.sign(spec.issuerKeys.privateKey, 'SHA-256', crypto);
  return new Uint8Array(cert.toSchema().toBER(false));
}

async function generateKeys(): Promise<CryptoKeyPair> {
  return (await webcrypto.subtle.generateKey(RSA_KEY, true, ['sign', 'verify'])) as CryptoKeyPair;
}

/** The signing key of an RSA private key in PKCS#8 (the local root's, the TSA's): RSASSA-PKCS1-v1_5, SHA-256. */
export function rsaSigningKey(pkcs8: Uint8Array): Promise<CryptoKey> {
  return webcrypto.subtle.importKey('pkcs8', pkcs8, RSA_KEY, false, ['sign']);
}

async function pkcs8(key: CryptoKey): Promise<Uint8Array> {
  return new Uint8Array(await webcrypto.subtle.exportKey('pkcs8', key));
}

/**
 * Generates a root CA (valid 20 years) and a signing certificate it issued (valid 10 years),
 * both starting a day before `now` so a slightly slow clock elsewhere still sees them valid.
 * Given `crlUrl`, the signing certificate names it as its CRL distribution point.
 */
export async function generateLocalCa(now: Date, naming: LocalCaNames, crlUrl?: string): Promise<LocalCa> {
  const rootKeys = await generateKeys();
  const leafKeys = await generateKeys();
  const rootName = names(naming.rootCommonName, naming.organization, naming.organizationalUnit);
  const notBefore = new Date(now.getTime() - DAY_MS);
  const rootIssuer = { privateKey: rootKeys.privateKey, keyId: await keyId(rootKeys.publicKey) };
  const rootDer = await issue({
    subject: rootName,
    issuer: rootName,
    publicKey: rootKeys.publicKey,
    issuerKeys: rootIssuer,
    notBefore,
    notAfter: new Date(now.getTime() + 20 * 365 * DAY_MS),
    ca: true,
  });
  const leafDer = await issue({
    subject: names(naming.signerCommonName, naming.organization, naming.organizationalUnit),
    issuer: rootName,
    publicKey: leafKeys.publicKey,
    issuerKeys: rootIssuer,
    notBefore,
    notAfter: new Date(now.getTime() + 10 * 365 * DAY_MS),
    ca: false,
    ...(crlUrl ? { crlUrl } : {}),
  });
  return {
    root: { der: rootDer, pkcs8: await pkcs8(rootKeys.privateKey) },
    leaf: { der: leafDer, pkcs8: await pkcs8(leafKeys.privateKey) },
  };
}

/**
 * A timestamping certificate the local root issues (RFC 3161 §2.3: extended key usage
 * timeStamping only, critical), valid as long as the root from a day before `now`; the
 * root's own certificate and PKCS#8 key sign it.
 */
export async function issueTimestampingCertificate(
  now: Date,
  root: GeneratedCertificate,
  naming: { commonName: string; organization: string; organizationalUnit?: string },
): Promise<GeneratedCertificate> {
  const rootCert = pkijs.Certificate.fromBER(new Uint8Array(root.der));
  const rootKeys = {
    privateKey: await rsaSigningKey(root.pkcs8),
    keyId: await keyIdOf(rootCert.subjectPublicKeyInfo),
  };
  const keys = await generateKeys();
  const der = await issue({
    subject: names(naming.commonName, naming.organization, naming.organizationalUnit),
    issuer: rootCert.subject,
    publicKey: keys.publicKey,
    issuerKeys: rootKeys,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: rootCert.notAfter.value,
    ca: false,
    purposes: { oids: [OID.timeStamping], critical: true },
  });
  return { der, pkcs8: await pkcs8(keys.privateKey) };
}

/** The first CRL distribution point URL a certificate names, if any. */
export function crlUrlNamedBy(der: Uint8Array): string | undefined {
  const cert = pkijs.Certificate.fromBER(new Uint8Array(der));
  const ext = cert.extensions?.find((e) => e.extnID === OID.crlDistributionPoints);
  const parsed = ext?.parsedValue as pkijs.CRLDistributionPoints | undefined;
  const names = parsed?.distributionPoints[0]?.distributionPoint;
  const first = Array.isArray(names) ? names[0] : undefined;
  return first && first.type === 6 && typeof first.value === 'string' ? first.value : undefined;
}

/**
 * `leaf` (a signing certificate `root` issued) issued again for the same key, names and validity
 * period, naming `crlUrl` as its CRL distribution point: the CA's public address changed.
 */
export async function reissueWithCrlUrl(
  leaf: Uint8Array,
  root: GeneratedCertificate,
  crlUrl: string,
): Promise<Uint8Array> {
  const cert = pkijs.Certificate.fromBER(new Uint8Array(leaf));
  const issuer = await endEntityIssuer(root);
  const publicKey = await webcrypto.subtle.importKey(
    'spki',
    new Uint8Array(cert.subjectPublicKeyInfo.toSchema().toBER(false)),
    RSA_KEY,
    true,
    ['verify'],
  );
  return issue({
    subject: cert.subject,
    issuer: issuer.subject,
    publicKey,
    issuerKeys: issuer.keys,
    notBefore: cert.notBefore.value,
    notAfter: cert.notAfter.value,
    ca: false,
    crlUrl,
  });
}

export interface EndEntitySubject {
  commonName: string;
  email?: string;
}

/**
 * The local root ready to issue per-signer certificates: its certificate parsed, its key
 * imported and its key identifier computed once, for every certificate it issues afterwards.
 */
export interface EndEntityIssuer {
  subject: pkijs.RelativeDistinguishedNames;
  /** `O=` and `OU=` of the root (the install), given to every certificate it issues. */
  organization: string;
  organizationalUnit?: string;
  keys: { privateKey: CryptoKey; keyId: ArrayBuffer };
}

/** Reads the root (`root`: its certificate and PKCS#8 key) for issuing. */
export async function endEntityIssuer(root: GeneratedCertificate): Promise<EndEntityIssuer> {
  const rootCert = pkijs.Certificate.fromBER(new Uint8Array(root.der));
  const value = (type: string) => {
    const found = rootCert.subject.typesAndValues.find((t) => t.type === type);
    return found ? String(found.value.valueBlock.value) : undefined;
  };
  const unit = value(OID.organizationalUnit);
  return {
    subject: rootCert.subject,
    organization: value(OID.organization) ?? 'castpress',
    ...(unit !== undefined ? { organizationalUnit: unit } : {}),
    keys: {
      privateKey: await rsaSigningKey(new Uint8Array(root.pkcs8)),
      keyId: await keyIdOf(rootCert.subjectPublicKeyInfo),
    },
  };
}

/**
 * A certificate for one signature (per-signer signatures) for `publicKey` (the caller's fresh
 * ECDSA P-256 key), issued by the local root with the same key usage and extended key usage as
 * the CA's own signing certificate, `CN=` the signer's name, their e-mail as rfc822Name. Valid
 * from a day before `now` for `lifetimeDays` (the signature is judged at its signing time).
 */
export async function issueEndEntity(
  issuer: EndEntityIssuer,
  publicKey: CryptoKey,
  subject: EndEntitySubject,
  now: Date,
  options: { lifetimeDays?: number; crlUrl?: string } = {},
): Promise<Uint8Array> {
  return issue({
    subject: names(subject.commonName, issuer.organization, issuer.organizationalUnit),
    issuer: issuer.subject,
    publicKey,
    issuerKeys: issuer.keys,
    notBefore: new Date(now.getTime() - DAY_MS),
    notAfter: new Date(now.getTime() + (options.lifetimeDays ?? 730) * DAY_MS),
    ca: false,
    ...(options.crlUrl ? { crlUrl: options.crlUrl } : {}),
    ...(subject.email ? { email: subject.email } : {}),
  });
}
