/**
 * Signers' marks as form fields (per-signer signatures). A mark drawn into page content
 * after a signature is a change no signature allows; the same mark set as the appearance of a
 * field that existed before the first signature is form filling (ISO 32000-2, 12.8.2.2:
 * DocMDP P=2 allows it). So each signer's box becomes a read-only field with its widget in the
 * document's first signed revision, and each signer later only sets appearances (and /V of the
 * text fields). One appended update per call, through `appendDrawing` (prefix-checked).
 */
import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFDocument,
} from '@cantoo/pdf-lib';
import { ValidationError } from '../../errors/index.js';
import { addAnnotation } from '../content/annots.js';
import { PDF } from '../document/names.js';
import { frameOfPage, multiplyMatrices, userRect, type Matrix } from '../document/page-frame.js';
import { appendDrawing } from './write.js';

/**
 * A field to create: `button` (a read-only push button showing a signature or initials), `text` (a
 * read-only text field), `signature` (an unsigned read-only signature field whose widget shows the
 * mark: the one kind of new field a signature made elsewhere allows, for documents signed before
 * castpress sees them).
 */
export interface MarkFieldSpec {
  name: string;
  kind: 'button' | 'text' | 'signature';
  pageIndex: number;
  /** Points from the top-left corner of the page as shown (crop box and /Rotate). */
  rect: { x: number; y: number; width: number; height: number };
}

/** A field given its look: page `appearancePage` of `FieldMarksUpdate.appearances`, and `value` for a text field's /V. */
export interface FieldMark {
  name: string;
  appearancePage: number;
  value?: string;
}

export interface FieldMarksUpdate {
  /**
   * Fields to create first, once: when the form already has any of these names (an earlier call
   * prepared the document, and a signature may follow that call), neither `edit` nor `create` runs.
   */
  create?: readonly MarkFieldSpec[];
  /** Runs before the fields are created, with them (e.g. src/acroform's unsigned /Sig placeholders dropped). */
  edit?: (doc: PDFDocument) => void;
  /** A PDF whose pages are the appearances (each page's size is its widget's). */
  appearances?: Uint8Array;
  set?: readonly FieldMark[];
}

const READ_ONLY = 1;
const PUSH_BUTTON = 1 << 16;
const PRINT = 4;

function textOf(v: unknown): string | undefined {
  return v instanceof PDFString || v instanceof PDFHexString ? v.decodeText() : undefined;
}

export function formOf(doc: PDFDocument): { form: PDFDict; fields: PDFArray } {
  let form = doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict);
  if (!form) {
    form = doc.context.obj({});
    doc.catalog.set(PDF.AcroForm, doc.context.register(form));
  }
  let fields = form.lookupMaybe(PDF.Fields, PDFArray);
  if (!fields) {
    fields = doc.context.obj([]);
    form.set(PDF.Fields, fields);
  }
  return { form, fields };
}

/** Top-level fields by name (castpress's mark fields are never nested). */
export function fieldsByName(doc: PDFDocument): Map<string, PDFDict> {
  const out = new Map<string, PDFDict>();
  const fields = doc.catalog.lookupMaybe(PDF.AcroForm, PDFDict)?.lookupMaybe(PDF.Fields, PDFArray);
  for (let i = 0; i < (fields?.size() ?? 0); i++) {
    const field = fields!.lookup(i);
    const name = field instanceof PDFDict ? textOf(field.get(PDF.T)) : undefined;
    if (name !== undefined && field instanceof PDFDict) out.set(name, field);
  }
  return out;
}

function ensureHelvetica(doc: PDFDocument, form: PDFDict): void {
  // A text field needs /DA; its font must be in the form's /DR (viewers use it only when editing).
  if (!form.has(PDF.DA)) form.set(PDF.DA, PDFString.of('/Helv 0 Tf 0 g'));
  let dr = form.lookupMaybe(PDF.DR, PDFDict);
  if (!dr) {
    dr = doc.context.obj({});
    form.set(PDF.DR, dr);
  }
  let fonts = dr.lookupMaybe(PDFName.of('Font'), PDFDict);
  if (!fonts) {
    fonts = doc.context.obj({});
    dr.set(PDFName.of('Font'), fonts);
  }
  if (!fonts.has(PDF.Helv))
    fonts.set(
      PDF.Helv,
      doc.context.register(
        doc.context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' }),
      ),
    );
}

