/**
 * An uploaded template's PDF made ready on a worker thread (the dashboard's upload, GraphQL
 * `createCast`): active content removed, pages counted and measured, and the PDF's own form fields
 * read as proposals, so a large upload is parsed away from the server's event loop.
 */
import { isCastpressError, PayloadTooLargeError, type ErrorBody } from '../errors/index.js';
import { templateFromPdf } from '../fields/index.js';
import { displayedPageSizes, stripActiveContent } from '../pdf/index.js';
import type { TemplateField } from '../template/index.js';

export interface TemplateTask {
  bytes: Uint8Array;
  /** What errors name (`file`, `pdf`). */
  property: string;
  /** Pages a template may have: 413 beyond. */
  maxPages: number;
  /** Read the PDF's own form fields. */
  formFields: boolean;
}

export type TemplateOutcome =
  | { ok: true; pdf: Uint8Array; pages: Array<{ width: number; height: number }>; formFields: TemplateField[] }
  | { ok: false; status: number; error: ErrorBody };

/** The work itself, the same on a thread and in-process. */
export async function prepareTemplatePdf(task: TemplateTask): Promise<TemplateOutcome & { ok: true }> {
  const stripped = await stripActiveContent(task.bytes, task.property);
  if (stripped.pages > task.maxPages)
    throw new PayloadTooLargeError(
      `A template may have at most ${task.maxPages} pages; this file has ${stripped.pages}`,
      task.property,
    );
  const pages = await displayedPageSizes(stripped.pdf, task.property);
  const formFields = task.formFields ? (await templateFromPdf(stripped.pdf, { property: task.property })).fields : [];
  return { ok: true, pdf: stripped.pdf, pages, formFields };
}

/** A typed error is an outcome; anything else is thrown (the pool answers 500). */
export async function runTemplateTask(task: TemplateTask): Promise<TemplateOutcome> {
  try {
    return await prepareTemplatePdf(task);
  } catch (e) {
    if (!isCastpressError(e)) throw e;
    return { ok: false, status: e.status, error: e.toJSON() };
  }
}
