/**
 * PAdES baseline conformance of the CMS @libpdf/core writes (ETSI EN 319 142-1, 5.4.2 / 6.3):
 * the signing time belongs in the signature dictionary's /M, and the CMS must not carry a
 * signing-time attribute. libpdf 0.4 always adds one and exports no option to leave it out, so
 * the signer it is given signs the attributes without it (`withoutSigningTime`) and the CMS is
 * then written again without it (`dropSigningTime`): the same attributes, in the same order, that
 * were signed. A timestamp token (B-T) is over the signature value, which does not change.
 */
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { Signer } from '@libpdf/core';
import { inDerSetOrder } from './pem.js';
import { OID } from './integrity.js';

/** Attributes as DER orders a SET OF (the same order for what is signed and what is written). */
const inDerOrder = (attributes: pkijs.Attribute[]) =>
  inDerSetOrder(attributes, (a) => new Uint8Array(a.toSchema().toBER(false)));

/** The signed attributes without signing-time, DER-encoded as a SET (the form that is signed, RFC 5652 5.4). */
function encodeForSigning(attributes: pkijs.Attribute[]): Uint8Array {
  const der = new Uint8Array(
    new pkijs.SignedAndUnsignedAttributes({ type: 0, attributes: inDerOrder(attributes) }).toSchema().toBER(false),
  );
  der[0] = 0x31;
  return der;
}

function attributesOf(set: Uint8Array): pkijs.Attribute[] {
  const parsed = asn1js.fromBER(set);
  if (parsed.offset === -1 || !(parsed.result instanceof asn1js.Set))
    throw new Error('The signed attributes are not a DER SET');
  return parsed.result.valueBlock.value.map((schema) => new pkijs.Attribute({ schema }));
}

/** `signer`, signing the signed attributes with the signing-time attribute left out. */
export function withoutSigningTime(signer: Signer): Signer {
  return {
    get certificate() {
      return signer.certificate;
    },
    get certificateChain() {
      return signer.certificateChain;
    },
    get keyType() {
      return signer.keyType;
    },
    get signatureAlgorithm() {
      return signer.signatureAlgorithm;
    },
    sign: (data, algorithm) =>
      signer.sign(encodeForSigning(attributesOf(data).filter((a) => a.type !== OID.signingTime)), algorithm),
  };
}

/** The CMS ContentInfo `der` (zero padding after it allowed) with the signing-time signed attribute removed. */
export function dropSigningTime(der: Uint8Array): Uint8Array {
  const parsed = asn1js.fromBER(der);
  if (parsed.offset === -1) throw new Error('The CMS written is not DER');
  const info = new pkijs.ContentInfo({ schema: parsed.result });
  const signedData = new pkijs.SignedData({ schema: info.content });
  // DER writes a SET OF in ascending order of the encodings; libpdf writes the signer's certificate first.
  if (signedData.certificates)
    signedData.certificates = inDerSetOrder(signedData.certificates, (c) => new Uint8Array(c.toSchema().toBER(false)));
  for (const signer of signedData.signerInfos) {
    if (!signer.signedAttrs) continue;
    signer.signedAttrs = new pkijs.SignedAndUnsignedAttributes({
      type: 0,
      attributes: inDerOrder(signer.signedAttrs.attributes.filter((a) => a.type !== OID.signingTime)),
    });
  }
  return new Uint8Array(
    new pkijs.ContentInfo({ contentType: OID.signedData, content: signedData.toSchema() }).toSchema().toBER(false),
  );
}
