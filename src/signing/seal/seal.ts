/**
 * Sealing: a PAdES baseline signature (B-B, or B-T with a timestamp) over the whole
 * document, appended as its own incremental update, and for B-LT a second update with the
 * DSS (certificates and CRLs of every signature). Calling it again on its output adds
 * another signature that leaves the earlier ones valid (per-signer signatures).
 */
import { X509Certificate } from 'node:crypto';
import path from 'node:path';
import { z } from 'zod';
import { SigningError, ValidationError } from '../../errors/index.js';
import { parseWith } from '../../schema/index.js';
import { signingCertificateProblem } from '../cms/certificates.js';
import { signerOf, type SigningIdentity } from '../identity/identity.js';
import { appendSignatureRevision, appendValidationData, type RevisionSignature } from '../../pdf/index.js';
import { cadesSigner } from '../cms/cades.js';
import { LocalCaRevocation, type RevocationSource } from '../identity/revocation.js';
import { revocationOf } from '../validation/revocation.js';
import { networkFetchProblem } from './ltv-offline.js';
import type { TimestampAuthority } from '@libpdf/core';
import { isTimestampOptions, timestampAuthority, type TimestampOptions } from '../identity/timestamp.js';
import { addDocumentTimestamp } from './lta.js';

export interface SealOptions {
  /** /Reason of the signature dictionary. */
  reason?: string;
  /** /Location of the signature dictionary. */
  location?: string;
  /** /ContactInfo of the signature dictionary. */
  contactInfo?: string;
  /**
   * Who signs, in words (e.g. the signer's full name). The signature field is named after
   * it (`Signature of Ada Lovelace`); the certificate names the key's holder.
   */
  name?: string;
  /**
   * Claimed signing time (/M of the signature dictionary; PAdES keeps it out of the CMS); pin it for reproducible output. Default: now.
   * Must fall inside the signing certificate's validity period (else a ValidationError naming `identity.certificate`).
   */
  signingTime?: Date;
  /**
   * The seal's own clock (pinned in tests). The signing certificate must be valid at its time as well
   * as at `signingTime`: /M is a claim, and verifyPdf judges a signature without a trusted timestamp
   * at the validation time, so an expired certificate with a backdated /M would never verify.
   * Default: the system clock; `signingTime` defaults to it.
   */
  clock?: () => Date;
  /** RFC 3161 timestamps (B-T's token, B-LTA's document timestamp): `{url, fetch}` or the built-in `{local}`. */
  timestamp?: TimestampOptions;
  /**
   * PAdES baseline level. Default: the highest the configuration allows — B-LTA (B-LT and a
   * document timestamp after the DSS) with a timestamp and revocation data for the signer's
   * certificate, B-T with a timestamp, else B-B. B-LT and B-LTA build on B-T (ETSI EN 319 142-1),
   * so they need `timestamp`.
   */
  level?: PadesLevelOption;
  /**
   * Where the CRLs a B-LT seal embeds come from. Default for an identity of the local CA: that CA
   * (`LocalCaRevocation` on its data folder, each CRL issued at the seal's clock when the DSS is
   * written, after the signature); none otherwise.
   */
  revocation?: RevocationSource;
  /**
   * A certification signature with this DocMDP P (ISO 32000-2, 12.8.2.2): 1 no changes after it
   * (but a DSS and document timestamps), 2 form filling and signing, 3 also annotations. Only a
   * document's first signature can certify (else a ValidationError on `certify`).
   */
  certify?: 1 | 2 | 3;
}

export type PadesLevelOption = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

const MAX_TEXT = 1000;

/** The options that go into the signature dictionary, checked alike by sealPdf and sealRevision. */
export const signatureDictionaryFields = {
  reason: z.string().max(MAX_TEXT).optional(),
  location: z.string().max(MAX_TEXT).optional(),
  contactInfo: z.string().max(MAX_TEXT).optional(),
  name: z.string().min(1).max(200).optional(),
  signingTime: z
    .date()
    .refine((d) => !Number.isNaN(d.getTime()), 'Invalid date')
    .optional(),
};

