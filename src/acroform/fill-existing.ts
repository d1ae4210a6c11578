import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFStream, type PDFDocument } from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import type { TextSetter } from '../text/index.js';
import { textAppearance, type FieldTextStyle, type LayoutMemo, type ListBoxOptions } from './appearance/appearance.js';
import { checkboxAppearances, radioAppearances } from './appearance/toggle.js';
import { defaultAppearanceOf } from './da.js';
import { flattenForm } from './flatten.js';
import { appearanceRenders, type AppearanceChecks } from './appearance/check.js';
import { boxOf, rotationOf } from './appearance/widget-look.js';
import {
  acroFormOf,
  canonicalName,
  dictAt,
  FF,
  inherited,
  nameText,
  numberOf,
  readFieldTree,
  textOf,
  type FieldNode,
  type WidgetInfo,
} from './tree.js';

export interface ExistingFieldValue {
  /** Fully qualified name of the PDF's own field (`TemplateField.acroFieldName`). */
  acroFieldName: string;
  /**
   * Text fields and choices: the text. Check boxes: a boolean (a string is read
   * as checked unless it is '', 'false', 'off' or '0'). Radio groups: the
   * state name or /Opt export value of the option to select ('' selects none).
   */
  value: string | boolean;
  /** Overrides what the field's /DA says; the family defaults to `Noto Sans`. */
  style?: Partial<FieldTextStyle>;
  /** Sets or clears the field's read-only flag; unchanged when absent. */
  readOnly?: boolean;
}

export interface FillExistingOptions {
  /** Draw the filled fields into the pages and remove the form. */
  flatten: boolean;
  /** Family used where neither the value nor the caller gives one. Default `Noto Sans`. */
  defaultFontFamily?: string;
  /** Laid-out lines kept across documents (see TextAppearanceInput.layouts). */
  layouts?: LayoutMemo;
  /** Answers about the form's own appearances kept across fills of one template (AppearanceChecks). */
  checks?: AppearanceChecks;
}

/**
 * Fills a PDF's own fields in place and redraws their appearances with our
 * fonts. Fields left untouched but without an appearance get one too, so no
 * later save (pdf-lib regenerates missing appearances in Helvetica/WinAnsi)
 * can fail on their values. With `flatten`, the form is then burnt into the
 * pages.
 */
export function fillExistingFields(
  doc: PDFDocument,
  values: ExistingFieldValue[],
  text: TextSetter,
  options: FillExistingOptions,
): void {
  const fields = readFieldTree(doc);
  const byName = new Map<string, FieldNode>();
  for (const f of fields) if (!byName.has(f.name)) byName.set(f.name, f);
  const family = options.defaultFontFamily ?? 'Noto Sans';
  const done = new Set<FieldNode>();
  for (const v of values) {
    const node = byName.get(v.acroFieldName);
    if (!node) continue;
    setValue(doc, node, v, text, family, options.layouts, options.checks);
    if (v.readOnly !== undefined) setFlag(node.dict, FF.readOnly, v.readOnly);
    done.add(node);
  }
  for (const node of fields) {
    if (done.has(node)) continue;
    // A check box or radio button shown through an appearance that cannot draw gets ours, in its current state.
    if (node.kind === 'checkbox' || node.kind === 'radio') {
      for (const w of node.widgets)
        if (!toggleDraws(doc, w, options.checks))
          ensureToggleAppearance(doc, w, onStateOf(w), node.kind, node.pickOne, options.checks);
      continue;
    }
    if (!needsAppearance(node)) continue;
    const current = currentValue(node);
    if (current !== undefined)
      setValue(doc, node, { acroFieldName: node.name, value: current }, text, family, options.layouts);
  }
  // Every widget now carries the appearance we want shown; viewers must not redraw them with the /DA font.
  acroFormOf(doc)?.delete(PDF.NeedAppearances);
  if (options.flatten) flattenForm(doc, fields);
}

function setFlag(dict: PDFDict, bit: number, on: boolean): void {
  const flags = numberOf(inherited(dict, PDF.Ff)) ?? 0;
  dict.set(PDF.Ff, PDFNumber.of(on ? flags | bit : flags & ~bit));
}

function truthy(value: string | boolean): boolean {
  if (typeof value === 'boolean') return value;
  return !['', 'false', 'off', '0', 'no'].includes(value.trim().toLowerCase());
}

function setValue(
  doc: PDFDocument,
  node: FieldNode,
  v: ExistingFieldValue,
  text: TextSetter,
  family: string,
  layouts?: LayoutMemo,
  checks?: AppearanceChecks,
): void {
  switch (node.kind) {
    case 'text':
    case 'combo':
    case 'listbox':
      return setText(
        doc,
        node,
        String(v.value === true ? 'Yes' : v.value === false ? '' : v.value),
        v.style,
        text,
        family,
        layouts,
      );
    case 'checkbox':
      return setCheckbox(doc, node, truthy(v.value), checks);
    case 'radio':
      return setRadio(doc, node, typeof v.value === 'string' ? v.value : '', checks);
    default:
      return;
  }
}