function createFields(doc: PDFDocument, specs: readonly MarkFieldSpec[]): void {
  const { form, fields } = formOf(doc);
  const taken = fieldsByName(doc);
  const pages = doc.getPages();
  for (const [i, spec] of specs.entries()) {
    if (taken.has(spec.name)) continue;
    const page = pages[spec.pageIndex];
    if (!page) throw ValidationError.of(`fields[${i}].pageIndex`, `The document has ${pages.length} pages`);
    const r = userRect(frameOfPage(page), spec.rect);
    const widget = doc.context.obj({
      Type: 'Annot',
      Subtype: 'Widget',
      FT: { button: 'Btn', text: 'Tx', signature: 'Sig' }[spec.kind],
      Ff: spec.kind === 'button' ? READ_ONLY | PUSH_BUTTON : READ_ONLY,
      Rect: [r.x, r.y, r.x + r.width, r.y + r.height].map((n) => PDFNumber.of(Math.round(n * 100) / 100)),
      F: PRINT,
      P: page.ref,
    });
    widget.set(PDF.T, PDFHexString.fromText(spec.name));
    if (spec.kind === 'text') {
      ensureHelvetica(doc, form);
      widget.set(PDF.DA, PDFString.of('/Helv 0 Tf 0 g'));
    }
    const ref = doc.context.register(widget);
    fields.push(ref);
    addAnnotation(page, ref);
    taken.set(spec.name, widget);
  }
}

function widgetsOf(doc: PDFDocument, field: PDFDict): PDFDict[] {
  const kids = field.lookupMaybe(PDF.Kids, PDFArray);
  if (!kids) return [field];
  const out: PDFDict[] = [];
  for (let i = 0; i < kids.size(); i++) {
    const kid = doc.context.lookup(kids.get(i));
    if (kid instanceof PDFDict) out.push(kid);
  }
  return out;
}

/** The /Rotate of the page a widget sits on (/P, else the page whose /Annots lists it), 0/90/180/270. */
function rotationOfWidgetPage(doc: PDFDocument, widget: PDFDict): number {
  const pageRef = widget.get(PDF.P);
  for (const page of doc.getPages()) {
    const listed =
      page.ref === pageRef ||
      (pageRef === undefined && (page.node.Annots()?.asArray() ?? []).some((a) => doc.context.lookup(a) === widget));
    if (listed) return (((page.getRotation().angle % 360) + 360) % 360) as number;
  }
  return 0;
}

/**
 * An appearance drawn upright for the reader on a page with /Rotate. The appearance pages are
 * drawn in the box's shown orientation (width × height as the reader sees it), but a viewer maps an
 * appearance's /BBox, transformed by its /Matrix, into the widget's /Rect in *user* space (ISO 32000
 * 12.5.5) and then turns the whole page by /Rotate: unturned, the mark is stretched into the swapped
 * rect and shown on its side. So the form XObject's /Matrix gets the inverse of the page's turn (a
 * /Rotate 90 page is shown turned clockwise, so the appearance is turned counter-clockwise), after the
 * matrix it already has. /MK /R is not set: it tells a viewer how to *build* an appearance, and some
 * (pdf.js) would turn an existing one a second time. Each widget gets its own copy of the XObject
 * dictionary when turned (the same page of appearances could serve widgets on pages turned differently).
 */
