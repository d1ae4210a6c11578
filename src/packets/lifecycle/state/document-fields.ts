/**
 * The fields stored with each document (`DocumentField`, store/records.ts): made from an
 * assembly's plan, and read by id and page in the document they belong to. Pure.
 */
import type { MergedField, PlannedField } from '../../assemble/plan.js';
import type { DocumentField } from '../../store/index.js';

/** The fields of a document that is one of the request's files. */
export function fileFields(fields: readonly PlannedField[]): DocumentField[] {
  return fields.map((f) => ({ ...f, kind: 'file' }));
}

/** The fields of the merged document. */
export function mergedFields(fields: readonly MergedField[]): DocumentField[] {
  return fields.map((f) => ({ ...f, kind: 'merged' }));
}

/** The field's id in its document. */
export function fieldIdOf(f: DocumentField): string {
  return f.kind === 'merged' ? f.mergedFieldId : f.fieldId;
}

/** The field's 0-based page in its document. */
export function fieldPageOf(f: DocumentField): number {
  return f.kind === 'merged' ? f.mergedPageNum : f.pageNum;
}
