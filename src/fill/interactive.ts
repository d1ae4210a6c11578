import { PDFDict, type PDFDocument, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import { fieldType, type FilledField } from '../fields/index.js';
import { PDF, userRect } from '../pdf/index.js';
import {
  addInteractiveFields,
  fillExistingFields,
  type AppearanceChecks,
  type ExistingFieldValue,
  type InteractiveFieldSpec,
} from '../acroform/index.js';
import { TextSetter } from '../text/index.js';
import type { FillPlan } from './normalize/types.js';
import type { PageFrame } from './output/prepared-template.js';
import type { LayoutCache } from './output/layout-cache.js';
import { drawMark } from './render/marks.js';
import type { Typesetter } from './render/text.js';
import { firstOutputPages } from './signature-fields.js';
import type { SigningBlanks } from './signing-blanks.js';

/** The request's checkbox character for interactive check boxes; without one they show a drawn check mark. */
export interface InteractiveMarks {
  checkboxCharacter?: string;
  checkboxSquare: boolean;
}

/** Interactive output draws only images into the page; every other value becomes a form field. */
export function imagesOnly(plan: FillPlan): FillPlan {
  return {
    ...plan,
    pages: plan.pages.map((p) => ({
      ...p,
      fields: p.fields.map((f) => ({ ...f, contents: f.contents.filter((c) => c.kind === 'image') })),
    })),
  };
}

/**
 * Field names: the template's name (or alias, or id), with the array indices
 * of the value's path appended, so each repeated or overflowing value is its
 * own field while a value shown on several pages is one field with several widgets.
 */
function nameOf(filled: FilledField): string {
  const base = filled.field.name ?? filled.field.alias ?? filled.field.id;
  const indices = [...filled.property.matchAll(/\[(\d+)\]/g)].map((m) => m[1]);
  return indices.length ? `${base}_${indices.join('_')}` : base;
}

function specsOf(
  filled: FilledField,
  pageIndex: number,
  frame: PageFrame,
  marks: InteractiveMarks,
  t: Typesetter,
): InteractiveFieldSpec[] {
  const f = filled.field;
  const style = {
    fontFamily: filled.style.fontFamily,
    fontWeight: filled.style.fontWeight,
    fontSize: filled.style.fontSize,
    textColor: filled.style.textColor,
    alignment: filled.style.alignment,
    verticalAlignment: filled.style.verticalAlignment,
  };
  const dx = filled.box.x - f.rect.x;
  const dy = filled.box.y - f.rect.y;
  // Text reads upright on the page as shown: the field's own turn plus the page's /Rotate, in user space.
  const turn = (((f.rotation ?? 0) + frame.rotate) % 360) as 0 | 90 | 180 | 270;
  return fieldType(f.type).interactive({
    filled,
    name: nameOf(filled),
    common: { pageIndex, style, readOnly: filled.readOnly, ...(turn !== 0 ? { rotation: turn } : {}) },
    at: (r) => userRect(frame, { x: r.x + dx, y: r.y + dy, width: r.width, height: r.height }),
    checkboxCharacter: marks.checkboxCharacter,
    checkboxSquare: marks.checkboxSquare,
    paintMark: (target, width, height, char, square) =>
      drawMark(target, t, { x: 0, y: 0, width, height }, char, square, filled.style),
  });
}

function existingValue(filled: FilledField): ExistingFieldValue {
  const own = fieldType(filled.field.type).ownFieldValue;
  const value = own ? own(filled) : (filled.values[''] ?? '');
  return { acroFieldName: filled.field.acroFieldName!, value, readOnly: filled.readOnly, style: { ...filled.style } };
}

/** Values for the PDF's own fields (acroFieldName): they exist once, so only the first copy of their page counts. */
function ownFieldValues(plan: FillPlan): ExistingFieldValue[] {
  const seenPages = new Set<number>();
  return plan.pages.flatMap((page) => {
    const first = !seenPages.has(page.templatePage);
    seenPages.add(page.templatePage);
    return first ? page.fields.filter((f) => f.field.acroFieldName).map(existingValue) : [];
  });
}

/**
 * Specs of the fields to create: every value not bound to one of the PDF's own fields, by output
 * page, then the template's empty signing boxes on the first copy of their page.
 */
function newFieldSpecs(
  plan: FillPlan,
  frames: PageFrame[],
  marks: InteractiveMarks,
  text: TextSetter,
  layouts: LayoutCache,
  blanks: SigningBlanks['text'],
): InteractiveFieldSpec[] {
  const typesetter: Typesetter = { setter: text, layouts };
  const values = plan.pages.flatMap((page, pageIndex) =>
    page.fields
      .filter((f) => !f.field.acroFieldName)
      .flatMap((filled) => specsOf(filled, pageIndex, frames[page.templatePage]!, marks, typesetter)),
  );
  const firstCopy = firstOutputPages(plan);
  const empty = blanks.flatMap(({ filled, templatePage }) => {
    const pageIndex = firstCopy.get(templatePage);
    return pageIndex === undefined ? [] : specsOf(filled, pageIndex, frames[templatePage]!, marks, typesetter);
  });
  return [...values, ...empty];
}

/**
 * useInteractiveFields: the values become AcroForm fields written in the fill's
 * own update (see renderPlan's `fields`), so interactive output costs about what
 * a flat fill costs instead of a parse and a full save of the template. A PDF
 * with a form of its own keeps it: its fields (acroFieldName) are filled in
 * place (the session writes only the field, widget and form objects that
 * change) and new fields join its field tree. Otherwise a new AcroForm is made;
 * its reference is returned for the catalog. `blanks`: the template's signing boxes that
 * become empty text fields.
 */
export function fieldsInUpdate(
  plan: FillPlan,
  frames: PageFrame[],
  marks: InteractiveMarks,
  layouts: LayoutCache,
  checks: AppearanceChecks | undefined,
  blanks: SigningBlanks['text'],
) {
  return (doc: PDFDocument, pages: ReadonlyArray<PDFPage | undefined>, text: TextSetter): PDFRef | undefined => {
    const own = doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict);
    const existing = ownFieldValues(plan);
    if (own && existing.length > 0)
      fillExistingFields(doc, existing, text, { flatten: false, layouts, ...(checks ? { checks } : {}) });
    const specs = newFieldSpecs(plan, frames, marks, text, layouts, blanks);
    if (own) {
      addInteractiveFields(doc, specs, text, { pages, acroForm: own, ownForm: true }, layouts);
      return undefined;
    }
    if (specs.length === 0) return undefined;
    const acroForm = doc.context.obj({ Fields: [] });
    addInteractiveFields(doc, specs, text, { pages, acroForm }, layouts);
    return doc.context.register(acroForm);
  };
}
