/**
 * Sealing: a PAdES baseline signature (B-B, or B-T with a timestamp) over the whole
 * document, appended as its own incremental update. Calling it again on its output adds
 * another signature that leaves the earlier ones valid (per-signer signatures).
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { ValidationError } from '../errors/index.js';
import { parseWith } from '../schema/index.js';
import { signingCertificateProblem } from './certificates.js';
import { signerOf, type SigningIdentity } from './identity.js';
import { appendSignature } from '../pdf/index.js';
import { timestampAuthority, type TimestampOptions } from './timestamp.js';
import { dropSigningTime, withoutSigningTime } from './pades-cms.js';

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
  /** RFC 3161 timestamp (PAdES B-T) through the caller's fetch function. */
  timestamp?: TimestampOptions;
}

const MAX_TEXT = 1000;

const sealSchema = z.strictObject({
  reason: z.string().max(MAX_TEXT).optional(),
  location: z.string().max(MAX_TEXT).optional(),
  contactInfo: z.string().max(MAX_TEXT).optional(),
  name: z.string().min(1).max(200).optional(),
  signingTime: z.date().refine((d) => !Number.isNaN(d.getTime()), 'Invalid date').optional(),
  timestamp: z.custom<TimestampOptions>((v) => typeof v === 'object' && v !== null && typeof (v as TimestampOptions).fetch === 'function', 'Expected {fetch}').optional(),
});

/** CMS room: the certificates it carries, signer info and attributes, and a timestamp token. */
function reserveFor(identity: SigningIdentity, timestamped: boolean): number {
  const certs = identity.certificate.byteLength + identity.chain.reduce((sum, c) => sum + c.byteLength, 0);
  return certs + 4096 + (timestamped ? 12288 : 0);
}

function fieldNameFor(name: string | undefined): string {
  // Field names may not contain '.', which separates the parts of a qualified name.
  return name ? `Signature of ${name.replace(/\./g, '_')}` : 'Signature';
}

/** Signs `bytes` with `identity`; the input is an exact prefix of the result. */
export async function sealPdf(bytes: Uint8Array, identity: SigningIdentity, options: SealOptions = {}): Promise<Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const opts = parseWith(sealSchema, options);
  const signer = signerOf(identity);
  const signingTime = opts.signingTime ?? new Date();
  // A signature the certificate does not allow (key usage, or a time outside its validity) would
  // verify as not valid: refuse it before anything is written.
  const problem = signingCertificateProblem(new X509Certificate(signer.certificate), signingTime);
  if (problem) throw ValidationError.of('identity.certificate', problem);
  return appendSignature(bytes, {
    // PAdES baseline: the time is /M only (no CMS signing-time); see pades-cms.ts.
    signer: withoutSigningTime(signer),
    rewriteCms: dropSigningTime,
    fieldName: fieldNameFor(opts.name),
    signingTime,
    reserve: reserveFor(identity, opts.timestamp !== undefined),
    ...(opts.reason !== undefined ? { reason: opts.reason } : {}),
    ...(opts.location !== undefined ? { location: opts.location } : {}),
    ...(opts.contactInfo !== undefined ? { contactInfo: opts.contactInfo } : {}),
    ...(opts.timestamp ? { timestampAuthority: timestampAuthority(opts.timestamp) } : {}),
  });
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
