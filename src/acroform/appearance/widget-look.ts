import {
  concatTransformationMatrix,
  drawObject,
  PDFArray,
  PDFDict,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  popGraphicsState,
  pushGraphicsState,
  type PDFDocument,
  type PDFOperator,
  type PDFPage,
} from '@cantoo/pdf-lib';
import { PDF } from '../../pdf/index.js';
import { appearanceRenders, type AppearanceChecks } from './check.js';
import { boxAppearance, type WidgetBox, type WidgetRotation } from './canvas.js';
import { checkboxAppearances, radioAppearances } from './toggle.js';
import { placement } from '../flatten.js';
import {
  acroFormOf,
  canonicalName,
  dictAt,
  FF,
  hiddenWidget,
  inherited,
  nameText,
  numberOf,
  onStatesOf,
  qualifiedName,
  textOf,
} from '../tree.js';

function colourOf(arr: PDFArray | undefined): [number, number, number] | undefined {
  if (!arr || arr.size() === 0) return undefined;
  const n = [0, 1, 2, 3].slice(0, arr.size()).map((i) => numberOf(arr.lookup(i)) ?? 0);
  if (n.length === 1) return [n[0]!, n[0]!, n[0]!];
  if (n.length === 3) return [n[0]!, n[1]!, n[2]!];
  if (n.length === 4) return [(1 - n[0]!) * (1 - n[3]!), (1 - n[1]!) * (1 - n[3]!), (1 - n[2]!) * (1 - n[3]!)];
  return undefined;
}

/** /MK /R, normalised to a quarter turn (anything else counts as 0). */
export function rotationOf(widget: PDFDict): WidgetRotation {
  const r = numberOf(widget.lookupMaybe(PDF.MK, PDFDict)?.lookup(PDF.R));
  const turn = r === undefined ? 0 : ((Math.round(r) % 360) + 360) % 360;
  return turn === 90 || turn === 180 || turn === 270 ? turn : 0;
}

/** The widget's /MK background and border, when it has either. */
export function boxOf(widget: PDFDict): WidgetBox | undefined {
  const mk = widget.lookupMaybe(PDF.MK, PDFDict);
  const background = colourOf(mk?.lookupMaybe(PDF.BG, PDFArray));
  const border = colourOf(mk?.lookupMaybe(PDF.BC, PDFArray));
  if (!background && !border) return undefined;
  const bs = widget.lookupMaybe(PDF.BS, PDFDict);
  const legacy = widget.lookupMaybe(PDF.Border, PDFArray);
  const borderWidth = numberOf(bs?.lookup(PDF.W)) ?? numberOf(legacy?.lookup(2)) ?? 1;
  return { background, border, borderWidth };
}

function rectOf(widget: PDFDict): [number, number, number, number] | undefined {
  const rect = widget.lookupMaybe(PDF.Rect, PDFArray);
  if (!rect) return undefined;
  const [x1, y1, x2, y2] = [0, 1, 2, 3].map((i) => numberOf(rect.lookup(i)) ?? 0) as [number, number, number, number];
  return [Math.min(x1, x2), Math.min(y1, y2), Math.max(x1, x2), Math.max(y1, y2)];
}

/** A widget's own appearance that is there, valid and empty: it draws nothing, and nothing replaces it. */
const EMPTY = 'empty' as const;

/**
 * A stream of the widget's own normal appearance, for `state` (or its only
 * one), when it can draw and is an indirect object (what a page can name).
 * Read only: the widget may belong to a shared parse.
 */
function ownAppearance(
  widget: PDFDict,
  state: PDFName | undefined,
  fonts: () => PDFDict | undefined,
  checks?: AppearanceChecks,
): { stream: PDFStream; ref: PDFRef } | typeof EMPTY | undefined {
  const ap = widget.lookupMaybe(PDF.AP, PDFDict);
  let raw = ap?.get(PDF.N);
  let resolved = widget.context.lookup(raw);
  if (resolved instanceof PDFDict && !(resolved instanceof PDFStream)) {
    if (!state) return undefined;
    // The keys as the parse holds them (a lower-case #xx escape undecoded): matched by their real bytes.
    const states = resolved;
    raw = states.get(state) ?? states.get(states.keys().find((k) => canonicalName(k) === state) ?? state);
    resolved = widget.context.lookup(raw);
  }
  if (!(raw instanceof PDFRef) || !(resolved instanceof PDFStream) || !appearanceRenders(resolved, fonts, checks))
    return undefined;
  // An empty stream (many off states) draws nothing: naming it on the page would only cost bytes.
  if (resolved instanceof PDFRawStream && resolved.getContents().length === 0) return EMPTY;
  return { stream: resolved, ref: raw };
}

/**
 * What a widget draws besides its value, as Acrobat's flatten keeps it: a text
 * or choice field's /MK background and border (comb dividers too), a check
 * box's or radio button's own off appearance (its square, its ring) or, when
 * that cannot draw, the /MK box; a push button's own appearance. Undefined
 * when the widget draws nothing of its own.
 */
