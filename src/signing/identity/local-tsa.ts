/**
 * A built-in RFC 3161 timestamp authority on the local CA, for installs with no network: a
 * timestamping certificate the local root issues (extended key usage timeStamping, critical)
 * signs each token. Tokens are PKI.js objects (TSTInfo in a SignedData, ESS
 * signing-certificate-v2 over the TSA certificate); hashes and keys go through node:crypto.
 *
 * What it proves: the order of events and the CA's clock, nothing against the operator, who holds
 * both the signer's and the TSA's keys (see docs/reference/signatures.md, "The built-in timestamp authority").
 */
import { createHash, createPrivateKey, randomBytes, X509Certificate } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import * as asn1js from 'asn1js';
import * as pkijs from 'pkijs';
import type { DigestAlgorithm, TimestampAuthority } from '@libpdf/core';
import { SigningError, ValidationError } from '../../errors/index.js';
import { caFiles, readCaRoot, writeFolderOnce } from './ca-files.js';
import { engine, issueTimestampingCertificate, rsaSigningKey } from './local-ca.js';
import { certificatesFromPem, inDerSetOrder, toPem } from '../cms/pem.js';
import { validityAt } from '../cms/certificates.js';

/**
 * The policy the built-in TSA issues tokens under: a UUID-based OID (ITU-T X.667, arc 2.25),
 * which needs no registration. A request naming another policy is refused (unacceptedPolicy).
 */
export const LOCAL_TSA_POLICY = '2.25.8674388458836524348729634532174861926';

const OID = {
  tstInfo: '1.2.840.113549.1.9.16.1.4',
  contentType: '1.2.840.113549.1.9.3',
  messageDigest: '1.2.840.113549.1.9.4',
  signingCertificateV2: '1.2.840.113549.1.9.16.2.47',
  commonName: '2.5.4.3',
  organization: '2.5.4.10',
  organizationalUnit: '2.5.4.11',
} as const;

const DIGESTS: Record<string, { name: DigestAlgorithm; node: string; length: number }> = {
  '2.16.840.1.101.3.4.2.1': { name: 'SHA-256', node: 'sha256', length: 32 },
  '2.16.840.1.101.3.4.2.2': { name: 'SHA-384', node: 'sha384', length: 48 },
  '2.16.840.1.101.3.4.2.3': { name: 'SHA-512', node: 'sha512', length: 64 },
};
const DIGEST_OID: Record<DigestAlgorithm, string> = {
  'SHA-256': '2.16.840.1.101.3.4.2.1',
  'SHA-384': '2.16.840.1.101.3.4.2.2',
  'SHA-512': '2.16.840.1.101.3.4.2.3',
};

/** PKIFailureInfo bit numbers (RFC 3161 §2.4.2). */
const FAIL = { badAlg: 0, badRequest: 2, badDataFormat: 5, timeNotAvailable: 14, unacceptedPolicy: 15 } as const;

/** Largest request body accepted (a request is a hash and a few small fields: well under 1 KB). */
export const MAX_TIMESTAMP_REQUEST_BYTES = 16 * 1024;

export interface LocalTsaOptions {
  /** The data folder of the local CA (`createSigningIdentity({dataDir})` makes the CA first). */
  dataDir: string;
  /** genTime of each token (pinned in tests). Default: now. */
  clock?: () => Date;
}

interface LocalTsaFiles {
  dir: string;
  /** TSA certificate followed by the root. */
  certificate: string;
  key: string;
}

function localTsaFiles(dataDir: string): LocalTsaFiles {
  const dir = path.join(caFiles(dataDir).dir, 'tsa');
  return { dir, certificate: path.join(dir, 'tsa.pem'), key: path.join(dir, 'tsa.key.pem') };
}

function nameValue(name: pkijs.RelativeDistinguishedNames, type: string): string | undefined {
  const value = name.typesAndValues.find((t) => t.type === type)?.value as
    { valueBlock?: { value?: unknown } } | undefined;
  return typeof value?.valueBlock?.value === 'string' ? value.valueBlock.value : undefined;
}

/** Issues the TSA certificate with the root's key, written beside and renamed into place (two processes agree on one). */
async function generateTsa(dataDir: string, files: LocalTsaFiles, now: Date): Promise<void> {
  const ca = caFiles(dataDir);
  const { rootDer, rootKeyPem } = await readCaRoot(
    ca,
    `The built-in timestamp authority needs the local CA's root and its key in ${ca.dir}`,
  );
  const pkcs8 = new Uint8Array(createPrivateKey(rootKeyPem).export({ type: 'pkcs8', format: 'der' }));
  const subject = pkijs.Certificate.fromBER(new Uint8Array(rootDer)).subject;
  const ou = nameValue(subject, OID.organizationalUnit);
  const installId = ou?.startsWith('install ') ? ou.slice('install '.length) : undefined;
  const tsa = await issueTimestampingCertificate(
    now,
    { der: rootDer, pkcs8 },
    {
      commonName: `castpress local timestamp authority${installId ? ` ${installId}` : ''}`,
      organization: nameValue(subject, OID.organization) ?? 'castpress',
      ...(ou ? { organizationalUnit: ou } : {}),
    },
  );
  await writeFolderOnce(files.dir, async (tmp) => {
    await writeFile(path.join(tmp, 'tsa.pem'), toPem(tsa.der, 'CERTIFICATE') + toPem(rootDer, 'CERTIFICATE'), {
      mode: 0o644,
    });
    await writeFile(path.join(tmp, 'tsa.key.pem'), toPem(tsa.pkcs8, 'PRIVATE KEY'), { mode: 0o600 });
  });
}

