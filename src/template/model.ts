import { z } from 'zod';
import { fieldType, templateField, templateStyle } from '../fields/index.js';

// The field vocabulary (types, rects, a template field's schema) is src/fields': the
// template is one PDF plus fields, validated against the field types' own rules.
export { FIELD_TYPES, SIGNING_FIELD_TYPES } from '../fields/index.js';
export type { FieldType, TemplateField, TemplateStyle } from '../fields/index.js';

const pdfBytes = z.custom<Uint8Array>((v) => v instanceof Uint8Array && v.byteLength > 0, {
  error: 'Must be the bytes of a PDF (Uint8Array)',
});

export const templateSchema = z
  .object({
    eid: z.string().min(1),
    title: z.string().optional(),
    versionNumber: z.number().int().optional(),
    pdf: pdfBytes,
    fields: z.array(templateField),
    style: templateStyle.optional(),
  })
  .superRefine((t, ctx) => {
    const ids = new Set<string>();
    t.fields.forEach((f, i) => {
      if (ids.has(f.id))
        ctx.addIssue({ code: 'custom', message: `Duplicate field id "${f.id}"`, path: ['fields', i, 'id'] });
      ids.add(f.id);
      const formatProblem = f.format === undefined ? undefined : fieldType(f.type).formatProblem?.(f.format);
      if (formatProblem) ctx.addIssue({ code: 'custom', message: formatProblem, path: ['fields', i, 'format'] });
    });
  });

/** A PDF template (the spec's "Cast"): one PDF plus typed fields placed on its pages. */
export type Template = z.output<typeof templateSchema>;
/** What callers write: the same shape, before validation fills in normalised values. */
export type TemplateInput = z.input<typeof templateSchema>;