function lookOf(
  doc: PDFDocument,
  widget: PDFDict,
  fonts: () => PDFDict | undefined,
  checks?: AppearanceChecks,
): { stream: PDFStream; ref: PDFRef } | undefined {
  const ft = textOf(inherited(widget, PDF.FT));
  const flags = numberOf(inherited(widget, PDF.Ff)) ?? 0;
  const rect = rectOf(widget);
  if (!rect) return undefined;
  const rotation = rotationOf(widget);
  const turned = rotation === 90 || rotation === 270;
  const width = turned ? rect[3] - rect[1] : rect[2] - rect[0];
  const height = turned ? rect[2] - rect[0] : rect[3] - rect[1];
  const box = boxOf(widget);
  const made = (ref: PDFRef) => ({ stream: doc.context.lookup(ref) as PDFStream, ref });
  if (ft === 'Btn' && flags & FF.pushbutton) {
    const own = ownAppearance(widget, undefined, fonts, checks);
    return own === EMPTY ? undefined : own;
  }
  if (ft === 'Btn') {
    const own = ownAppearance(widget, PDF.Off, fonts, checks);
    if (own === EMPTY) return undefined;
    if (own) return own;
    if (!box) return undefined;
    const make = flags & FF.radio ? radioAppearances : checkboxAppearances;
    return made(make(doc, width, height, '#000000', { box, rotation }).off);
  }
  if ((ft === 'Tx' || ft === 'Ch') && box) {
    const maxLen = numberOf(inherited(widget, PDF.MaxLen));
    const comb =
      ft === 'Tx' &&
      flags & FF.comb &&
      maxLen !== undefined &&
      maxLen > 0 &&
      !(flags & (FF.multiline | FF.password | FF.fileSelect))
        ? maxLen
        : undefined;
    return made(boxAppearance(doc, width, height, box, comb, rotation));
  }
  return undefined;
}

/**
 * Flat output of a fillable PDF: draws into `page` (of `doc`) the look of each of its
 * widgets (only read: they may belong to the template's shared parse) that shows (not Hidden, not NoView) — everything but the value,
 * which the caller draws on top. Without this, forms whose boxes exist only as
 * widgets lose them when the widgets are dropped. Check boxes and radio
 * buttons in `on` are drawn in their own on state instead (the form's check
 * mark, its dot), as Acrobat's flatten shows a chosen option; the widgets so
 * drawn are returned, and the caller draws no mark of its own for them.
 */
export function drawWidgetLooks(
  doc: PDFDocument,
  page: PDFPage,
  widgets: PDFDict[],
  on: ReadonlySet<PDFDict> = new Set(),
  checks?: AppearanceChecks,
): Set<PDFDict> {
  // The form's /DR fonts, read only when an appearance is not known yet (reading the AcroForm copies it into an update session).
  let formFonts: { fonts: PDFDict | undefined } | undefined;
  const fonts = (): PDFDict | undefined => {
    if (!formFonts) {
      const dr = dictAt(acroFormOf(doc) ?? doc.context.obj({}), PDF.DR)?.lookup(PDF.Font);
      formFonts = { fonts: dr instanceof PDFDict ? dr : undefined };
    }
    return formFonts.fonts;
  };
  const ops: PDFOperator[] = [];
  const drawnOn = new Set<PDFDict>();
  for (const widget of widgets) {
    if (hiddenWidget(widget)) continue;
    const state = on.has(widget) ? onStatesOf(widget)[0] : undefined;
    const found = state ? ownAppearance(widget, state, fonts, checks) : undefined;
    // An empty on appearance shows no choice: the off look and the caller's own mark stand in for it.
    const own = found === EMPTY ? undefined : found;
    if (own) drawnOn.add(widget);
    const look = own ?? lookOf(doc, widget, fonts, checks);
    const rect = rectOf(widget);
    if (!look || !rect) continue;
    const matrix = placement(look.stream, rect);
    if (!matrix) continue;
    if (!look.stream.dict.has(PDF.Subtype)) {
      // A form XObject must say so; the change goes to the document's own copy of the stream.
      const copy = doc.context.lookup(look.ref);
      if (!(copy instanceof PDFStream)) continue;
      copy.dict.set(PDF.Subtype, PDF.Form);
    }
    const name = page.node.newXObject('WidgetLook', look.ref);
    ops.push(pushGraphicsState(), concatTransformationMatrix(...matrix), drawObject(name), popGraphicsState());
  }
  if (ops.length > 0) page.pushOperators(pushGraphicsState(), ...ops, popGraphicsState());
  return drawnOn;
}

/** The fully qualified name of the field a widget belongs to, and its on-state as text (check boxes, radio buttons). */
export function widgetField(widget: PDFDict): { name: string; onState?: string } {
  const parent = widget.lookup(PDF.Parent);
  const field = widget.has(PDF.T) || !(parent instanceof PDFDict) ? widget : parent;
  const state = onStatesOf(widget)[0];
  return { name: qualifiedName(field), ...(state ? { onState: nameText(state) } : {}) };
}