function failInfo(bit: number): asn1js.BitString {
  const bytes = new Uint8Array(Math.floor(bit / 8) + 1);
  bytes[bytes.length - 1] = 0x80 >> (bit % 8);
  return new asn1js.BitString({ valueHex: bytes.buffer, unusedBits: 7 - (bit % 8) });
}

function rejection(bit: number, text: string): Uint8Array {
  const resp = new pkijs.TimeStampResp({
    status: new pkijs.PKIStatusInfo({
      status: pkijs.PKIStatus.rejection,
      statusStrings: [new asn1js.Utf8String({ value: text })],
      failInfo: failInfo(bit),
    }),
  });
  return new Uint8Array(resp.toSchema().toBER(false));
}

/** A copy of exactly these bytes (a Buffer's .slice() shares its pool). */
function buffer(bytes: Uint8Array): ArrayBuffer {
  return new Uint8Array(bytes).buffer;
}

/** The built-in TSA: `timestamp()` for signatures and document timestamps (the TimestampAuthority interface), `respond()` for HTTP. */
export class LocalTimestampAuthority implements TimestampAuthority {
  /** DER of the TSA certificate. */
  readonly certificate: Uint8Array;
  /** DER of the local root that issued it. */
  readonly root: Uint8Array;
  readonly #key: CryptoKey;
  readonly #clock: () => Date;

  private constructor(certificate: Uint8Array, root: Uint8Array, key: CryptoKey, clock: () => Date) {
    this.certificate = certificate;
    this.root = root;
    this.#key = key;
    this.#clock = clock;
  }

  /** Opens (the first time: issues, with the root's key) the TSA of the local CA in `dataDir`. */
  static async open(options: LocalTsaOptions): Promise<LocalTimestampAuthority> {
    if (typeof options?.dataDir !== 'string' || options.dataDir === '')
      throw ValidationError.of('dataDir', 'Expected the data folder of the local CA');
    if (options.clock !== undefined && typeof options.clock !== 'function')
      throw ValidationError.of('clock', 'Expected a function returning a Date');
    const clock = options.clock ?? (() => new Date());
    const files = localTsaFiles(options.dataDir);
    const read = () => Promise.all([readFile(files.certificate, 'utf8'), readFile(files.key, 'utf8')]);
    let texts: [string, string];
    try {
      texts = await read();
    } catch {
      await generateTsa(options.dataDir, files, clock());
      texts = await read();
    }
    const [certificate, root] = certificatesFromPem(texts[0]);
    if (!certificate || !root)
      throw new SigningError(`The timestamp certificate in ${files.dir} is damaged`, 'dataDir');
    const key = await rsaSigningKey(createPrivateKey(texts[1]).export({ type: 'pkcs8', format: 'der' }));
    return new LocalTimestampAuthority(certificate, root, key, clock);
  }

  /** A timestamp token (DER ContentInfo) over `digest`: what a B-T signature or a document timestamp embeds. */
  async timestamp(digest: Uint8Array, algorithm: DigestAlgorithm): Promise<Uint8Array> {
    const oid = DIGEST_OID[algorithm];
    if (!oid) throw ValidationError.of('timestamp.algorithm', `Unsupported digest algorithm ${String(algorithm)}`);
    if (digest.byteLength !== DIGESTS[oid]!.length)
      throw ValidationError.of('timestamp.digest', `A ${algorithm} digest is ${DIGESTS[oid]!.length} bytes`);
    const token = await this.#token(oid, digest, undefined, true);
    return new Uint8Array(token.toSchema().toBER(false));
  }

