/**
 * The one CMS builder of castpress's signatures: a PAdES baseline signature
 * (`ETSI.CAdES.detached`, SHA-256) over a digest the kernel computed (src/pdf
 * signature-revision.ts hashes the byte ranges once and asks for this), for sealing,
 * certification and each signer's signature alike. Built with PKI.js objects: signed attributes
 * content-type, CMS algorithm protection (RFC 6211), message-digest and ESS
 * signing-certificate-v2, and no signing-time attribute (ETSI EN 319 142-1 forbids it: the time
 * is the signature dictionary's /M). B-T adds a signature timestamp from the TSA.
 */
import { createHash } from 'node:crypto';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Signer, TimestampAuthority } from '@libpdf/core';
import { CastpressError, SigningError } from '../../errors/index.js';
import { inDerSetOrder } from './pem.js';
import { timestampToken } from './timestamp-token.js';
import { OID } from './integrity.js';

const SHA256 = '2.16.840.1.101.3.4.2.1';
const SHA256_WITH_RSA = '1.2.840.113549.1.1.11';
const ECDSA_WITH_SHA256 = '1.2.840.10045.4.3.2';
const CMS_ALGORITHM_PROTECTION = '1.2.840.113549.1.9.52';

const bufferOf = (bytes: Uint8Array): ArrayBuffer =>
  bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;

function signatureAlgorithmOf(signer: Signer): string {
  return signer.keyType === 'RSA' ? SHA256_WITH_RSA : ECDSA_WITH_SHA256;
}

/** RFC 6211: the digest and signature algorithms, signed, so neither can be swapped. */
function algorithmProtection(signer: Signer): pkijs.Attribute {
  const oid = new asn1js.ObjectIdentifier({ value: signatureAlgorithmOf(signer) });
  const value = new asn1js.Sequence({
    value: [
      new asn1js.Sequence({ value: [new asn1js.ObjectIdentifier({ value: SHA256 })] }),
      new asn1js.Constructed({
        idBlock: { tagClass: 3, tagNumber: 1 },
        value: signer.keyType === 'RSA' ? [oid, new asn1js.Null()] : [oid],
      }),
    ],
  });
  return new pkijs.Attribute({ type: CMS_ALGORITHM_PROTECTION, values: [value] });
}

/**
 * What the CMS needs of a certificate: its structure to carry it, its issuer's name and its serial
 * number. Read with asn1js alone: PKI.js's Certificate parses every extension too, which was the
 * larger part of making the CMS (two certificates per signature).
 */
interface CarriedCertificate {
  der: Uint8Array;
  schema: asn1js.Sequence;
  issuer: pkijs.RelativeDistinguishedNames;
  serialNumber: asn1js.Integer;
}

function carried(der: Uint8Array): CarriedCertificate {
  const parsed = asn1js.fromBER(bufferOf(der));
  const cert = parsed.result;
  const tbs = cert instanceof asn1js.Sequence ? cert.valueBlock.value[0] : undefined;
  if (parsed.offset === -1 || !(cert instanceof asn1js.Sequence) || !(tbs instanceof asn1js.Sequence))
    throw new Error('The signing certificate is not DER');
  // TBSCertificate: [0] version (absent for v1), serialNumber, signature, issuer, ...
  const fields = tbs.valueBlock.value;
  const at = fields[0]?.idBlock.tagClass === 3 ? 1 : 0;
  const serialNumber = fields[at];
  const issuer = fields[at + 2];
  if (!(serialNumber instanceof asn1js.Integer) || !(issuer instanceof asn1js.Sequence))
    throw new Error('The signing certificate has no serial number or issuer');
  return { der, schema: cert, issuer: new pkijs.RelativeDistinguishedNames({ schema: issuer }), serialNumber };
}

