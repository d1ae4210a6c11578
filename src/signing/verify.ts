/**
 * verifyPdf: every signature of a document, checked the way validators check it.
 *
 * Signatures are found in the raw bytes by their /ByteRange (a signature dictionary is
 * always a plain object in the file body: its /Contents must sit between the two ranges),
 * so a damaged or tampered file still lists its signatures, as invalid. The field names,
 * reasons and locations come from the parsed form when the file can still be parsed.
 * CMS structures are read with PKI.js; digests and signatures are checked with node:crypto.
 */
import { createHash, verify as verifySignature, X509Certificate } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import { z } from 'zod';
import { InvalidPdfError, ValidationError } from '../errors/index.js';
import { parseWith } from '../schema/index.js';
import { readSignatureDictionaries, type SignatureDictionaryInfo } from '../pdf/index.js';
import { certificatesFromPem } from './pem.js';

export interface SignerInfo {
  /** Subject DN, e.g. `O=castpress, CN=castpress local signer`. */
  subject: string;
  commonName?: string;
  issuer: string;
  serialNumber: string;
}

export interface ChainReport {
  /** Subjects from the signing certificate upwards, as far as the chain could be built. */
  subjects: string[];
  /** True when the chain reaches one of the given trust anchors, every link verifies and every certificate was valid at the signing time. */
  trusted: boolean;
  /** Why it is not trusted. */
  problem?: string;
}

export interface TimestampReport {
  /** genTime of the RFC 3161 token. */
  time: Date;
  /** The token's message imprint equals the hash of the signature value. */
  imprintMatches: boolean;
  /** The token's own CMS signature verifies with the TSA certificate it carries. */
  signatureValid: boolean;
  tsa?: string;
}

export interface VerifiedSignature {
  /** Position in the file, first signature 0. */
  index: number;
  /** A signature, or a document timestamp (/DocTimeStamp: an RFC 3161 token over the ranges; `signer` is the TSA). */
  kind: 'signature' | 'documentTimestamp';
  fieldName?: string;
  signer: SignerInfo | null;
  /** The CMS signing-time attribute, else /M. A claim of the signer unless a timestamp backs it. */
  signingTime?: Date;
  reason?: string;
  location?: string;
  subFilter?: string;
  byteRange: number[];
  /** The ranges the signature covers, as [start, end) pairs of byte offsets. */
  coveredRanges: Array<[number, number]>;
  /** Starts at byte 0 and ends at the last byte of the file (only the signature value itself is left out). */
  coversWholeDocument: boolean;
  /** Hash of the covered bytes equals the CMS message-digest attribute. */
  digestMatches: boolean;
  /** The CMS signature over the signed attributes verifies with the signer's certificate. */
  signatureValid: boolean;
  /** PAdES baseline: ESS signing-certificate-v2 attribute present and naming the signing certificate. */
  signingCertificateV2: boolean;
  chain: ChainReport;
  timestamp?: TimestampReport;
  /** digestMatches && signatureValid (and the timestamp, when there is one, checks). */
  valid: boolean;
  problems: string[];
}

export interface VerifyResult {
  signatures: VerifiedSignature[];
  /** At least one signature, all valid, and the last one covers the whole document. */
  valid: boolean;
  /** The last signature covers the whole document. */
  wholeDocumentSigned: boolean;
}

export interface VerifyOptions {
  /** Trusted roots (PEM text, possibly several certificates, or DER bytes). */
  trustAnchors?: Array<string | Uint8Array>;
}

const OID = {
  data: '1.2.840.113549.1.7.1',
  signedData: '1.2.840.113549.1.7.2',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingTime: '1.2.840.113549.1.9.5',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  timestampToken: '1.2.840.113549.1.9.16.2.14',
  tstInfo: '1.2.840.113549.1.9.16.1.4',
} as const;

const DIGESTS: Record<string, string> = {
  '1.3.14.3.2.26': 'sha1',
  '2.16.840.1.101.3.4.2.1': 'sha256',
  '2.16.840.1.101.3.4.2.2': 'sha384',
  '2.16.840.1.101.3.4.2.3': 'sha512',
};

const verifySchema = z.strictObject({
  trustAnchors: z.array(z.union([z.string().min(1), z.instanceof(Uint8Array)])).optional(),
});

// ---- finding signatures in the raw bytes -------------------------------------------------

