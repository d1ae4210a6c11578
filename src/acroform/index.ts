/** AcroForms: reading fillable PDFs' forms (for import as templates), interactive output, filling a PDF's own fields. */
export {
  formFieldsOf,
  type AcroClassifier,
  type AcroFieldFacts,
  type ImportedFormField,
  type ImportedStyle,
} from './form-import.js';
export { fillExistingFields, type ExistingFieldValue, type FillExistingOptions } from './fill-existing.js';
export { flattenForm } from './flatten.js';
export type { AppearanceChecks } from './appearance/check.js';
export { drawWidgetLooks, widgetField } from './appearance/widget-look.js';
export { combFirstCell, widestWord } from './appearance/appearance.js';
export type { FieldTextStyle, Alignment, VerticalAlignment, LayoutMemo } from './appearance/appearance.js';
export type { WidgetBox } from './appearance/canvas.js';
export type { CheckMarkPainter } from './appearance/toggle.js';
export { addInteractiveFields } from './create.js';
export type { InteractiveFieldSpec } from './field-spec.js';
export type { FormTarget } from './form-dict.js';
export {
  addSignatureFields,
  appendSignatureFields,
  appendSignatureFieldsOnDisplay,
  dropUnsignedSignatureFields,
  MAX_SIGNATURE_FIELDS,
  type SignatureFieldSpec,
} from './signature.js';
