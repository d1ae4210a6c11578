import { PDFDict, type PDFDocument, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import { addSignatureFields } from '../acroform/index.js';
import { PDF, userRect } from '../pdf/index.js';
import type { FillPlan } from './normalize/types.js';
import type { TopLeftRect } from '../geometry/index.js';
import type { PageFrame } from './output/prepared-template.js';

/**
 * An empty signature field written by the fill itself (a packet's signature and
 * initial fields): placed like a template field, in points from the top-left of
 * the template page as shown.
 */
export interface FillSignatureField {
  /** Field name; no period (a /Sig field is not put in a hierarchy). */
  name: string;
  kind: 'signature' | 'initial';
  /** Template page (0-based); the field goes on the first output page made from it. */
  pageNum: number;
  rect: TopLeftRect;
}

/**
 * The fill's finishing step for signature fields, in the fill's own update
 * session: the filled file is not parsed a second time to receive them (that
 * re-parse was most of a packet's cost over its fills). Flat output gets a new
 * form holding only these fields; interactive output adds them to the form the
 * interactive step made, or to the template's own form.
 */
export function signatureFieldsInUpdate(
  fields: readonly FillSignatureField[],
  plan: FillPlan,
  frames: readonly PageFrame[],
  flat: boolean,
  /** The template's own signature boxes (interactive output): renamed rather than refused on a clash. */
  renamed: readonly FillSignatureField[] = [],
) {
  const outputIndex = firstOutputPages(plan);
  return (
    doc: PDFDocument,
    pages: ReadonlyArray<PDFPage | undefined>,
    formRef: PDFRef | undefined,
  ): PDFRef | undefined => {
    const own = flat ? undefined : doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict);
    let ref = formRef;
    let acroForm = ref ? doc.context.lookup(ref, PDFDict) : own;
    if (!acroForm) {
      acroForm = doc.context.obj({ Fields: [] });
      ref = doc.context.register(acroForm);
    }
    const specsOf = (list: readonly FillSignatureField[]) =>
      list.map((f) => ({
        name: f.name,
        kind: f.kind,
        pageIndex: outputIndex.get(f.pageNum) ?? pages.length,
        rect: userRect(frames[f.pageNum]!, f.rect),
      }));
    const target = { pages, acroForm, ownForm: acroForm === own };
    // The caller's fields first: their names are the caller's to keep (packets sign them by name).
    if (fields.length > 0) addSignatureFields(doc, specsOf(fields), 'signatureFields', target);
    if (renamed.length > 0) addSignatureFields(doc, specsOf(renamed), 'template.fields', target, { rename: true });
    return ref;
  };
}

/** Output page index of the first copy of each template page. */
export function firstOutputPages(plan: FillPlan): Map<number, number> {
  const outputIndex = new Map<number, number>();
  plan.pages.forEach((p, i) => {
    if (!outputIndex.has(p.templatePage)) outputIndex.set(p.templatePage, i);
  });
  return outputIndex;
}