function setText(
  doc: PDFDocument,
  node: FieldNode,
  value: string,
  style: Partial<FieldTextStyle> | undefined,
  text: TextSetter,
  family: string,
  layouts?: LayoutMemo,
): void {
  const maxLen = numberOf(inherited(node.dict, PDF.MaxLen));
  const clipped = maxLen !== undefined && maxLen > 0 ? Array.from(value).slice(0, maxLen).join('') : value;
  node.dict.set(PDF.V, PDFHexString.fromText(clipped));
  // A rich-text value would win over /V in viewers that read it; ours is plain.
  node.dict.delete(PDF.RV);
  // /I (selected indices) would override the new value in viewers: a list box gets the new value's index.
  // A value that is none of its options (templates let any text through) is shown as text instead.
  const options = node.kind === 'listbox' ? listOptions(node.dict, clipped) : undefined;
  const list = options && (options.selected.size > 0 || clipped === '') ? options : undefined;
  if (node.kind === 'combo' || (options && !list?.selected.size)) node.dict.delete(PDF.I);
  if (list && list.selected.size > 0) node.dict.set(PDF.I, doc.context.obj([...list.selected].sort((a, b) => a - b)));
  const comb =
    node.kind === 'text' &&
    (node.flags & FF.comb) !== 0 &&
    maxLen !== undefined &&
    maxLen > 0 &&
    (node.flags & (FF.multiline | FF.password | FF.fileSelect)) === 0
      ? maxLen
      : undefined;
  const multiline = node.kind === 'text' && (node.flags & FF.multiline) !== 0;
  const shown = node.kind === 'text' && node.flags & FF.password ? '•'.repeat(Array.from(clipped).length) : clipped;
  for (const w of node.widgets) {
    const da = defaultAppearanceOf(doc, node.dict, w.dict);
    const full: FieldTextStyle = {
      fontFamily: style?.fontFamily ?? family,
      fontWeight: style?.fontWeight ?? 'normal',
      fontSize: style?.fontSize ?? da.fontSize ?? 0,
      textColor: style?.textColor ?? da.color ?? '#000000',
      alignment: style?.alignment ?? da.alignment ?? 'left',
      ...(style?.verticalAlignment ? { verticalAlignment: style.verticalAlignment } : {}),
    };
    const [x1, y1, x2, y2] = w.rect;
    const rotation = rotationOf(w.dict);
    const turned = rotation === 90 || rotation === 270;
    const ref = textAppearance(doc, text, {
      width: turned ? y2 - y1 : x2 - x1,
      height: turned ? x2 - x1 : y2 - y1,
      rotation,
      value: shown,
      style: full,
      multiline,
      comb,
      ...(list ? { list } : {}),
      ...(layouts ? { layouts } : {}),
      box: boxOf(w.dict),
    });
    w.dict.set(PDF.AP, doc.context.obj({ N: ref }));
  }
}

/** A list box's options as shown (the display text of [export, display] pairs), the value's row, /TI. */
function listOptions(field: PDFDict, value: string): ListBoxOptions {
  const opt = inherited(field, PDF.Opt);
  const entries = opt instanceof PDFArray ? opt.asArray() : [];
  const options: string[] = [];
  const selected = new Set<number>();
  entries.forEach((entry, i) => {
    const item = field.context.lookup(entry);
    const pair = item instanceof PDFArray ? [textOf(item.lookup(0)) ?? '', textOf(item.lookup(1)) ?? ''] : undefined;
    const exported = pair ? pair[0] : (textOf(item) ?? '');
    const shown = pair ? pair[1] : exported;
    options.push(shown);
    if (value !== '' && (value === exported || value === shown)) selected.add(i);
  });
  return { options, selected, topIndex: numberOf(field.lookup(PDF.TI)) ?? 0 };
}

function onStateOf(w: WidgetInfo): PDFName {
  return w.onStates[0] ?? PDF.Yes;
}

function setCheckbox(doc: PDFDocument, node: FieldNode, checked: boolean, checks?: AppearanceChecks): void {
  let value = PDF.Off;
  for (const w of node.widgets) {
    const on = onStateOf(w);
    dropWidgetValue(node, w);
    ensureToggleAppearance(doc, w, on, 'checkbox', false, checks);
    w.dict.set(PDF.AS, checked ? on : PDF.Off);
    if (checked && value === PDF.Off) value = on;
  }
  node.dict.set(PDF.V, value);
}

/**
 * Radio groups and pick-one check boxes: `wanted` names one option by its
 * state name, its /Opt export value or its readable label (the widget's /TU);
 * every widget with that state goes on, the others off.
 */
