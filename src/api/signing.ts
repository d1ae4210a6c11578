/**
 * `castpress/signing`: signing identities, PAdES seals, verification, signature marks.
 * Exactly the names the README's "Entry points" section lists (test/package.test.ts).
 *
 * @module castpress/signing
 */
export {
  createSigningIdentity,
  sealPdf,
  signInTurn,
  verifyPdf,
  AppearanceWriter,
  MARK_LIMITS,
  formatSignatureDate,
} from '../signing/index.js';
export type {
  SigningIdentity,
  SigningIdentityOptions,
  SigningLogger,
  SealOptions,
  SignatureRequest,
  TimestampOptions,
  VerifyOptions,
  VerifyResult,
  VerifiedSignature,
  AppearanceWriterOptions,
  SignatureMark,
  MarkInput,
} from '../signing/index.js';
