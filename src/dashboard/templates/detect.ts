/**
 * Field detection as the dashboard and createCast use it: the `Proposal` shape of the contract
 * (DASHBOARD-API.md) behind one function, so the detector can be swapped without touching the
 * routes. The server's default is `detectAll` (src/detect); without a detector, a fillable PDF's own
 * form fields, read with the PDF's preparation (on a worker thread in the server).
 */
import { detectFields } from '../../detect/index.js';
import type { TemplateField } from '../../template/index.js';

/** A field detection proposes; the person accepts or edits it. */
export interface Proposal {
  field: TemplateField;
  source: 'acroform' | 'tag' | 'box' | 'underline' | 'comb' | 'checkbox';
  /** 0..1. */
  confidence: number;
  label?: string;
}

/** Proposals for a PDF (already stripped of active content). */
export type DetectFields = (pdf: Uint8Array) => Promise<Proposal[]>;

/** A PDF's own AcroForm fields (read where the PDF is prepared), each a proposal named by its alias (the field's full name). */
export function formFieldProposals(fields: readonly TemplateField[]): Proposal[] {
  return fields.map((field) => ({
    field,
    source: 'acroform' as const,
    confidence: 1,
    ...(field.alias ? { label: field.alias } : {}),
  }));
}

/**
 * src/detect's detector: a fillable PDF's fields named for people, text tags, and on flat pages the
 * boxes, underlines, combs and check boxes. Its proposed types are the template's (signing types
 * included), so each proposal is a template field as it stands; the caller still checks each one
 * against the schema and drops what it refuses.
 */
export const detectAll: DetectFields = async (pdf) =>
  (await detectFields(pdf)).proposals.map((p) => ({
    field: p.field as TemplateField,
    source: p.source,
    confidence: p.confidence,
    ...(p.label !== undefined ? { label: p.label } : {}),
  }));
