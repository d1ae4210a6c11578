/**
 * Field types: one module per type (src/fields/types) declaring how a value is validated and
 * formatted, drawn flat (the contents it yields), written as an interactive field, outlined in
 * debug output and imported from a fillable PDF; `registry.ts` lists them. Below them the
 * vocabulary they share with the floors above (model.ts: a template field; filled.ts: what a
 * value becomes), and the import of fillable PDFs as templates (import-pdf.ts).
 */
export { FIELD_TYPE_MODULES, fieldType, importedType } from './registry.js';
export type {
  AcroFieldFacts,
  FieldTypeModule,
  FormatInput,
  FormatOptions,
  FormatOutcome,
  Formatted,
  InteractiveInput,
  Placement,
  WidgetCommon,
} from './contract.js';
export { FIELD_TYPES, SIGNING_FIELD_TYPES, templateField, templateStyle } from './model.js';
export type { FieldType, TemplateField, TemplateStyle } from './model.js';
export type { Alignment, VerticalAlignment, ResolvedStyle, Content, FilledField } from './filled.js';
export {
  templateFromParsedPdf,
  templateFromPdf,
  type ImportedTemplate,
  type TemplateFromPdfOptions,
} from './import-pdf.js';
