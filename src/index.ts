/**
 * castpress: an offline PDF engine. Fill PDF templates with JSON data; generate
 * PDFs from Markdown blocks or from HTML/CSS (headless Chromium).
 *
 *     const engine = createEngine();
 *     const pdf = await engine.fill(template, { data: { name: 'Ada' } });
 *     await engine.close();
 */
export { Engine, createEngine, DEFAULT_LIMITS } from './engine/index.js';
export type { EngineOptions, FillCallOptions, GenerateCallOptions, Limits, RenderedPdf } from './engine/index.js';
export type { FillSignatureField } from './fill/index.js';
export * from './errors/index.js';
export { encryptDataString, decryptDataString } from './crypto/index.js';
export type { KeyInput } from './crypto/index.js';
export type { ResourceResolver, ResourceKind, ResolvedResource, HttpResolverOptions, ResourceProblem } from './resources/index.js';
export { httpResolver, ResponseCache } from './resources/index.js';
export { DirectoryTemplateStore, MemoryTemplateStore, WORKING_VERSION, LATEST_PUBLISHED, FIELD_TYPES, parseTemplate } from './template/index.js';
export type { Template, TemplateInput, TemplateField, TemplateStyle, TemplateStore, FieldType } from './template/index.js';
export type { TopLeftRect, PdfRect } from './geometry/index.js';
export type {
  FillRequest,
  GenerateRequest,
  MarkdownRequest,
  HtmlRequest,
  MarkdownBlock,
  TableBlock,
  PageOptions,
  Styling,
  ValueObject,
  FieldInput,
} from './schema/index.js';
export type { FontRegistryOptions, FontWeight } from './fonts/index.js';
export type { BrowserPoolOptions } from './html/index.js';
export { FontRegistry, MissingFontError } from './fonts/index.js';
export type { EngineFace } from './fonts/index.js';
// Fillable PDFs as templates (README: Template stores).
export { templateFromPdf } from './fields/index.js';
export type { TemplateFromPdfOptions } from './fields/index.js';
// One job line of a batch, for consumers of a queue (README: Command line, batch jobs).
export { runBatch, runJobLine, renderJob, parseJobLine, TemplateFiles } from './batch/index.js';
export type { BatchOptions, BatchSummary, JobResult, JobEnvironment, JobSpec } from './batch/index.js';
// The queue (BullMQ on Redis; bullmq and ioredis load only when one of these is called).
export { createQueueWorker, enqueueBatch, watchBatch } from './batch/index.js';
export type { QueueWorker, QueueWorkerOptions, RenderedJob, EnqueueOptions, EnqueuedBatch, QueueBatchSummary, QueueConnection } from './batch/index.js';
// Signing: identities, seals, verification, signature marks (src/signing/README.md).
export { createSigningIdentity, sealPdf, signInTurn, verifyPdf, AppearanceWriter, signatureFontFile, SIGNATURE_FONT_FAMILY, MARK_LIMITS, formatSignatureDate } from './signing/index.js';
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
} from './signing/index.js';
export {
  assemblePacket,
  createPacketAssembler,
  PacketAssembler,
  parsePacketRequest,
  findTextTags,
  parseTagText,
  convertDocxToPdf,
  DocxConverter,
  planSigners,
  mergePlan,
  TextTagError,
  ConversionError,
  SIGNING_TYPES,
  ATTACHABLE_TYPES,
  PACKET_FIELD_TYPES,
  applySignerInputs,
  completeDocument,
  certificateRequest,
  sha256Of,
  kernelSigningFields,
  createPacketWorkflow,
  PacketService,
  openSqliteStore,
  openPostgresStore,
  smtpMailer,
  folderMailer,
  OutboxDispatcher,
  SignerError,
  PacketStateError,
  webhookSignature,
} from './packets/index.js';
export type {
  AssembleOptions,
  AssembledPacket,
  AssembledFile,
  PacketHooks,
  SigningFieldWriter,
  PdfMerger,
  PacketRequest,
  PacketFile,
  PacketField,
  PacketFieldType,
  Signer,
  SignerPlan,
  PacketPlan,
  PlannedField,
  MergedField,
  FoundTag,
  TagSpec,
  DocxConvertOptions,
  DocxConverterOptions,
  SignerInputs,
  ApplySignerOptions,
  CompletionCertificate,
  CompleteOptions,
  PacketWorkflow,
  PacketWorkflowOptions,
  PacketServiceOptions,
  PacketStore,
  SigningSubmission,
  SigningSession,
  SignerEvent,
  EtchPacketView,
  Mailer,
  MailMessage,
  RetryPolicy,
} from './packets/index.js';
