/**
 * Reading a fillable PDF's AcroForm for import as a template: one entry per widget with its
 * rect (points from the top-left corner of the page as shown), name, flags, style and radio
 * options. Which field type an entry becomes is not decided here: the caller's `classify`
 * (src/fields' registry) decides, so the writers' floor never imports the field types.
 */
import { PDFDict, type PDFDocument } from '@cantoo/pdf-lib';
import type { TopLeftRect } from '../geometry/index.js';
import { frameOfPage, toDisplay, PDF } from '../pdf/index.js';
import { defaultAppearanceOf } from './da.js';
import {
  arrayAt,
  FF,
  hiddenWidget,
  inherited,
  nameText,
  numberOf,
  readFieldTree,
  textOf,
  type FieldNode,
  type WidgetInfo,
} from './tree.js';

/** What the importer knows of one widget of a fillable PDF's field. */
export interface AcroFieldFacts {
  /** `signature`: an unsigned signature field (/FT /Sig without /V); a signed one is left out. */
  kind: 'text' | 'checkbox' | 'radio' | 'combo' | 'listbox' | 'signature';
  multiline: boolean;
  /** A comb text field (/Ff Comb with a usable /MaxLen, not multiline, password or file select). */
  comb: boolean;
  maxLength?: number;
  /** The field's tooltip (/TU, its name for people), else its first widget's. */
  tooltip?: string;
}

/** A field type's answer for one widget: its type and type-specific properties; undefined leaves the widget out. */
export type AcroClassifier<T extends string, P extends object> = (
  facts: AcroFieldFacts,
) => { type: T; props: P } | undefined;

/** The style a widget's /DA gives (only what differs from a template's defaults). */
export interface ImportedStyle {
  fontSize?: number;
  textColor?: string;
  alignment?: 'center' | 'right';
}

/** One template field's worth of a form: the classifier's type and properties over what the form says. */
export type ImportedFormField<T extends string, P extends object> = {
  id: string;
  type: T;
  pageNum: number;
  rect: TopLeftRect;
  alias: string;
  acroFieldName: string;
  readOnly?: boolean;
  options?: Array<{ id: string; rect: TopLeftRect; exportValue: string }>;
  rotation?: 0 | 90 | 180 | 270;
  style?: ImportedStyle;
  maxLength?: number;
} & P;

const FONT_SIZE_MIN = 5;
const FONT_SIZE_MAX = 30;

/**
 * The fields of an already loaded document, one per widget (a field shown on two pages gives
 * two entries sharing the alias, so one value fills both), alias = the fully qualified field
 * name. Push buttons, signed signature fields, widgets on no page and what `classify` declines
 * are left out.
 */
