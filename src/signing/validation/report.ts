/** What verifyPdf reports (verify.ts): per signature its checks, and the document's verdict. */
import type { RevocationReport } from './revocation.js';
import type { TimestampReport } from '../cms/integrity.js';
import type { ChainReport, TrustReport } from './trust.js';
import type { ModificationReport } from './diff/analysis.js';

/** PAdES baseline level from what is present: B-B (CAdES detached, signing-certificate-v2), B-T (+ timestamp token), B-LT (+ DSS after it), B-LTA (+ document timestamp after the DSS). */
export type PadesLevel = 'B-B' | 'B-T' | 'B-LT' | 'B-LTA';

export interface SignerInfo {
  /** Subject DN, e.g. `O=castpress, OU=install 3f…, CN=castpress local signer 3f…`. */
  subject: string;
  commonName?: string;
  issuer: string;
  serialNumber: string;
}

export interface IntegrityReport {
  /** The covered bytes, the CMS signature, its container and its timestamp token (if any) all check. */
  intact: boolean;
  /** The first thing that does not. */
  reason?: string;
}

export interface ValidityPeriodReport {
  /** The signer certificate was valid (notBefore ≤ time ≤ notAfter) at `time`. */
  ok: boolean;
  /**
   * The time checked: the signature timestamp's when its TSA is trusted; else the validation time
   * (`at`, else now) — or, when the certificate fails then, the time of a later document timestamp
   * at which it was valid and not revoked. /M and a CMS signing-time are the signer's claim and
   * never used (see verify-time.ts).
   */
  time: Date;
  /** Where `time` came from: a trusted signature timestamp, a document timestamp after it, the caller's `at`, or now. */
  timeSource: 'timestamp' | 'documentTimestamp' | 'at' | 'now';
  notBefore?: Date;
  notAfter?: Date;
  reason?: string;
}

export interface KeyUsageReport {
  /** keyUsage (when present) allows digitalSignature or nonRepudiation; extendedKeyUsage (when present) is a document-signing purpose (timeStamping for a document timestamp). */
  ok: boolean;
  keyUsage?: string[];
  extendedKeyUsage?: string[];
  reason?: string;
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
  integrity: IntegrityReport;
  trust: TrustReport;
  validityPeriod: ValidityPeriodReport;
  keyUsage: KeyUsageReport;
  /** Difference analysis: what every later revision changed, and whether that is allowed after this signature. */
  modifications: ModificationReport;
  /** For a signature that is PAdES baseline (ETSI.CAdES.detached with signing-certificate-v2): the level reached. */
  padesLevel?: PadesLevel;
  /**
   * Revocation of the signer's certificate from the CRLs in the document's DSS (signatures only):
   * `revoked` makes the signature not valid; `unknown` (no revocation data) is reported, not held against it.
   */
  revocation?: RevocationReport;
  /** integrity.intact && trust.trusted && validityPeriod.ok && keyUsage.ok && modifications.ok && not revoked. */
  valid: boolean;
  /** Every failed check, in words. */
  problems: string[];
}

export interface VerifyResult {
  signatures: VerifiedSignature[];
  /**
   * At least one signature, all valid (so all trusted), and the last one covers the whole document
   * or is followed only by long-term validation data (a DSS, document timestamps).
   */
  valid: boolean;
  /** The last signature covers the whole document. */
  wholeDocumentSigned: boolean;
  /** Why the document is not valid, in words (empty when it is). */
  problems: string[];
}

export interface VerifyOptions {
  /** Trusted roots (PEM text, possibly several certificates, or DER bytes). Without them no signature is valid. */
  trustAnchors?: Array<string | Uint8Array>;
  /** The validation time: certificates are checked at it unless a trusted timestamp proves an earlier one. Default: now. */
  at?: Date;
  /**
   * Revocation checking required (AdES validation with revocation data): a signature whose
   * certificate the DSS's CRLs do not show good is not valid. Default false: `unknown` is reported only.
   */
  requireRevocation?: boolean;
}

/** A signature before its difference analysis (internal to verify.ts and verify-revisions.ts). */
export type Checked = Omit<VerifiedSignature, 'modifications' | 'padesLevel'>;

/** What a signature's report holds before any check: where it is and what it covers (internal). */
export type Base = Pick<
  VerifiedSignature,
  | 'index'
  | 'kind'
  | 'fieldName'
  | 'reason'
  | 'location'
  | 'subFilter'
  | 'byteRange'
  | 'coveredRanges'
  | 'coversWholeDocument'
>;
