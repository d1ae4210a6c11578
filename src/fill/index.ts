/**
 * Fill: a template plus validated data → PDF bytes (flat output).
 * Value formats, precedence and repeat rules: docs/reference/fill.md.
 */
export { fill, type FillContext, type FillOutput } from './fill.js';
export type { FillSignatureField } from './signature-fields.js';
export { FillCache, type PreparedTemplate } from './output/prepared-template.js';
export { planFill } from './normalize/plan.js';
export { unknownDataKeys } from './data-keys.js';
export type { FillPlan, PlannedPage } from './normalize/types.js';
