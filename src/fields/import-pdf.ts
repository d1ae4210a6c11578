/**
 * A fillable PDF as a template: src/acroform reads its form widget by widget, the field
 * types' registry decides what each widget becomes (import order, `importAcro`).
 */
import { createHash } from 'node:crypto';
import type { PDFDocument } from '@cantoo/pdf-lib';
import { formFieldsOf } from '../acroform/index.js';
import { loadPdf } from '../pdf/index.js';
import type { TemplateField, TemplateStyle } from './model.js';
import { importedType } from './registry.js';

export interface TemplateFromPdfOptions {
  /** Template id; default `pdf-` + the first 16 hex digits of the file's SHA-256. */
  eid?: string;
  title?: string;
  /** Name of the input in errors. Default `pdf`. */
  property?: string;
}

/** What `templateFromPdf` makes: a template's input (src/template validates it as any other). */
export interface ImportedTemplate {
  eid: string;
  title?: string;
  pdf: Uint8Array;
  fields: TemplateField[];
  style?: TemplateStyle;
}

/**
 * Turns a fillable PDF's AcroForm into a template: one template field per widget (a field
 * shown on two pages gives two template fields sharing the alias, so one value fills both),
 * alias = the fully qualified field name. Unsigned signature fields become `signature` fields;
 * push buttons, signed signature fields and widgets on no page are left out.
 */
export async function templateFromPdf(
  bytes: Uint8Array,
  options: TemplateFromPdfOptions = {},
): Promise<ImportedTemplate> {
  return templateFromParsedPdf(bytes, await loadPdf(bytes, options.property ?? 'pdf'), options);
}

/**
 * `templateFromPdf` of a document the caller has already parsed from `bytes` (the engine's
 * prepared template, so a cold fill parses the PDF once). Only reads `doc`.
 */
export function templateFromParsedPdf(
  bytes: Uint8Array,
  doc: PDFDocument,
  options: TemplateFromPdfOptions = {},
): ImportedTemplate {
  const fields = templateFieldsOf(doc);
  const eid = options.eid ?? `pdf-${createHash('sha256').update(bytes).digest('hex').slice(0, 16)}`;
  const title = options.title ?? doc.getTitle();
  return { eid, ...(title ? { title } : {}), pdf: bytes, fields };
}

/** The template fields of a loaded fillable PDF, one per widget (see `templateFromPdf`). */
function templateFieldsOf(doc: PDFDocument): TemplateField[] {
  return formFieldsOf(doc, importedType);
}
