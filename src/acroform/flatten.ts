import {
  concatTransformationMatrix,
  drawObject,
  PDFArray,
  PDFContentStream,
  PDFDict,
  PDFName,
  PDFRef,
  PDFStream,
  popGraphicsState,
  pushGraphicsState,
  type PDFDocument,
  type PDFOperator,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import { acroFormOf, hiddenWidget, numberOf, readFieldTree, type FieldNode } from './tree.js';

/**
 * Draws every field widget's current normal appearance into its page and
 * removes the form: the page then shows exactly what the viewer showed.
 * One pass over pages (pdf-lib's flatten searches every page for every
 * widget, and regenerates appearances in Helvetica first).
 */
export function flattenForm(doc: PDFDocument, fields: FieldNode[] = readFieldTree(doc)): void {
  const pages = doc.getPages();
  const byPage = new Map<number, Array<{ widget: PDFDict; ref?: PDFRef }>>();
  for (const f of fields) {
    for (const w of f.widgets) {
      if (w.pageIndex < 0) continue;
      const list = byPage.get(w.pageIndex) ?? [];
      list.push({ widget: w.dict, ref: w.ref });
      byPage.set(w.pageIndex, list);
    }
  }
  for (const [pageIndex, widgets] of byPage) flattenPage(doc, pages[pageIndex], widgets);
  removeForm(doc, fields);
}

function flattenPage(doc: PDFDocument, page: PDFPage, widgets: Array<{ widget: PDFDict; ref?: PDFRef }>): void {
  const ops: PDFOperator[] = [];
  const gone = new Set<PDFDict>();
  for (const { widget } of widgets) {
    gone.add(widget);
    if (hiddenWidget(widget)) continue;
    const appearance = normalAppearance(widget);
    if (!appearance) continue;
    const rect = widget.lookupMaybe(PDF.Rect, PDFArray);
    if (!rect) continue;
    const [x1, y1, x2, y2] = [0, 1, 2, 3].map((i) => numberOf(rect.lookup(i)) ?? 0);
    const matrix = placement(appearance.stream, [
      Math.min(x1, x2),
      Math.min(y1, y2),
      Math.max(x1, x2),
      Math.max(y1, y2),
    ]);
    if (!matrix) continue;
    if (!appearance.stream.dict.has(PDF.Subtype)) appearance.stream.dict.set(PDF.Subtype, PDF.Form);
    const name = page.node.newXObject('FlatWidget', appearance.ref);
    ops.push(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState());
  }
  if (ops.length > 0) {
    // Page content may leave the graphics state changed (no closing Q): isolate it first.
    const context = doc.context;
    page.node.wrapContentStreams(
      context.register(PDFContentStream.of(context.obj({}), [pushGraphicsState()])),
      context.register(PDFContentStream.of(context.obj({}), [popGraphicsState()])),
    );
    page.pushOperators(...ops);
  }
  const annots = page.node.lookupMaybe(PDF.Annots, PDFArray);
  if (annots) {
    for (let i = annots.size() - 1; i >= 0; i--) {
      const a = annots.lookup(i);
      if (a instanceof PDFDict && gone.has(a)) annots.remove(i);
    }
  }
}

function normalAppearance(widget: PDFDict): { stream: PDFStream; ref: PDFRef } | undefined {
  const ap = widget.lookupMaybe(PDF.AP, PDFDict);
  if (!ap) return undefined;
  let raw = ap.get(PDF.N);
  let resolved = widget.context.lookup(raw);
  if (resolved instanceof PDFDict && !(resolved instanceof PDFStream)) {
    const state = widget.lookup(PDF.AS);
    if (!(state instanceof PDFName)) return undefined;
    raw = resolved.get(state);
    resolved = widget.context.lookup(raw);
  }
  if (!(resolved instanceof PDFStream)) return undefined;
  const ref = raw instanceof PDFRef ? raw : widget.context.register(resolved);
  return { stream: resolved, ref };
}

type Matrix = [number, number, number, number, number, number];

/** PDF 32000 §12.5.5: the appearance's BBox, transformed by its Matrix, is fitted onto the widget's Rect. */
export function placement(stream: PDFStream, rect: [number, number, number, number]): Matrix | undefined {
  const bbox = stream.dict.lookupMaybe(PDF.BBox, PDFArray);
  const b = [0, 1, 2, 3].map((i) => numberOf(bbox?.lookup(i)) ?? 0);
  const mArr = stream.dict.lookupMaybe(PDF.Matrix, PDFArray);
  const m = mArr
    ? ([0, 1, 2, 3, 4, 5].map((i) => numberOf(mArr.lookup(i)) ?? 0) as Matrix)
    : ([1, 0, 0, 1, 0, 0] as Matrix);
  const corners = [
    [b[0], b[1]],
    [b[2], b[1]],
    [b[0], b[3]],
    [b[2], b[3]],
  ].map(([x, y]) => [m[0] * x + m[2] * y + m[4], m[1] * x + m[3] * y + m[5]]);
  const bx1 = Math.min(...corners.map((c) => c[0]));
  const bx2 = Math.max(...corners.map((c) => c[0]));
  const by1 = Math.min(...corners.map((c) => c[1]));
  const by2 = Math.max(...corners.map((c) => c[1]));
  if (bx2 - bx1 <= 0 || by2 - by1 <= 0) return undefined;
  const sx = (rect[2] - rect[0]) / (bx2 - bx1);
  const sy = (rect[3] - rect[1]) / (by2 - by1);
  return [sx, 0, 0, sy, rect[0] - sx * bx1, rect[1] - sy * by1];
}

/** Drops the AcroForm and the field objects, so the output does not carry dead form data. */
function removeForm(doc: PDFDocument, fields: FieldNode[]): void {
  const acroForm = acroFormOf(doc);
  const doomed = new Set<PDFRef>();
  const collect = (obj: unknown, depth: number): void => {
    if (!(obj instanceof PDFRef) || doomed.has(obj) || depth > 64) return;
    const dict = doc.context.lookupMaybe(obj, PDFDict);
    if (!dict) return;
    doomed.add(obj);
    const kids = dict.lookupMaybe(PDF.Kids, PDFArray);
    for (let i = 0; i < (kids?.size() ?? 0); i++) collect(kids!.get(i), depth + 1);
  };
  const roots = acroForm?.lookupMaybe(PDF.Fields, PDFArray);
  for (let i = 0; i < (roots?.size() ?? 0); i++) collect(roots!.get(i), 0);
  for (const f of fields) for (const w of f.widgets) if (w.ref) doomed.add(w.ref);
  const formRef = doc.catalog.get(PDF.AcroForm);
  if (formRef instanceof PDFRef) doomed.add(formRef);
  doc.catalog.delete(PDF.AcroForm);
  for (const ref of doomed) doc.context.delete(ref);
}
