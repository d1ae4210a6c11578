/**
 * Field types: one module per type (src/fields/types) declaring how a value is validated and
 * formatted, drawn flat (the contents it yields), written as an interactive field, outlined in
 * debug output and imported from a fillable PDF; `registry.ts` lists them.
 */
export { FIELD_TYPE_MODULES, fieldType, importedType } from './registry.js';
export type { AcroFieldFacts, FieldTypeModule, FormatInput, FormatOptions, FormatOutcome, Formatted, InteractiveInput, Placement, WidgetCommon } from './contract.js';
