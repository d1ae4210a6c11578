/**
 * Field detection as the dashboard and createCast use it: the `Proposal` shape of the contract
 * (DASHBOARD-API.md) behind one function, so the detector can be swapped without touching the
 * routes. The default proposes a fillable PDF's own form fields (src/fields' import); the full
 * detector (text tags, boxes, underlines, combs: src/detect) is passed in as `detect` once it exists.
 */
import { templateFromPdf } from '../fields/index.js';
import type { TemplateField } from '../template/index.js';

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

/** The PDF's own AcroForm fields, each a proposal named by its alias (the field's full name). */
export const acroformProposals: DetectFields = async (pdf) => {
  const imported = await templateFromPdf(pdf);
  return imported.fields.map((field) => ({
    field,
    source: 'acroform' as const,
    confidence: 1,
    ...(field.alias ? { label: field.alias } : {}),
  }));
};