  /**
   * Answers an RFC 3161 request (DER TimeStampReq) with a DER TimeStampResp: granted with a token,
   * or a rejection naming the failure (bad request, unknown hash, another policy). Never throws
   * for a bad request.
   */
  async respond(request: Uint8Array): Promise<Uint8Array> {
    let req: pkijs.TimeStampReq;
    try {
      if (request.byteLength > MAX_TIMESTAMP_REQUEST_BYTES) throw new Error('too large');
      req = pkijs.TimeStampReq.fromBER(buffer(request));
    } catch {
      return rejection(FAIL.badDataFormat, 'Not a DER TimeStampReq');
    }
    if (req.version !== 1) return rejection(FAIL.badRequest, 'Only version 1 requests');
    const digest = DIGESTS[req.messageImprint.hashAlgorithm.algorithmId];
    if (!digest) return rejection(FAIL.badAlg, 'Supported hashes: SHA-256, SHA-384, SHA-512');
    const hashed = req.messageImprint.hashedMessage.valueBlock.valueHexView;
    if (hashed.byteLength !== digest.length) return rejection(FAIL.badDataFormat, 'The hash has the wrong length');
    if (req.reqPolicy !== undefined && req.reqPolicy !== LOCAL_TSA_POLICY)
      return rejection(FAIL.unacceptedPolicy, `This TSA issues tokens under ${LOCAL_TSA_POLICY} only`);
    if (req.extensions?.length) return rejection(FAIL.badRequest, 'No request extensions are supported');
    let token: pkijs.ContentInfo;
    try {
      token = await this.#token(
        req.messageImprint.hashAlgorithm.algorithmId,
        new Uint8Array(hashed),
        req.nonce,
        req.certReq ?? false,
      );
    } catch (e) {
      return rejection(FAIL.timeNotAvailable, (e as Error).message);
    }
    const resp = new pkijs.TimeStampResp({
      status: new pkijs.PKIStatusInfo({ status: pkijs.PKIStatus.granted }),
      timeStampToken: token,
    });
    return new Uint8Array(resp.toSchema().toBER(false));
  }

  async #token(
    hashOid: string,
    hashed: Uint8Array,
    nonce: asn1js.Integer | undefined,
    withCertificates: boolean,
  ): Promise<pkijs.ContentInfo> {
    // Whole seconds: GeneralizedTime then has no fraction (RFC 3161 §2.4.2 allows one, DER rules make it fussy).
    const now = new Date(Math.floor(this.#clock().getTime() / 1000) * 1000);
    const tsaCert = new X509Certificate(this.certificate);
    const validity = validityAt(tsaCert, now);
    if (!validity.ok)
      throw new SigningError(`The timestamp authority cannot sign: ${validity.reason}`, 'timestamp', 502);
    const serial = randomBytes(16);
    serial[0] = (serial[0]! & 0x7f) | 0x40; // positive, 16 bytes
    const tstInfo = new pkijs.TSTInfo({
      version: 1,
      policy: LOCAL_TSA_POLICY,
      messageImprint: new pkijs.MessageImprint({
        hashAlgorithm: new pkijs.AlgorithmIdentifier({ algorithmId: hashOid, algorithmParams: new asn1js.Null() }),
        hashedMessage: new asn1js.OctetString({ valueHex: buffer(hashed) }),
      }),
      serialNumber: new asn1js.Integer({ valueHex: buffer(serial) }),
      genTime: now,
      accuracy: new pkijs.Accuracy({ seconds: 1 }),
      ...(nonce ? { nonce } : {}),
    });
    const content = new Uint8Array(tstInfo.toSchema().toBER(false));
    const cert = pkijs.Certificate.fromBER(buffer(this.certificate));
    // ESS signing-certificate-v2 (RFC 5816): ESSCertIDv2 with the default hash (SHA-256) over the TSA certificate.
    const essCertId = new asn1js.Sequence({
      value: [new asn1js.OctetString({ valueHex: buffer(createHash('sha256').update(this.certificate).digest()) })],
    });
    const signingCertificateV2 = new asn1js.Sequence({ value: [new asn1js.Sequence({ value: [essCertId] })] });
    const attributes = [
      new pkijs.Attribute({ type: OID.contentType, values: [new asn1js.ObjectIdentifier({ value: OID.tstInfo })] }),
      new pkijs.Attribute({
        type: OID.messageDigest,
        values: [new asn1js.OctetString({ valueHex: buffer(createHash('sha256').update(content).digest()) })],
      }),
      new pkijs.Attribute({ type: OID.signingCertificateV2, values: [signingCertificateV2] }),
    ];
    // Set after construction: PKI.js's constructor turns a given eContent into a constructed OCTET
    // STRING of 64 KiB pieces, which is BER; DER (and pyHanko, which reads tokens strictly) wants one primitive string.
    const encapContentInfo = new pkijs.EncapsulatedContentInfo({ eContentType: OID.tstInfo });
    encapContentInfo.eContent = new asn1js.OctetString({ valueHex: buffer(content) });
    const signed = new pkijs.SignedData({
      version: 3,
      encapContentInfo,
      signerInfos: [
        new pkijs.SignerInfo({
          version: 1,
          sid: new pkijs.IssuerAndSerialNumber({ issuer: cert.issuer, serialNumber: cert.serialNumber }),
          signedAttrs: new pkijs.SignedAndUnsignedAttributes({
            type: 0,
            attributes: inDerSetOrder(attributes, (a) => new Uint8Array(a.toSchema().toBER(false))),
          }),
        }),
      ],
      ...(withCertificates
        ? {
            certificates: inDerSetOrder([this.certificate, this.root], (der) => der).map((der) =>
              pkijs.Certificate.fromBER(buffer(der)),
            ),
          }
        : {}),
    });
    await signed.sign(this.#key, 0, 'SHA-256', undefined, engine());
    return new pkijs.ContentInfo({ contentType: pkijs.ContentInfo.SIGNED_DATA, content: signed.toSchema(true) });
  }
}
