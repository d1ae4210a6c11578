/** Signing: identities (certificates and keys), PAdES seals, and verification. */
export { createSigningIdentity } from './identity.js';
export type {
  SigningIdentity,
  SigningIdentityOptions,
  GeneratedIdentityOptions,
  Pkcs12IdentityOptions,
  PemIdentityOptions,
  SigningLogger,
  IdentityKind,
  LocalCaFiles,
} from './identity.js';
export { sealPdf, signInTurn, embedValidationData } from './seal.js';
export type { SealOptions, SignatureRequest, PadesLevelOption } from './seal.js';
export { issueSignerIdentity, canIssueSignerCertificates, signerIdentityFor } from './signer-identity.js';
export type { SignerIdentityOptions } from './signer-identity.js';
export { SignerCertificateIssuer } from './signer-issuer.js';
export { sealRevision } from './seal-revision.js';
export type { RevisionSealOptions } from './seal-revision.js';
export { LocalCaRevocation } from './revocation.js';
export type { RevocationSource, RevokedEntry, LocalCaRevocationOptions } from './revocation.js';
export type { RevocationReport } from './verify-revocation.js';
export type { TimestampOptions, HttpTimestampOptions, LocalTimestampOptions } from './timestamp.js';
export { LocalTimestampAuthority, LOCAL_TSA_POLICY, MAX_TIMESTAMP_REQUEST_BYTES, localTsaFiles } from './tsa-local.js';
export { caFiles as localCaFiles } from './identity.js';
export type { LocalTsaOptions, LocalTsaFiles } from './tsa-local.js';
export { addDocumentTimestamp } from './seal-lta.js';
export type { DocumentTimestampOptions } from './seal-lta.js';
export { verifyPdf } from './verify.js';
export { signatureCertificatesOf } from './signer-certificates.js';
export type { SignatureCertificate } from './signer-certificates.js';
export type {
  VerifyOptions,
  VerifyResult,
  VerifiedSignature,
  SignerInfo,
  ChainReport,
  TimestampReport,
  TrustReport,
  IntegrityReport,
  ValidityPeriodReport,
  KeyUsageReport,
} from './verify.js';
export { AppearanceWriter, signatureFontFile, SIGNATURE_FONT_FAMILY } from './appearance.js';
export type { AppearanceWriterOptions } from './appearance.js';
export { LIMITS as MARK_LIMITS } from './marks.js';
export type { SignatureMark, MarkInput, Stroke, StrokePoint, PointGroup } from './marks.js';
export { formatSignatureDate } from './date-format.js';
export type { SignatureDateOptions } from './date-format.js';
