/**
 * Signature packets: the createEtchPacket request, text tags, DOCX conversion, assembly, a
 * signer's inputs, completion and seal; the workflow with its stores and outbox delivery (no HTTP).
 */
export {
  parsePacketRequest,
  TOKEN_MINUTES_MAX,
  TOKEN_MINUTES_EMAIL,
  TOKEN_MINUTES_EMBEDDED,
  SIGNER_TYPES,
} from './request.js';
export { DEFAULT_SIGN_CONSENT_TEXT } from './page-options.js';
export type { SignaturePageOptions } from './page-options.js';
export { fillPageText, signConsentText } from './page-text.js';
export type { PageTextValues } from './page-text.js';
export type { PacketFile, TemplateFileRef, UploadFile, HtmlFile, MarkdownFile } from './request-files.js';
export type { PacketRequest, Signer, SignerType, Payload, PacketOptions, PacketParseOptions } from './request.js';
export { SIGNING_TYPES, ATTACHABLE_TYPES, PACKET_FIELD_TYPES, isSigningType, isAttachableType } from './field.js';
export type { PacketField, PacketFieldType, SigningType, AttachableType } from './field.js';
export { parseTagText } from './tag-syntax.js';
export type { TagSpec, TagParse } from './tag-syntax.js';
export { findTextTags, scanPdf, tagsOnPage } from './find-tags.js';
export type { FoundTag, TagSource, ScannedPdf, ScanOptions } from './find-tags.js';
export { readPageGlyphs } from './page-glyphs.js';
export type { Glyph, PageGlyphs, ReadGlyphsOptions } from './page-glyphs.js';
export type { PaintedPath, Subpath } from './page-paths.js';
export { TextTagError, ConversionError } from './errors.js';
export { convertDocxToPdf, DocxConverter, sniffUpload, DOCX_MIMETYPE } from './docx.js';
export type { DocxConvertOptions, DocxConverterOptions, UploadKind } from './docx.js';
export { sanitizeDocx, FETCHING_FIELDS } from './docx-sanitize.js';
export type { SanitizeReport, SanitizeOptions } from './docx-sanitize.js';
export type { DocxSandbox } from './docx-sandbox.js';
export type { ZipLimits } from './docx-zip.js';
export { assemblePacket } from './assemble.js';
export { kernelSigningFields } from './assembled.js';
export { createPacketAssembler, PacketAssembler } from './assembler.js';
export type { PacketEngine } from './port.js';
export type { PacketAssemblerOptions } from './assembler.js';
export type {
  AssembleOptions,
  AssembleCallOptions,
  AssembledPacket,
  AssembledFile,
  PacketHooks,
  SigningFieldWriter,
  PdfMerger,
} from './assembled.js';
export { PageBudget, checkFileCount, checkUploadBytes } from './limits.js';
export { markupWithTitle } from './generated-title.js';
export type { PacketLimits } from './limits.js';
export { planSigners, mergePlan } from './plan.js';
export type { PacketPlan, SignerPlan, PlannedField, PlacedField, MergedField } from './plan.js';
export { applySignerInputs } from './apply.js';
export type { SignerInputs, ApplySignerOptions } from './apply.js';
export { completeDocument, sealCompletedDocument, certificateDocument, CERTIFICATE_FILENAME } from './complete.js';
export type { CompleteOptions } from './complete.js';
export { certificateRequest, sha256Of } from './completion-certificate.js';
export type { CompletionCertificate, AuditEvent, AdoptedMarks } from './completion-certificate.js';
export { signAsSigner, markFieldName } from './signer-signature.js';
export type { SignatureMode, SignerSeal } from './signer-signature.js';
export {
  parseOrganizationFile,
  oneOrganization,
  withSignerDefaults,
  withOrganizationName,
  organizationSettingsSchema,
  LOGO_DATA_URL,
  LOGO_MAX_BYTES,
} from './org.js';
export type { OrganizationSettings, OrganizationDirectory, SignerDefaults } from './org.js';
export * from './store/index.js';
export * from './workflow/index.js';
export * from './events/index.js';
