/** What field detection takes and gives (README.md says how each source is read). */
import type { FieldType, TemplateField } from '../fields/index.js';
import type { TopLeftRect } from '../geometry/index.js';

/**
 * Where a proposal comes from: a fillable PDF's own field, a text tag (`{{ signature:::signer1 }}`),
 * or a flat page's drawing: an enclosed box, a line to write on, a row of equal cells, a small
 * square or circle.
 */
export type DetectionSource = 'acroform' | 'tag' | 'box' | 'underline' | 'comb' | 'checkbox';

/** Where a proposal's label comes from. */
export type LabelSource = 'tooltip' | 'text' | 'tag' | 'fieldName';

/**
 * A proposed field: a template field (src/fields' schema), whose type may also be one of the
 * signing types a packet adds (a text tag's or a signature field's), as a packet's field has it.
 */
export type ProposedField = Omit<TemplateField, 'type'> & {
  type: FieldType | 'signature' | 'initial' | 'signatureDate';
};

export interface FieldProposal {
  /**
   * A template field (src/fields' schema: rect in points from the displayed page's top-left
   * corner, 0-based pageNum); its type may be a signing type (`signature`, `initial`,
   * `signatureDate`) from a text tag or a signature field. `id` and `alias` are unique in the result.
   */
  field: ProposedField;
  source: DetectionSource;
  /** 0 to 1: how sure the detector is that a person fills something here. */
  confidence: number;
  /** The field's name for people: its tooltip, the nearest label on the page, or the tag's label. */
  label?: string;
  labelFrom?: LabelSource;
  /** The signer a text tag names. */
  signerId?: string;
  /** With `tooltips: false`: the form field's tooltip, which did not name it. */
  tooltip?: string;
}

export interface DetectionResult {
  /** Displayed size of each page, points. */
  pages: Array<{ width: number; height: number }>;
  /** Page by page, top to bottom, then left to right. */
  proposals: FieldProposal[];
  /** What was passed over: a page cut short at a limit, a malformed text tag. */
  notes: Array<{ pageNum: number; message: string }>;
}

export interface DetectOptions {
  /**
   * Reading flat pages' drawings: `auto` (default) when the document has no form field and no text
   * tag, `always` on every page (proposals a form field or tag already covers are dropped), `never`.
   */
  flat?: 'auto' | 'always' | 'never';
  /**
   * Name form fields by their tooltip (/TU) first (default). `false` names them from the page
   * only, the tooltip kept beside: how the page labels are measured against the tooltips.
   */
  tooltips?: boolean;
  /** The input's name in errors. Default `pdf`. */
  property?: string;
  /** Checked before each page. */
  signal?: AbortSignal;
}

/** Bounds of the work on one document (README "Limits"). */
export const LIMITS = {
  /** Pages read; later pages get no proposals (and a note). */
  maxPages: 500,
  /** Bytes a page's content and form XObjects may decode to (past it the page is passed over, with a note). */
  maxContentBytes: 8 * 1024 * 1024,
  /** Operators of a page's operator list walked. */
  maxOperators: 100_000,
  /** Line segments a page's shapes are read from (longest first). */
  maxSegments: 5_000,
  /** Proposals a page may hold. */
  maxProposals: 1_000,
} as const;

export type { TopLeftRect };
