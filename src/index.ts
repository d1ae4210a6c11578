/**
 * castpress: an offline PDF engine. Fill PDF templates with JSON data; generate
 * PDFs from Markdown blocks or from HTML/CSS (headless Chromium).
 *
 *     const engine = createEngine();
 *     const pdf = await engine.fill(template, { data: { name: 'Ada' } });
 *     await engine.close();
 */
export { Engine, createEngine, DEFAULT_LIMITS } from './engine/index.js';
export type { EngineOptions, FillCallOptions, Limits } from './engine/index.js';
export * from './errors/index.js';
export { encryptDataString, decryptDataString } from './crypto/index.js';
export type { KeyInput } from './crypto/index.js';
export type { ResourceResolver, ResourceKind, ResolvedResource } from './resources/index.js';
export { DirectoryTemplateStore, MemoryTemplateStore, WORKING_VERSION, LATEST_PUBLISHED, FIELD_TYPES, parseTemplate } from './template/index.js';
export type { Template, TemplateInput, TemplateField, TemplateStyle, TemplateStore, FieldType, Rect } from './template/index.js';
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
export {
  assemblePacket,
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
} from './packets/index.js';
