import type { FilledField } from '../../fields/index.js';

// What a field's value becomes (FilledField: contents, resolved style, boxes) is the field
// vocabulary of src/fields, imported from there; these are fill's own stage types.

export interface PlannedPage {
  /** 0-based page of the template PDF. */
  templatePage: number;
  /** Which element of a `data` array this page belongs to. */
  fillIndex: number;
  /** 1-based copy number of this template page within its fill, and how many copies there are. */
  repeatNumber: number;
  repeatTotal: number;
  fields: FilledField[];
}

export interface FillPlan {
  pages: PlannedPage[];
  /** Output pages per fill (page variables count within one fill). */
  pagesPerFill: number[];
}
