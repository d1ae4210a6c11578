/**
 * A signer's revision (per-signer signatures): their marks and their signature as one
 * incremental update, from one parse of the document, through the same writer and the same
 * signature as `sealPdf` (src/pdf `appendSignatureRevision`, `cadesSignature`).
 */
import { X509Certificate } from 'node:crypto';
import { z } from 'zod';
import { ValidationError } from '../../errors/index.js';
import { appendSignatureRevision, type FieldMarksUpdate } from '../../pdf/index.js';
import { parseWith } from '../../schema/index.js';
import { signingCertificateProblem, validityAt } from '../cms/certificates.js';
import { hasIssuedKeyUsage, signerOf, type SigningIdentity } from '../identity/identity.js';
import { cadesSignature, signatureDictionaryFields } from './seal.js';
import { isTimestampOptions, timestampAuthority, type TimestampOptions } from '../identity/timestamp.js';

export interface RevisionSealOptions {
  /** The signer's marks: fields created, appearances and values set (src/pdf `FieldMarksUpdate`). */
  marks?: FieldMarksUpdate;
  /** Who signs, in words: the signature field is `Signature of <name>`. */
  name?: string;
  reason?: string;
  location?: string;
  contactInfo?: string;
  /** /M; must fall inside the certificate's validity period. Default: now. */
  signingTime?: Date;
  /** A signature timestamp (PAdES B-T) from this TSA: `{url, fetch}` or `{local}`. */
  timestamp?: TimestampOptions;
}

const schema = z.strictObject({
  marks: z.custom<FieldMarksUpdate>((v) => typeof v === 'object' && v !== null, 'Expected the marks').optional(),
  timestamp: z.custom<TimestampOptions>(isTimestampOptions, 'Expected {url, fetch} or {local}').optional(),
  ...signatureDictionaryFields,
});

/**
 * Appends `options.marks` and a PAdES B-B signature by `identity` over the whole result as one
 * update of `bytes` (an exact prefix of the output). The signature is `sealPdf`'s: a new
 * invisible signature field, `ETSI.CAdES.detached`, no signing-time attribute, /M the time.
 */
export async function sealRevision(
  bytes: Uint8Array,
  identity: SigningIdentity,
  options: RevisionSealOptions = {},
): Promise<Uint8Array> {
  if (!(bytes instanceof Uint8Array)) throw ValidationError.of('pdf', 'Expected the PDF as bytes (Uint8Array)');
  const opts = parseWith(schema, options);
  const signer = signerOf(identity);
  const signingTime = opts.signingTime ?? new Date();
  // As sealPdf: a signature that would verify as not valid is never made. A certificate issued here
  // for this signature has the key usage by construction: only its validity period is read.
  const certificate = new X509Certificate(signer.certificate);
  const problem = hasIssuedKeyUsage(identity)
    ? validityAt(certificate, signingTime).reason
    : signingCertificateProblem(certificate, signingTime);
  if (problem) throw ValidationError.of('identity.certificate', problem);
  const tsa = opts.timestamp ? timestampAuthority(opts.timestamp) : undefined;
  return appendSignatureRevision(bytes, {
    ...(opts.marks ? { marks: opts.marks } : {}),
    signature: cadesSignature(identity, { ...opts, signingTime, ...(tsa ? { tsa } : {}) }),
  });
}