export function formFieldsOf<T extends string, P extends object>(
  doc: PDFDocument,
  classify: AcroClassifier<T, P>,
): Array<ImportedFormField<T, P>> {
  const pages = doc.getPages().map(frameOfPage);
  const rotations = doc.getPages().map((p) => p.getRotation().angle);
  const out: Array<ImportedFormField<T, P>> = [];
  const ids = new Set<string>();
  const uniqueId = (base: string): string => {
    let id = base;
    for (let n = 2; ids.has(id); n++) id = `${base}#${n}`;
    ids.add(id);
    return id;
  };
  const toTopLeft = (w: WidgetInfo) => {
    const frame = pages[w.pageIndex]!;
    const [x1, y1, x2, y2] = w.rect;
    const a = toDisplay(frame, x1, y1);
    const b = toDisplay(frame, x2, y2);
    const left = Math.min(a[0], b[0]);
    const top = Math.max(a[1], b[1]);
    return {
      x: left,
      y: frame.height - top,
      width: Math.max(Math.abs(b[0] - a[0]), 0.01),
      height: Math.max(Math.abs(b[1] - a[1]), 0.01),
    };
  };

  for (const node of readFieldTree(doc)) {
    if (!node.name) continue;
    // Hidden and NoView widgets (/F bits 2 and 6) show nothing in a viewer: a flat fill must not draw their values either.
    const widgets = node.widgets.filter((w) => w.pageIndex >= 0 && !hiddenWidget(w.dict));
    if (widgets.length === 0) continue;
    const base = {
      alias: node.name,
      acroFieldName: node.name,
      ...(node.flags & FF.readOnly ? { readOnly: true } : {}),
    };
    /** One widget's template field: the classifier's type and properties over what the form says. */
    const entry = (w: WidgetInfo, imported: { type: T; props: P }): ImportedFormField<T, P> => ({
      id: uniqueId(node.name),
      type: imported.type,
      pageNum: w.pageIndex,
      rect: toTopLeft(w),
      ...base,
      ...imported.props,
    });
    switch (node.kind) {
      case 'radio': {
        const imported = classify({ kind: 'radio', multiline: false, comb: false, ...tooltipOf(node, widgets) });
        if (!imported) break;
        // Radio groups split across pages are rare; one template field per page keeps each on its own page.
        const byPage = groupBy(widgets, (w) => w.pageIndex);
        const exportValues = optValues(node);
        for (const [pageNum, ws] of byPage) {
          const optionIds = new Set<string>();
          const options = ws.map((w) => {
            const state = w.onStates[0] ? nameText(w.onStates[0]) : String(node.widgets.indexOf(w));
            const exportValue = exportValues?.[node.widgets.indexOf(w)] ?? state;
            let id = exportValue;
            for (let n = 2; optionIds.has(id); n++) id = `${exportValue}#${n}`;
            optionIds.add(id);
            return { id, rect: toTopLeft(w), exportValue: state };
          });
          const rect = boundingRect(options.map((o) => o.rect));
          out.push({
            id: uniqueId(node.name),
            type: imported.type,
            pageNum,
            rect,
            options,
            ...base,
            ...imported.props,
          });
        }
        break;
      }
      case 'checkbox':
      case 'text':
      case 'combo':
      case 'listbox':
      case 'signature': {
        // A signed field is a finished signature, not a box to sign: only empty ones are imported.
        if (node.kind === 'signature' && node.dict.lookup(PDF.V) instanceof PDFDict) break;
        // A template's lengths are positive integers: any other /MaxLen is ignored.
        const rawMaxLen = node.kind === 'text' ? numberOf(inherited(node.dict, PDF.MaxLen)) : undefined;
        const maxLen =
          rawMaxLen !== undefined && Number.isSafeInteger(rawMaxLen) && rawMaxLen > 0 ? rawMaxLen : undefined;
        const facts: AcroFieldFacts = {
          kind: node.kind,
          multiline: (node.flags & FF.multiline) !== 0,
          comb:
            (node.flags & FF.comb) !== 0 &&
            maxLen !== undefined &&
            (node.flags & (FF.multiline | FF.password | FF.fileSelect)) === 0,
          ...(maxLen !== undefined ? { maxLength: maxLen } : {}),
          ...tooltipOf(node, widgets),
        };
        // Which type the field becomes is the field types' decision (src/fields, import order).
        const imported = classify(facts);
        if (!imported) break;
        for (const w of widgets) {
          const field = entry(w, imported);
          const rotation = shownRotation(w.dict, rotations[w.pageIndex] ?? 0);
          if (rotation !== 0) field.rotation = rotation;
          if (node.kind !== 'checkbox' && node.kind !== 'signature') {
            const style = styleOf(doc, node, w);
            if (style) field.style = style;
          }
          if (maxLen !== undefined) field.maxLength = maxLen;
          out.push(field);
        }
        break;
      }
      default:
        break;
    }
  }
  return out;
}

function styleOf(doc: PDFDocument, node: FieldNode, w: WidgetInfo): ImportedStyle | undefined {
  const da = defaultAppearanceOf(doc, node.dict, w.dict);
  const style: ImportedStyle = {};
  if (da.fontSize !== undefined && da.fontSize > 0) {
    style.fontSize = Math.min(FONT_SIZE_MAX, Math.max(FONT_SIZE_MIN, Math.round(da.fontSize)));
  }
  if (da.color) style.textColor = da.color;
  if (da.alignment && da.alignment !== 'left') style.alignment = da.alignment;
  return Object.keys(style).length > 0 ? style : undefined;
}

function tooltipOf(node: FieldNode, widgets: WidgetInfo[]): { tooltip?: string } {
  for (const dict of [node.dict, ...widgets.map((w) => w.dict)]) {
    const text = textOf(dict.lookup(PDF.TU))?.trim();
    if (text) return { tooltip: text };
  }
  return {};
}

/** /Opt of a radio or check box field: export values by widget index (used when state names are not readable, e.g. non-Latin). */
function optValues(node: FieldNode): string[] | undefined {
  const opt = arrayAt(node.dict, PDF.Opt);
  if (!opt) return undefined;
  const out: string[] = [];
  for (let i = 0; i < opt.size(); i++) out.push(textOf(opt.lookup(i)) ?? '');
  return out;
}

function groupBy<T, K>(items: T[], key: (t: T) => K): Map<K, T[]> {
  const m = new Map<K, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}

function boundingRect(rects: Array<{ x: number; y: number; width: number; height: number }>) {
  const x1 = Math.min(...rects.map((r) => r.x));
  const y1 = Math.min(...rects.map((r) => r.y));
  const x2 = Math.max(...rects.map((r) => r.x + r.width));
  const y2 = Math.max(...rects.map((r) => r.y + r.height));
  return { x: x1, y: y1, width: x2 - x1, height: y2 - y1 };
}

/** How far a widget's content is turned on the page as shown: its /MK /R less the page's /Rotate. */
function shownRotation(widget: PDFDict, pageRotate: number): 0 | 90 | 180 | 270 {
  const mk = widget.lookup(PDF.MK);
  const r = mk instanceof PDFDict ? (numberOf(mk.lookup(PDF.R)) ?? 0) : 0;
  const turn = (((Math.round((r - pageRotate) / 90) * 90) % 360) + 360) % 360;
  return turn as 0 | 90 | 180 | 270;
}
