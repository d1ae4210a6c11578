/**
 * Signature packets: the createEtchPacket request, text tags, DOCX conversion, assembly, a
 * signer's inputs, completion and seal; the workflow with its stores and outbox delivery (no HTTP).
 */
export { parsePacketRequest, TOKEN_MINUTES_EMAIL, TOKEN_MINUTES_EMBEDDED } from './request/request.js';
export { DEFAULT_SIGN_CONSENT_TEXT } from './request/page-options.js';
export type { SignaturePageOptions } from './request/page-options.js';
export { fillPageText, signConsentText } from './request/page-text.js';
export type { PageTextValues } from './request/page-text.js';
export type { PacketFile, TemplateFileRef, UploadFile, HtmlFile, MarkdownFile } from './request/files.js';
export type { PacketRequest, Signer, Payload, PacketOptions, PacketParseOptions } from './request/request.js';
export { SIGNING_TYPES, PACKET_FIELD_TYPES, isSigningType, isAttachableType } from './request/field.js';
export type { PacketField, PacketFieldType, SigningType, AttachableType } from './request/field.js';
export { parseTagText } from './tags/syntax.js';
export type { TagSpec, TagParse } from './tags/syntax.js';
export { findTextTags, scanPdf, tagsOnPage } from './tags/find.js';
export type { FoundTag, TagSource, ScannedPdf, ScanOptions } from './tags/find.js';
export { readPageGlyphs } from './tags/glyphs.js';
export type { Glyph, PageGlyphs, ReadGlyphsOptions } from './tags/glyphs.js';
export type { PaintedPath, Subpath } from './tags/paths.js';
export { TextTagError, ConversionError } from './request/errors.js';
export { convertDocxToPdf, DocxConverter, sniffUpload } from './docx/convert.js';
export type { DocxConvertOptions, DocxConverterOptions, UploadKind } from './docx/convert.js';
export { sanitizeDocx } from './docx/sanitize.js';
export type { SanitizeReport, SanitizeOptions } from './docx/sanitize.js';
export type { DocxSandbox } from './docx/sandbox.js';
export type { ZipLimits } from './docx/zip.js';
export { assemblePacket } from './assemble/assemble.js';
export { kernelSigningFields } from './assemble/assembled.js';
export { createPacketAssembler, PacketAssembler } from './assemble/assembler.js';
export type { PacketEngine } from './assemble/port.js';
export type { PacketAssemblerOptions } from './assemble/assembler.js';
export type {
  AssembleOptions,
  AssembleCallOptions,
  OwnTemplate,
  AssembledPacket,
  AssembledFile,
  PacketHooks,
  SigningFieldWriter,
  PdfMerger,
} from './assemble/assembled.js';
export { checkFileCount, checkUploadBytes } from './request/limits.js';
export { markupWithTitle } from './request/generated-title.js';
export type { PacketLimits } from './request/limits.js';
export { planSigners, mergePlan } from './assemble/plan.js';
export type { PacketPlan, SignerPlan, PlannedField, PlacedField, MergedField } from './assemble/plan.js';
export { applySignerInputs } from './signatures/apply.js';
export type { SignerInputs, ApplySignerOptions } from './signatures/apply.js';
export {
  completeDocument,
  sealCompletedDocument,
  certificateDocument,
  CERTIFICATE_FILENAME,
} from './signatures/complete.js';
export type { CompleteOptions } from './signatures/complete.js';
export { certificateRequest, sha256Of } from './signatures/completion-certificate.js';
export type { CompletionCertificate, AuditEvent, AdoptedMarks } from './signatures/completion-certificate.js';
export { signAsSigner } from './signatures/signer-signature.js';
export type { SignatureMode, SignerSeal } from './signatures/signer-signature.js';
export {
  parseOrganizationFile,
  withSignerDefaults,
  withOrganizationName,
  organizationSettingsSchema,
  LOGO_DATA_URL,
  LOGO_MAX_BYTES,
} from './request/org.js';
export type { OrganizationSettings, OrganizationDirectory, SignerDefaults } from './request/org.js';
export * from './store/index.js';
export * from './lifecycle/index.js';
export * from './events/index.js';