interface RawSignature {
  byteRange: number[];
  cms: Uint8Array;
  /** Shared by the entries naming the same gap: why its value does not parse, once known (parsing junk can cost its length). */
  gap: { unreadable?: string };
}

const BYTE_RANGE = Buffer.from('/ByteRange');
const BYTE_RANGE_VALUE = /^\s*\[\s*(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s+(\d{1,15})\s*\]/;

function findRawSignatures(file: Buffer): RawSignature[] {
  const found: RawSignature[] = [];
  // The contents of the gap that starts at each '<', read once: many /ByteRange entries naming the same
  // gap made the hex text of a large gap be copied and checked once per entry (4,000 entries on a
  // 100 KB gap took 2.6 s, the square of the file's size).
  const gaps = new Map<number, { end: number; cms: Uint8Array | undefined; unreadable?: string }>();
  for (let at = file.indexOf(BYTE_RANGE); at !== -1; at = file.indexOf(BYTE_RANGE, at + 1)) {
    const m = BYTE_RANGE_VALUE.exec(file.toString('latin1', at + BYTE_RANGE.length, at + BYTE_RANGE.length + 80));
    if (!m) continue;
    const byteRange = m.slice(1, 5).map(Number);
    const [a, b, c, d] = byteRange as [number, number, number, number];
    const gapStart = a + b;
    if (gapStart + 2 > c || c + d > file.length) continue;
    if (file[gapStart] !== 0x3c || file[c - 1] !== 0x3e) continue; // '<' … '>'
    let gap = gaps.get(gapStart);
    if (!gap) {
      gap = hexGap(file, gapStart);
      gaps.set(gapStart, gap);
    }
    // Only hex digits and white space may lie between '<' and the '>' at c - 1.
    if (gap.end !== c - 1 || !gap.cms) continue;
    found.push({ byteRange, cms: gap.cms, gap }); // cms is shared by entries naming the same gap: only read
  }
  // Revision order: a later signature covers more of the file.
  return found.sort((x, y) => x.byteRange[2]! + x.byteRange[3]! - (y.byteRange[2]! + y.byteRange[3]!));
}

/**
 * The hex string that starts after the '<' at `start`: where the first byte that is neither a hex
 * digit nor white space lies (`end`), and the bytes the digits spell when there is an even number of
 * them. The scan stops at that byte, so the scans from different '<' never overlap.
 */
function hexGap(file: Buffer, start: number): { end: number; cms: Uint8Array | undefined } {
  let end = start + 1;
  let digits = 0;
  for (; end < file.length; end++) {
    const c = file[end]!;
    if ((c >= 0x30 && c <= 0x39) || (c >= 0x41 && c <= 0x46) || (c >= 0x61 && c <= 0x66)) digits++;
    else if (!WHITE_SPACE.has(c)) break;
  }
  if (digits % 2 !== 0) return { end, cms: undefined };
  const hex = file.toString('latin1', start + 1, end).replace(/\s+/g, '');
  return { end, cms: new Uint8Array(Buffer.from(hex, 'hex')) };
}

/** The bytes `\s` matches in latin1 text: tab, LF, VT, FF, CR, space, NBSP (0xa0). */
const WHITE_SPACE = new Set([0x09, 0x0a, 0x0b, 0x0c, 0x0d, 0x20, 0xa0]);

// ---- certificates ---------------------------------------------------------------------------

function dn(cert: X509Certificate, which: 'subject' | 'issuer'): string {
  return cert[which].split('\n').join(', ');
}

function signerInfoOf(cert: X509Certificate): SignerInfo {
  const cn = /^CN=(.*)$/m.exec(cert.subject)?.[1];
  return { subject: dn(cert, 'subject'), ...(cn ? { commonName: cn } : {}), issuer: dn(cert, 'issuer'), serialNumber: cert.serialNumber };
}

function anchorsFrom(inputs: Array<string | Uint8Array>): X509Certificate[] {
  return inputs.flatMap((input, i) => {
    try {
      const ders = typeof input === 'string' ? certificatesFromPem(input) : [input];
      if (ders.length === 0) throw new Error('no PEM certificate');
      return ders.map((der) => new X509Certificate(der));
    } catch (e) {
      throw ValidationError.of(`trustAnchors[${i}]`, `Not a certificate (${(e as Error).message})`);
    }
  });
}

function validAt(cert: X509Certificate, at: Date): boolean {
  return new Date(cert.validFrom).getTime() <= at.getTime() && at.getTime() <= new Date(cert.validTo).getTime();
}

function buildChain(leaf: X509Certificate, pool: X509Certificate[], anchors: X509Certificate[], at: Date): ChainReport {
  const subjects: string[] = [];
  const isAnchor = (c: X509Certificate) => anchors.some((a) => a.raw.equals(c.raw));
  let current = leaf;
  for (let depth = 0; depth < 10; depth++) {
    subjects.push(dn(current, 'subject'));
    if (!validAt(current, at)) return { subjects, trusted: false, problem: `${dn(current, 'subject')} was not valid at the signing time` };
    if (isAnchor(current)) return anchors.length ? { subjects, trusted: true } : { subjects, trusted: false };
    const issuer = [...anchors, ...pool].find((c) => !c.raw.equals(current.raw) && current.checkIssued(c) && current.verify(c.publicKey));
    if (!issuer) {
      const selfSigned = current.checkIssued(current) && current.verify(current.publicKey);
      const problem = anchors.length === 0 ? 'No trust anchor given' : selfSigned ? 'The chain ends at a root that is not a trust anchor' : 'The issuer of a certificate in the chain is missing';
      return { subjects, trusted: false, problem };
    }
    current = issuer;
  }
  return { subjects, trusted: false, problem: 'Chain too long' };
}

// ---- CMS ------------------------------------------------------------------------------------

function attribute(info: pkijs.SignerInfo, type: string, unsigned = false): pkijs.Attribute | undefined {
  return (unsigned ? info.unsignedAttrs : info.signedAttrs)?.attributes.find((a) => a.type === type);
}

function parseSignedData(der: Uint8Array): pkijs.SignedData {
  const asn = asn1js.fromBER(der);
  if (asn.offset === -1) throw new Error('the signature value is not DER');
  // /Contents is the CMS followed by zero padding; anything else there was written afterwards.
  if (der.subarray(asn.offset).some((b) => b !== 0)) throw new Error('bytes other than zero padding follow the signature value');
  // DER has one encoding per value: what parses but encodes differently was changed (a length, a tag).
  if (!Buffer.from(asn.result.toBER(false)).equals(Buffer.from(der.subarray(0, asn.offset)))) throw new Error('the signature value is not in DER form');
  const info = new pkijs.ContentInfo({ schema: asn.result });
  if (info.contentType !== OID.signedData) throw new Error(`content type ${info.contentType} is not signed-data`);
  return new pkijs.SignedData({ schema: info.content });
}

interface CmsCertificate {
  pki: pkijs.Certificate;
  x509: X509Certificate;
}

function certificatesOf(sd: pkijs.SignedData): CmsCertificate[] {
  return (sd.certificates ?? [])
    .filter((c): c is pkijs.Certificate => c instanceof pkijs.Certificate)
    .map((pki) => ({ pki, x509: new X509Certificate(Buffer.from(pki.toSchema().toBER(false))) }));
}

const SUBJECT_KEY_IDENTIFIER = '2.5.29.14';

/** The certificate a SignerInfo names: by issuer and serial number, or by subject key identifier. */
function findSignerCertificate(info: pkijs.SignerInfo, certs: CmsCertificate[]): X509Certificate | undefined {
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
function damagedCertificate(certs: X509Certificate[], anchors: X509Certificate[]): X509Certificate | undefined {
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
function cmsStructureProblem(sd: pkijs.SignedData, info: pkijs.SignerInfo): string | undefined {
  const eContentType = sd.encapContentInfo.eContentType;
  const expectedVersion = eContentType !== OID.data || sd.signerInfos.some((s) => s.version === 3) ? 3 : 1;
  if (sd.version !== expectedVersion && !(sd.version === 4 || sd.version === 5)) return `SignedData version ${sd.version}, expected ${expectedVersion}`;
  const expectedSignerVersion = info.sid instanceof pkijs.IssuerAndSerialNumber ? 1 : 3;
  if (info.version !== expectedSignerVersion) return `SignerInfo version ${info.version}, expected ${expectedSignerVersion}`;
  if (!sd.digestAlgorithms.some((a) => a.algorithmId === info.digestAlgorithm.algorithmId)) return 'The signer\'s digest algorithm is not among the SignedData digest algorithms';
  if (sd.digestAlgorithms.some((a) => DIGESTS[a.algorithmId] === undefined)) return 'Unknown digest algorithm in SignedData';
  const ct = attribute(info, OID.contentType)?.values[0];
  if (!(ct instanceof asn1js.ObjectIdentifier) || ct.valueBlock.toString() !== eContentType) return 'The content-type attribute does not match the encapsulated content type';
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
function signatureVerifies(info: pkijs.SignerInfo, data: Uint8Array, cert: X509Certificate, digest: string): boolean {
  const alg = SIGNATURE_ALGORITHMS[info.signatureAlgorithm.algorithmId];
  if (!alg || alg.key !== cert.publicKey.asymmetricKeyType || (alg.digest !== undefined && alg.digest !== digest)) return false;
  try {
    return verifySignature(digest, data, cert.publicKey, info.signature.valueBlock.valueHexView);
  } catch {
    return false;
  }
}

function hashRanges(file: Buffer, ranges: Array<[number, number]>, digest: string): Buffer {
  const hash = createHash(digest);
  for (const [start, end] of ranges) hash.update(file.subarray(start, end));
  return hash.digest();
}

function signingCertificateV2Names(info: pkijs.SignerInfo, cert: X509Certificate): boolean {
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
      if (part instanceof asn1js.Sequence) hashAlg = DIGESTS[new pkijs.AlgorithmIdentifier({ schema: part }).algorithmId] ?? 'unknown';
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

function timeOf(attr: pkijs.Attribute | undefined): Date | undefined {
  const v = attr?.values[0];
  if (v instanceof asn1js.UTCTime || v instanceof asn1js.GeneralizedTime) return v.toDate();
  return undefined;
}

interface TokenCheck extends TimestampReport {
  tsaCertificate?: X509Certificate;
  certificates: X509Certificate[];
}

/**
 * An RFC 3161 token: its TSTInfo's message imprint against `imprintOf` (what it should
 * timestamp, hashed with the token's own algorithm), and the TSA's CMS signature.
 */
function checkToken(token: pkijs.SignedData, imprintOf: (digest: string) => Buffer): TokenCheck {
  const content = token.encapContentInfo.eContent;
  if (!content || token.encapContentInfo.eContentType !== OID.tstInfo) throw new Error('the timestamp token holds no TSTInfo');
  const tstDer = new Uint8Array(content.getValue());
  const tst = pkijs.TSTInfo.fromBER(tstDer);
  const imprintAlg = DIGESTS[tst.messageImprint.hashAlgorithm.algorithmId];
  const imprintMatches = imprintAlg !== undefined && imprintOf(imprintAlg).equals(Buffer.from(tst.messageImprint.hashedMessage.valueBlock.valueHexView));
  const tsInfo = token.signerInfos[0];
  const cmsCerts = certificatesOf(token);
  const tsaCert = tsInfo ? findSignerCertificate(tsInfo, cmsCerts) : undefined;
  let signatureValid = false;
  if (tsInfo && tsaCert) {
    const alg = DIGESTS[tsInfo.digestAlgorithm.algorithmId];
    const digestAttr = attribute(tsInfo, OID.messageDigest)?.values[0];
    if (alg && digestAttr instanceof asn1js.OctetString && tsInfo.signedAttrs) {
      const contentDigestOk = createHash(alg).update(tstDer).digest().equals(Buffer.from(digestAttr.valueBlock.valueHexView));
      signatureValid = contentDigestOk && signatureVerifies(tsInfo, new Uint8Array(tsInfo.signedAttrs.encodedValue), tsaCert, alg);
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

function report(check: TokenCheck): TimestampReport {
  return { time: check.time, imprintMatches: check.imprintMatches, signatureValid: check.signatureValid, ...(check.tsa ? { tsa: check.tsa } : {}) };
}

/** The signature timestamp (PAdES B-T) in the unsigned attributes: it covers the signature value. */
function checkTimestamp(info: pkijs.SignerInfo): TimestampReport | undefined {
  const attr = attribute(info, OID.timestampToken, true);
  if (!attr) return undefined;
  const token = new pkijs.SignedData({ schema: new pkijs.ContentInfo({ schema: attr.values[0] }).content });
  return report(checkToken(token, (alg) => createHash(alg).update(info.signature.valueBlock.valueHexView).digest()));
}

/** A document timestamp (/Type /DocTimeStamp, ETSI.RFC3161): the token itself covers the byte ranges. */
function verifyDocumentTimestamp(file: Buffer, sd: pkijs.SignedData, base: Omit<VerifiedSignature, 'signer' | 'digestMatches' | 'signatureValid' | 'signingCertificateV2' | 'chain' | 'valid' | 'problems'>, anchors: X509Certificate[]): VerifiedSignature {
  const check = checkToken(sd, (alg) => hashRanges(file, base.coveredRanges, alg));
  const problems: string[] = [];
  if (!check.imprintMatches) problems.push('Digest mismatch: the covered bytes changed after the document timestamp');
  if (!check.signatureValid) problems.push('The timestamp authority signature does not verify');
  const cert = check.tsaCertificate;
  const info = sd.signerInfos[0];
  return {
    ...base,
    signer: cert ? signerInfoOf(cert) : null,
    signingTime: check.time,
    digestMatches: check.imprintMatches,
    signatureValid: check.signatureValid,
    signingCertificateV2: !!cert && !!info && signingCertificateV2Names(info, cert),
    chain: cert ? buildChain(cert, check.certificates, anchors, check.time) : { subjects: [], trusted: false, problem: 'No timestamp authority certificate' },
    timestamp: report(check),
    valid: check.imprintMatches && check.signatureValid,
    problems,
  };
}

function pdfDate(m: string | undefined): Date | undefined {
  const r = m && /^D:(\d{4})(\d{2})?(\d{2})?(\d{2})?(\d{2})?(\d{2})?([Zz+-])?(\d{2})?'?(\d{2})?/.exec(m);
  if (!r) return undefined;
  const [, y, mo = '01', d = '01', h = '00', mi = '00', s = '00', sign, oh = '00', om = '00'] = r;
  let t = Date.UTC(+y!, +mo - 1, +d, +h, +mi, +s);
  if (sign === '+' || sign === '-') t -= (sign === '+' ? 1 : -1) * (+oh * 60 + +om) * 60_000;
  return new Date(t);
}

function verifyOne(file: Buffer, raw: RawSignature, index: number, dict: SignatureDictionaryInfo | undefined, anchors: X509Certificate[]): VerifiedSignature {
  const [a, b, c, d] = raw.byteRange as [number, number, number, number];
  const coveredRanges: Array<[number, number]> = [
    [a, a + b],
    [c, c + d],
  ];
  const problems: string[] = [];
  const base = {
    index,
    kind: dict?.type === 'DocTimeStamp' ? ('documentTimestamp' as const) : ('signature' as const),
    ...(dict ? { fieldName: dict.fieldName } : {}),
    ...(dict?.reason !== undefined ? { reason: dict.reason } : {}),
    ...(dict?.location !== undefined ? { location: dict.location } : {}),
    ...(dict?.subFilter !== undefined ? { subFilter: dict.subFilter } : {}),
    byteRange: raw.byteRange,
    coveredRanges,
    coversWholeDocument: a === 0 && c + d === file.length,
  };
  const failed = (problem: string): VerifiedSignature => ({
    ...base,
    signer: null,
    digestMatches: false,
    signatureValid: false,
    signingCertificateV2: false,
    chain: { subjects: [], trusted: false, problem: 'No signer certificate' },
    valid: false,
    problems: [...problems, problem],
  });

  let sd: pkijs.SignedData;
  try {
    if (raw.gap.unreadable !== undefined) throw new Error(raw.gap.unreadable);
    sd = parseSignedData(raw.cms);
  } catch (e) {
    raw.gap.unreadable = (e as Error).message;
    return failed(`Cannot read the signature value: ${(e as Error).message}`);
  }
  if (sd.encapContentInfo.eContentType === OID.tstInfo) {
    try {
      return verifyDocumentTimestamp(file, sd, { ...base, kind: 'documentTimestamp' }, anchors);
    } catch (e) {
      return failed(`Unreadable document timestamp: ${(e as Error).message}`);
    }
  }
  const info = sd.signerInfos[0];
  if (!info) return failed('The CMS has no signer');
  if (sd.signerInfos.length > 1) problems.push('The CMS has more than one signer; only the first is checked');
  const cmsCerts = certificatesOf(sd);
  const certs = cmsCerts.map((c) => c.x509);
  const cert = findSignerCertificate(info, cmsCerts);
  const digestName = DIGESTS[info.digestAlgorithm.algorithmId];
  if (!digestName) return failed(`Unsupported digest algorithm ${info.digestAlgorithm.algorithmId}`);

  const mdValue = attribute(info, OID.messageDigest)?.values[0];
  const digestMatches = mdValue instanceof asn1js.OctetString && hashRanges(file, coveredRanges, digestName).equals(Buffer.from(mdValue.valueBlock.valueHexView));
  if (!digestMatches) problems.push('Digest mismatch: the covered bytes changed after signing');
  if (!info.signedAttrs) problems.push('No signed attributes (not PAdES)');
  const signatureValid = !!cert && !!info.signedAttrs && signatureVerifies(info, new Uint8Array(info.signedAttrs.encodedValue), cert, digestName);
  if (!cert) problems.push('The signing certificate is not in the signature');
  else if (!signatureValid) problems.push('The signature does not verify with the signing certificate');

  const structure = cmsStructureProblem(sd, info);
  if (structure) problems.push(`Malformed signature container: ${structure}`);
  const damaged = damagedCertificate(certs, anchors);
  if (damaged) problems.push(`A certificate carried in the signature is damaged (${dn(damaged, 'subject')}): its issuer's signature does not verify`);
  const signingTime = timeOf(attribute(info, OID.signingTime)) ?? pdfDate(dict?.m);
  let timestamp: TimestampReport | undefined;
  try {
    timestamp = checkTimestamp(info);
  } catch (e) {
    problems.push(`Unreadable timestamp token: ${(e as Error).message}`);
  }
  if (timestamp && !(timestamp.imprintMatches && timestamp.signatureValid)) problems.push('The timestamp token does not match the signature');
  const at = timestamp?.time ?? signingTime ?? new Date();
  const chain = cert ? buildChain(cert, certs, anchors, at) : { subjects: [], trusted: false, problem: 'No signer certificate' };
  const signingCertificateV2 = !!cert && signingCertificateV2Names(info, cert);
  const timestampOk = !timestamp || (timestamp.imprintMatches && timestamp.signatureValid);
  return {
    ...base,
    signer: cert ? signerInfoOf(cert) : null,
    ...(signingTime ? { signingTime } : {}),
    digestMatches,
    signatureValid,
    signingCertificateV2,
    chain,
    ...(timestamp ? { timestamp } : {}),
    valid: digestMatches && signatureValid && timestampOk && !damaged && !structure,
    problems,
  };
}

function unreadable(file: Buffer, raw: RawSignature, index: number, problem: string): VerifiedSignature {
  const [a, b, c, d] = raw.byteRange as [number, number, number, number];
  return {
    index,
    kind: 'signature',
    signer: null,
    byteRange: raw.byteRange,
    coveredRanges: [
      [a, a + b],
      [c, c + d],
    ],
    coversWholeDocument: a === 0 && c + d === file.length,
    digestMatches: false,
    signatureValid: false,
    signingCertificateV2: false,
    chain: { subjects: [], trusted: false, problem: 'No signer certificate' },
    valid: false,
    problems: [problem],
  };
}

/** Every signature of `bytes`, checked; a document without signatures gives an empty, invalid result. */
export async function verifyPdf(bytes: Uint8Array, options: VerifyOptions = {}): Promise<VerifyResult> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const opts = parseWith(verifySchema, options);
  const anchors = anchorsFrom(opts.trustAnchors ?? []);
  const file = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (file.indexOf('%PDF-') === -1 || file.indexOf('%PDF-') > 1024) throw new InvalidPdfError('Not a PDF (no %PDF- header)');
  const raws = findRawSignatures(file);
  const dicts = raws.length ? await readSignatureDictionaries(bytes) : [];
  const signatures = raws.map((raw, i) => {
    const dict = dicts.find((d) => d.byteRange.length === 4 && d.byteRange.every((n, k) => n === raw.byteRange[k]));
    try {
      return verifyOne(file, raw, i, dict, anchors);
    } catch (e) {
      // Hostile CMS content must not crash verification: report the signature as unreadable.
      return unreadable(file, raw, i, `Cannot check the signature: ${(e as Error).message}`);
    }
  });
  const last = signatures.at(-1);
  const wholeDocumentSigned = !!last && last.coversWholeDocument;
  return { signatures, valid: signatures.length > 0 && signatures.every((s) => s.valid) && wholeDocumentSigned, wholeDocumentSigned };
}
