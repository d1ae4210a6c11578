/** AcroForms: reading fillable PDFs' forms (for import as templates), interactive output, filling a PDF's own fields. */
export { formFieldsOf, type AcroClassifier, type AcroFieldFacts, type ImportedFormField, type ImportedStyle } from './form-import.js';
export { fillExistingFields, type ExistingFieldValue, type FillExistingOptions } from './fill-existing.js';
export { flattenForm } from './flatten.js';
export type { AppearanceChecks } from './appearance-check.js';
export { drawWidgetLooks, widgetField } from './widget-look.js';
export { combFirstCell, widestWord } from './appearance.js';
export type { FieldTextStyle, Alignment, VerticalAlignment, CheckMarkPainter, LayoutMemo, WidgetBox } from './appearance.js';
export { addInteractiveFields, type FormTarget, type InteractiveFieldSpec } from './create.js';
export { addSignatureFields, appendSignatureFields, appendSignatureFieldsOnDisplay, dropUnsignedSignatureFields, type SignatureFieldSpec } from './signature.js';