const sealSchema = z.strictObject({
  ...signatureDictionaryFields,
  clock: z.custom<() => Date>((v) => typeof v === 'function', 'Expected a function returning a Date').optional(),
  timestamp: z.custom<TimestampOptions>(isTimestampOptions, 'Expected {url, fetch} or {local}').optional(),
  level: z.enum(['B-B', 'B-T', 'B-LT', 'B-LTA']).optional(),
  revocation: z
    .custom<RevocationSource>(
      (v) => typeof v === 'object' && v !== null && typeof (v as RevocationSource).crlFor === 'function',
      'Expected {crlFor}',
    )
    .optional(),
  certify: z.union([z.literal(1), z.literal(2), z.literal(3)]).optional(),
});

type SealOpts = z.infer<typeof sealSchema>;

/**
 * The revocation source a seal uses: the caller's, else the local CA's own for its identities —
 * opened only when B-LT is within reach, and a CA whose root key is not at hand (an operator may
 * keep it offline) gives none rather than failing the seal.
 */
async function revocationSourceFor(identity: SigningIdentity, opts: SealOpts): Promise<RevocationSource | undefined> {
  if (opts.revocation) return opts.revocation;
  if (identity.kind !== 'generated' || !identity.files) return undefined;
  try {
    // The seal's clock, read when each CRL is made: the DSS's CRL is issued after the signature and
    // its timestamp (not at the claimed signing time), so it speaks for every signature before it.
    return await LocalCaRevocation.open({
      dataDir: path.dirname(identity.files.dir),
      ...(opts.clock ? { clock: opts.clock } : {}),
    });
  } catch {
    return undefined;
  }
}

/**
 * The level to seal at and the CRL for the signer's certificate (for B-LT). An explicit level the
 * configuration cannot reach is a ValidationError naming what is missing.
 */
async function levelFor(
  opts: SealOpts,
  sourceOf: () => Promise<RevocationSource | undefined>,
  certificate: Uint8Array,
): Promise<{ level: 'B-B' | 'B-T' | 'B-LT' | 'B-LTA'; crl?: Uint8Array; source?: RevocationSource }> {
  if (opts.level === 'B-B') return { level: 'B-B' };
  if (!opts.timestamp) {
    if (opts.level) throw ValidationError.of('timestamp', `PAdES ${opts.level} needs a timestamp authority`);
    return { level: 'B-B' };
  }
  if (opts.level === 'B-T') return { level: 'B-T' };
  const source = await sourceOf();
  const crl = source ? await source.crlFor(certificate) : null;
  if (crl && source) return { level: opts.level === 'B-LT' ? 'B-LT' : 'B-LTA', crl, source };
  if (opts.level === 'B-LT' || opts.level === 'B-LTA')
    throw ValidationError.of(
      'revocation',
      `PAdES ${opts.level} needs revocation data for the signer's certificate; the revocation source has none`,
    );
  return { level: 'B-T' };
}

/** CMS room: the certificates it carries, signer info and attributes, and a timestamp token. */
export function reserveFor(identity: SigningIdentity, timestamped: boolean): number {
  const certs = identity.certificate.byteLength + identity.chain.reduce((sum, c) => sum + c.byteLength, 0);
  return certs + 4096 + (timestamped ? 12288 : 0);
}

export function fieldNameFor(name: string | undefined): string {
  // Field names may not contain '.', which separates the parts of a qualified name.
  return name ? `Signature of ${name.replace(/\./g, '_')}` : 'Signature';
}

/** What `cadesSignature` puts into the signature: the texts, /M, the TSA and what it certifies. */
export interface CadesSignatureOptions {
  /** Who signs, in words: the field is named after it (`fieldNameFor`). */
  name?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  signingTime: Date;
  /** A signature timestamp (PAdES B-T) from this TSA. */
  tsa?: TimestampAuthority;
  /** Room for a timestamp token is reserved (default: when `tsa` is given). */
  timestamped?: boolean;
  /** A certification signature with this DocMDP P. */
  docMdp?: 1 | 2 | 3;
}

/**
 * The signature sealPdf and sealRevision append (src/pdf `appendSignatureRevision`): a new field
 * named for the signer, the dictionary's texts and /M, and the CMS by `identity` (cades-cms.ts).
 */
export function cadesSignature(identity: SigningIdentity, o: CadesSignatureOptions): RevisionSignature {
  return {
    kind: 'signature',
    fieldName: fieldNameFor(o.name),
    signingTime: o.signingTime,
    reserve: reserveFor(identity, o.timestamped ?? o.tsa !== undefined),
    ...(o.reason !== undefined ? { reason: o.reason } : {}),
    ...(o.location !== undefined ? { location: o.location } : {}),
    ...(o.contactInfo !== undefined ? { contactInfo: o.contactInfo } : {}),
    ...(o.docMdp !== undefined ? { docMdp: o.docMdp } : {}),
    sign: cadesSigner(signerOf(identity), o.tsa),
  };
}