function setRadio(doc: PDFDocument, node: FieldNode, wanted: string, checks?: AppearanceChecks): void {
  const opt = inherited(node.dict, PDF.Opt);
  const exportOf = (i: number): string | undefined => (opt instanceof PDFArray ? textOf(opt.lookup(i)) : undefined);
  let chosen: PDFName | undefined;
  if (wanted !== '') {
    const byState = node.widgets.find((w) => nameText(onStateOf(w)) === wanted);
    const byExport = node.widgets.find((_, i) => exportOf(i) === wanted);
    const byLabel = node.widgets.find((w) => textOf(w.dict.lookup(PDF.TU)) === wanted);
    const match = byState ?? byExport ?? byLabel;
    chosen = match ? onStateOf(match) : undefined;
  }
  for (const w of node.widgets) {
    const on = onStateOf(w);
    dropWidgetValue(node, w);
    ensureToggleAppearance(doc, w, on, 'radio', node.pickOne, checks);
    w.dict.set(PDF.AS, chosen !== undefined && on === chosen ? on : PDF.Off);
  }
  node.dict.set(PDF.V, chosen ?? PDF.Off);
}

/** A /V on a widget kid (the 2010 1040's filing-status boxes carry /V /Off) would shadow the field's value in readers that look there first. */
function dropWidgetValue(node: FieldNode, w: WidgetInfo): void {
  if (w.dict !== node.dict) w.dict.delete(PDF.V);
}

/**
 * State keys of /AP /N and /D written with the name's real bytes (canonicalName),
 * so the /AS and /V we write match them byte for byte in every reader.
 */
function canonicalStates(w: WidgetInfo): void {
  const as = w.dict.get(PDF.AS);
  if (as instanceof PDFName && canonicalName(as) !== as) w.dict.set(PDF.AS, canonicalName(as));
  const ap = w.dict.lookupMaybe(PDF.AP, PDFDict);
  for (const key of [PDF.N, PDF.D]) {
    const states = ap?.lookup(key);
    if (!(states instanceof PDFDict) || states instanceof PDFStream) continue;
    for (const k of states.keys()) {
      const c = canonicalName(k);
      if (c === k) continue;
      const value = states.get(k);
      states.delete(k);
      if (value !== undefined) states.set(c, value);
    }
  }
}

/** The form's own on and off appearances exist and can both draw (appearanceRenders). */
function toggleDraws(doc: PDFDocument, w: WidgetInfo, checks?: AppearanceChecks): boolean {
  const normal = w.dict.lookupMaybe(PDF.AP, PDFDict)?.lookup(PDF.N);
  if (!(normal instanceof PDFDict) || normal instanceof PDFStream) return false;
  const formFonts = dictAt(acroFormOf(doc) ?? doc.context.obj({}), PDF.DR)?.lookup(PDF.Font);
  const fonts = formFonts instanceof PDFDict ? formFonts : undefined;
  for (const k of normal.keys()) {
    const stream = normal.lookup(k);
    if (stream instanceof PDFStream && !appearanceRenders(stream, fonts, checks)) return false;
  }
  return true;
}

/** Original on/off appearances are kept when they can draw (they need no text); other widgets get ours. */
function ensureToggleAppearance(
  doc: PDFDocument,
  w: WidgetInfo,
  on: PDFName,
  kind: 'checkbox' | 'radio',
  pickOneBox = false,
  checks?: AppearanceChecks,
): void {
  canonicalStates(w);
  const ap = w.dict.lookupMaybe(PDF.AP, PDFDict);
  const normal = ap?.lookup(PDF.N);
  if (normal instanceof PDFDict && !(normal instanceof PDFStream) && normal.has(on) && toggleDraws(doc, w, checks))
    return;
  const [x1, y1, x2, y2] = w.rect;
  const make = kind === 'radio' && !pickOneBox ? radioAppearances : checkboxAppearances;
  const rotation = rotationOf(w.dict);
  const turned = rotation === 90 || rotation === 270;
  const apps = make(doc, turned ? y2 - y1 : x2 - x1, turned ? x2 - x1 : y2 - y1, '#000000', {
    box: boxOf(w.dict),
    rotation,
  });
  const states = doc.context.obj({ Off: apps.off });
  states.set(on, apps.on);
  w.dict.set(PDF.AP, doc.context.obj({ N: states }));
}

/** Text and choice fields whose widgets lack a normal appearance stream. */
function needsAppearance(node: FieldNode): boolean {
  if (node.kind !== 'text' && node.kind !== 'combo' && node.kind !== 'listbox') return false;
  return node.widgets.some((w) => !(w.dict.lookupMaybe(PDF.AP, PDFDict)?.lookup(PDF.N) instanceof PDFStream));
}

function currentValue(node: FieldNode): string | undefined {
  const v = inherited(node.dict, PDF.V);
  if (v instanceof PDFArray) return textOf(v.lookup(0)) ?? '';
  return textOf(v) ?? '';
}
