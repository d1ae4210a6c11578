export { collectFillRequest, parseFillRequest, parseGenerateRequest, NO_PRIVATE_KEY_MESSAGE } from './parse.js';
export type { CollectedFillRequest, DataDecryptor, ParseOptions } from './parse.js';
export { once } from './once.js';
export { collect, formatPath, isPlainObject, parseWith, messageFor, toFieldErrors } from './issues.js';
export { parseJson, parseJsonBody } from './json-body.js';
export { fillRequestJsonSchema, generateRequestJsonSchema } from './json-schema.js';
export type { JsonSchema } from './json-schema.js';
export { fontFamilyRefs, rawGenerateFontRefs } from './font-refs.js';
export type { FontRef } from './font-refs.js';
export { isValueObject, styling } from './styling.js';
export type { Styling, ValueObject, FieldInput, ComplexValue } from './styling.js';
export type { FillRequest, FillData, FillOptions } from './fill-request.js';
export type {
  GenerateRequest,
  MarkdownRequest,
  HtmlRequest,
  MarkdownBlock,
  TableBlock,
  LogoOption,
} from './generate-request.js';
export type { PageOptions, LengthUnit } from './common.js';