/** Signs `bytes` with `identity`; the input is an exact prefix of the result. */
export async function sealPdf(
  bytes: Uint8Array,
  identity: SigningIdentity,
  options: SealOptions = {},
): Promise<Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const opts = parseWith(sealSchema, options);
  const signer = signerOf(identity);
  const now = opts.clock ? opts.clock() : new Date();
  const signingTime = opts.signingTime ?? now;
  // A signature the certificate does not allow (key usage, or a time outside its validity, at the
  // claimed time or now: a backdated /M proves nothing) would verify as not valid: refuse it before
  // anything is written.
  const certificate = new X509Certificate(signer.certificate);
  const problem = signingCertificateProblem(certificate, signingTime) ?? signingCertificateProblem(certificate, now);
  if (problem) throw ValidationError.of('identity.certificate', problem);
  const { level, crl, source } = await levelFor(opts, () => revocationSourceFor(identity, opts), signer.certificate);
  const issuer = identity.chain[0];
  if (crl && issuer) {
    // A certificate its CA has revoked makes a seal that verifies as not valid: refused.
    const status = revocationOf(signer.certificate, issuer, [crl], signingTime);
    if (status.status === 'revoked')
      throw ValidationError.of(
        'identity.certificate',
        `The signing certificate was revoked on ${status.revokedAt!.toISOString()}`,
      );
  }
  const tsa = opts.timestamp && level !== 'B-B' ? timestampAuthority(opts.timestamp) : undefined;
  const signed = await appendSignatureRevision(bytes, {
    signature: cadesSignature(identity, {
      ...opts,
      signingTime,
      ...(tsa ? { tsa } : {}),
      timestamped: opts.timestamp !== undefined,
      ...(opts.certify !== undefined ? { docMdp: opts.certify } : {}),
    }),
  });
  if ((level !== 'B-LT' && level !== 'B-LTA') || !source) return signed;
  // Looked at once: it parses every CMS of the file.
  const online = networkFetchProblem(signed);
  // Not asked for B-LT and libpdf would go online for a certificate: the seal stays B-T.
  if (online && !opts.level) return signed;
  const withDss = await appendDss(signed, source, online);
  // B-LTA: the document timestamp after the DSS, the last update (seal-lta.ts).
  return level === 'B-LTA' && opts.timestamp ? addDocumentTimestamp(withDss, { timestamp: opts.timestamp }) : withDss;
}

/**
 * Appends the DSS (PAdES B-LT data) for every signature of `bytes`: the certificates each CMS
 * carries and the CRLs `revocation` gives for them, as its own incremental update. This is also
 * how a document signed in turn gets its long-term validation data once, at the end.
 */
export async function embedValidationData(
  bytes: Uint8Array,
  options: { revocation: RevocationSource },
): Promise<Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const source = options?.revocation;
  if (typeof source?.crlFor !== 'function') throw ValidationError.of('revocation', 'Expected {crlFor}');
  return appendDss(bytes, source, networkFetchProblem(bytes));
}

/** The DSS update, refused when `online` (networkFetchProblem of `bytes`) says libpdf would fetch. */
async function appendDss(bytes: Uint8Array, source: RevocationSource, online: string | undefined): Promise<Uint8Array> {
  if (online)
    throw new SigningError(
      `${online}; castpress makes no network calls while adding validation data (carry the whole chain up to a self-signed root, without AIA on the signer)`,
      'pdf',
      422,
    );
  const { bytes: out } = await appendValidationData(bytes, { getCRL: (cert) => source.crlFor(cert) });
  return out;
}

export interface SignatureRequest extends SealOptions {
  identity: SigningIdentity;
}

/**
 * One signature per signer, in order, each its own incremental update; the last one
 * covers the whole document. Stops at the first failure, leaving the input untouched.
 */
export async function signInTurn(bytes: Uint8Array, requests: readonly SignatureRequest[]): Promise<Uint8Array> {
  if (requests.length === 0) throw ValidationError.of('signatures', 'Must contain at least 1 item');
  let out = bytes;
  for (const { identity, ...options } of requests) out = await sealPdf(out, identity, options);
  return out;
}