function turnedForPage(doc: PDFDocument, widget: PDFDict, ref: PDFRef): PDFRef {
  const angle = rotationOfWidgetPage(doc, widget);
  if (angle === 0) return ref;
  const xobject = doc.context.lookup(ref);
  if (!(xobject instanceof PDFRawStream || xobject instanceof PDFStream)) return ref;
  const bbox = xobject.dict.lookupMaybe(PDFName.of('BBox'), PDFArray);
  const m0 = numbersOf(xobject.dict.lookupMaybe(PDFName.of('Matrix'), PDFArray), [1, 0, 0, 1, 0, 0]);
  const [x0, y0, x1, y1] = numbersOf(bbox, [0, 0, 0, 0]);
  // The box as the existing matrix places it: the turn is about that box, so it lands at the origin again.
  const corners = [
    [x0, y0],
    [x1, y0],
    [x0, y1],
    [x1, y1],
  ].map(([x, y]) => [m0[0] * x + m0[2] * y + m0[4], m0[1] * x + m0[3] * y + m0[5]] as const);
  const w = Math.max(...corners.map((c) => c[0])) - Math.min(...corners.map((c) => c[0]));
  const h = Math.max(...corners.map((c) => c[1])) - Math.min(...corners.map((c) => c[1]));
  const ox = Math.min(...corners.map((c) => c[0]));
  const oy = Math.min(...corners.map((c) => c[1]));
  // Counter-clockwise by the page's angle, then moved back into the positive quadrant.
  const turn: Record<number, Matrix> = {
    90: [0, 1, -1, 0, h, 0],
    180: [-1, 0, 0, -1, w, h],
    270: [0, -1, 1, 0, 0, w],
  };
  const r = turn[angle];
  if (!r) return ref;
  const matrix = multiplyMatrices(multiplyMatrices(m0, [1, 0, 0, 1, -ox, -oy]), r);
  const copy = xobject.clone(doc.context);
  copy.dict.set(PDFName.of('Matrix'), doc.context.obj(matrix.map((n) => PDFNumber.of(Math.round(n * 1e4) / 1e4))));
  return doc.context.register(copy);
}

function numbersOf(array: PDFArray | undefined, fallback: number[]): Matrix {
  const out = array?.asArray().map((v) => (v instanceof PDFNumber ? v.asNumber() : NaN)) ?? [];
  return (out.length === fallback.length && out.every(Number.isFinite) ? out : fallback) as Matrix;
}

/**
 * Creates fields, sets appearances and values, as one appended update of `bytes`
 * (the input is an exact prefix of the output). A field named in `set` that the
 * document lacks is a `ValidationError` and nothing is written.
 */
export async function appendFieldMarks(bytes: Uint8Array, update: FieldMarksUpdate): Promise<Uint8Array> {
  return appendDrawing(bytes, (doc) => applyFieldMarks(doc, update));
}

/** What `appendFieldMarks` does to the document of an update session (also a signer's revision's first part, signer-revision.ts). */
export async function applyFieldMarks(doc: PDFDocument, update: FieldMarksUpdate): Promise<void> {
  const prepared = fieldsByName(doc);
  if (update.create && !update.create.some((c) => prepared.has(c.name))) {
    update.edit?.(doc);
    createFields(doc, update.create);
  }
  const set = update.set ?? [];
  if (set.length === 0) return;
  const byName = fieldsByName(doc);
  const missing = set.findIndex((m) => !byName.has(m.name));
  if (missing >= 0)
    throw ValidationError.of(`fields[${missing}]`, `No form field "${set[missing]!.name}" in the document`);
  const pages = [...new Set(set.map((m) => m.appearancePage))];
  const embedded = update.appearances ? await doc.embedPdf(update.appearances, pages) : [];
  // Embedded now rather than at save: a turned appearance is a copy of the XObject's dictionary.
  for (const page of embedded) await page.embed();
  const refOf = new Map<number, PDFRef>(pages.map((p, i) => [p, embedded[i]!.ref]));
  for (const m of set) {
    const field = byName.get(m.name)!;
    const ref = refOf.get(m.appearancePage);
    // A signature field's /V is a signature dictionary: its text shows in the appearance only.
    if (m.value !== undefined && field.get(PDF.FT) === PDF.Tx) field.set(PDF.V, PDFHexString.fromText(m.value));
    for (const widget of widgetsOf(doc, field)) {
      if (!ref) continue;
      widget.set(PDF.AP, doc.context.obj({ N: turnedForPage(doc, widget, ref) }));
    }
  }
}
