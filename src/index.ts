/**
 * `castpress`: the engine, templates, request types, errors and remote resources. Fill PDF
 * templates with JSON data; generate PDFs from Markdown blocks or from HTML/CSS (headless Chromium).
 *
 *     const engine = createEngine();
 *     const pdf = await engine.fill(template, { data: { name: 'Ada' } });
 *     await engine.close();
 *
 * The other doors of the package are in src/api/ (`castpress/packets`, `castpress/signing`,
 * `castpress/server`, `castpress/batch`). Each door exports exactly the names the README's
 * "Entry points" section lists (test/package.test.ts compares them): code inside the repository
 * (cli, server, tests) imports from the capability folders, never from here.
 *
 * @module castpress
 */
export { Engine, createEngine } from './engine/index.js';
export type {
  EngineOptions,
  FillCallOptions,
  GenerateCallOptions,
  RenderedPdf,
  BlockPosition,
  CellPosition,
} from './engine/index.js';
export { DEFAULT_LIMITS } from './services/index.js';
export type { Limits } from './services/index.js';
export {
  CastpressError,
  ValidationError,
  AuthorizationError,
  NotFoundError,
  PayloadTooLargeError,
  UriTooLongError,
  UnsupportedMediaTypeError,
  TooManyRequestsError,
  InvalidPdfError,
  RenderError,
  SigningError,
  InsufficientStorageError,
  isCastpressError,
} from './errors/index.js';
export type { FieldError, ErrorBody } from './errors/index.js';
export {
  DirectoryTemplateStore,
  MemoryTemplateStore,
  WORKING_VERSION,
  LATEST_PUBLISHED,
  FIELD_TYPES,
  SIGNING_FIELD_TYPES,
  parseTemplate,
  MemoryTemplateCatalogue,
} from './template/index.js';
export type {
  Template,
  TemplateInput,
  TemplateField,
  TemplateStyle,
  TemplateStore,
  FieldType,
  TemplateCatalogue,
  OrganizationTemplates,
  TemplateRecord,
  TemplateContent,
  TemplateListing,
  NewTemplate,
  PublishedVersion,
  PageSize,
} from './template/index.js';
// Fillable PDFs as templates (docs/filling.md, "Fillable PDFs as templates").
export { templateFromPdf } from './fields/index.js';
export type { TemplateFromPdfOptions } from './fields/index.js';
// Field detection: a PDF's fields proposed for a template (src/detect/README.md).
export { detectFields } from './detect/index.js';
export type {
  DetectionResult,
  DetectionSource,
  DetectOptions,
  FieldProposal,
  LabelSource,
  ProposedField,
} from './detect/index.js';
export type { FillRequest, GenerateRequest, MarkdownRequest, HtmlRequest, MarkdownBlock } from './schema/index.js';
export { httpResolver, ResponseCache } from './resources/index.js';
export type {
  ResourceResolver,
  ResourceKind,
  ResolvedResource,
  HttpResolverOptions,
  ResourceProblem,
} from './resources/index.js';
export { FontRegistry, MissingFontError } from './fonts/index.js';
export type { FontRegistryOptions } from './fonts/index.js';
export { encryptDataString } from './crypto/index.js';
export type { KeyInput } from './crypto/index.js';