/** ESS signing-certificate-v2 (RFC 5035), SHA-256 (the default, so no algorithm is written): binds the certificate. */
function signingCertificateV2(cert: CarriedCertificate): pkijs.Attribute {
  const issuerSerial = new pkijs.IssuerSerial({
    issuer: new pkijs.GeneralNames({ names: [new pkijs.GeneralName({ type: 4, value: cert.issuer })] }),
    serialNumber: cert.serialNumber,
  });
  const certId = new asn1js.Sequence({
    value: [
      new asn1js.OctetString({ valueHex: bufferOf(createHash('sha256').update(cert.der).digest()) }),
      issuerSerial.toSchema(),
    ],
  });
  const value = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [certId] })] });
  return new pkijs.Attribute({ type: OID.signingCertificateV2, values: [value] });
}

/**
 * The DER ContentInfo of a detached CMS SignedData by `signer` over `digest` (SHA-256 of the
 * signed bytes): the signer's certificate and chain carried, one SignerInfo. With `tsa`, a
 * signature timestamp (PAdES B-T: an RFC 3161 token over the signature value, unsigned attribute).
 */
export async function cadesDetached(signer: Signer, digest: Uint8Array, tsa?: TimestampAuthority): Promise<Uint8Array> {
  const certificate = carried(signer.certificate);
  const attributes = [
    new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.data })] }),
    algorithmProtection(signer),
    new pkijs.Attribute({ type: OID.messageDigest, values: [new asn1js.OctetString({ valueHex: bufferOf(digest) })] }),
    signingCertificateV2(certificate),
  ];
  // DER's order for a SET OF: what is signed is this encoding.
  const signedAttrs = new pkijs.SignedAndUnsignedAttributes({
    type: 0,
    attributes: inDerSetOrder(attributes, (a) => new Uint8Array(a.toSchema().toBER(false))),
  });
  // What is signed is the attributes' DER as a SET OF (RFC 5652, 5.4), not the [0] they are written with.
  const toSign = new Uint8Array(signedAttrs.toSchema().toBER(false));
  toSign[0] = 0x31;
  const signature = await signer.sign(toSign, 'SHA-256');
  const signerInfo = new pkijs.SignerInfo({
    version: 1,
    sid: new pkijs.IssuerAndSerialNumber({ issuer: certificate.issuer, serialNumber: certificate.serialNumber }),
    digestAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 }),
    signedAttrs,
    signatureAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: signatureAlgorithmOf(signer) }),
    signature: new asn1js.OctetString({ valueHex: bufferOf(signature) }),
  });
  if (tsa) {
    const token = await timestampToken(tsa, new Uint8Array(createHash('sha256').update(signature).digest()));
    signerInfo.unsignedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 1,
      attributes: [new pkijs.Attribute({ type: OID.timestampToken, values: [asn1js.fromBER(bufferOf(token)).result] })],
    });
  }
  const signedData = new pkijs.SignedData({
    version: 1,
    encapContentInfo: new pkijs.EncapsulatedContentInfo({ eContentType: OID.data }),
    digestAlgorithms: [new pkijs.AlgorithmIdentifier({ algorithmId: SHA256 })],
    // Carried as they are (CertificateSet writes an item's toSchema()): no PKI.js parse to write them back.
    certificates: inDerSetOrder([signer.certificate, ...(signer.certificateChain ?? [])], (der) => der).map(
      (der) => ({ toSchema: () => asn1js.fromBER(bufferOf(der)).result }) as unknown as pkijs.Certificate,
    ),
    signerInfos: [signerInfo],
  });
  const info = new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema() });
  return new Uint8Array(info.toSchema().toBER(false));
}

/**
 * The kernel's `sign(digest)` for a signature by `signer` (with a signature timestamp from `tsa`):
 * the CMS above, its failures typed (a TSA's as a 502 on `timestamp`, the signer's as a 500).
 */
export function cadesSigner(signer: Signer, tsa?: TimestampAuthority): (digest: Uint8Array) => Promise<Uint8Array> {
  return async (digest) => {
    try {
      return await cadesDetached(signer, digest, tsa);
    } catch (e) {
      if (e instanceof CastpressError) throw e;
      throw new SigningError(`Cannot sign the document: ${(e as Error).message}`, 'pdf', 500, { cause: e });
    }
  };
}
