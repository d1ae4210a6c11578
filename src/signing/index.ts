/** Signing: identities (certificates and keys), PAdES seals, and verification. */
export { createSigningIdentity } from './identity/identity.js';
export type {
  SigningIdentity,
  SigningIdentityOptions,
  GeneratedIdentityOptions,
  Pkcs12IdentityOptions,
  PemIdentityOptions,
  SigningLogger,
  IdentityKind,
  LocalCaFiles,
} from './identity/identity.js';
export { sealPdf, signInTurn, embedValidationData } from './seal/seal.js';
export type { SealOptions, SignatureRequest, PadesLevelOption } from './seal/seal.js';
export { issueSignerIdentity, signerIdentityFor } from './identity/signer-identity.js';
export type { SignerIdentityOptions } from './identity/signer-identity.js';
export { SignerCertificateIssuer } from './identity/signer-issuer.js';
export { sealRevision } from './seal/signer-revision.js';
export type { RevisionSealOptions } from './seal/signer-revision.js';
export { LocalCaRevocation } from './identity/revocation.js';
export type { RevocationSource, RevokedEntry, LocalCaRevocationOptions } from './identity/revocation.js';
export type { RevocationReport } from './validation/revocation.js';
export type { TimestampOptions, HttpTimestampOptions, LocalTimestampOptions } from './identity/timestamp.js';
export { LocalTimestampAuthority, LOCAL_TSA_POLICY, MAX_TIMESTAMP_REQUEST_BYTES } from './identity/local-tsa.js';
export { caFiles as localCaFiles } from './identity/ca-files.js';
export type { LocalTsaOptions } from './identity/local-tsa.js';
export { addDocumentTimestamp } from './seal/lta.js';
export type { DocumentTimestampOptions } from './seal/lta.js';
export { verifyPdf } from './validation/verify.js';
export { signatureCertificatesOf } from './validation/signer-certificates.js';
export type { SignatureCertificate } from './validation/signer-certificates.js';
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
} from './validation/verify.js';
export { AppearanceWriter, signatureFontFile } from './marks/appearance.js';
export type { AppearanceWriterOptions } from './marks/appearance.js';
export { LIMITS as MARK_LIMITS } from './marks/marks.js';
export type { SignatureMark, MarkInput, Stroke, StrokePoint, PointGroup } from './marks/marks.js';
export { formatSignatureDate } from './marks/date-format.js';
export type { SignatureDateOptions } from './marks/date-format.js';
