import { PDFArray, PDFDict, PDFHexString, PDFName, PDFNumber, PDFString, type PDFDocument, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';
import type { PdfRect } from '../geometry/index.js';
import type { TextSetter } from '../text/index.js';
import { checkboxAppearances, hexToRgb, type CheckMarkPainter, type LayoutMemo, radioAppearances, textAppearance, type FieldTextStyle, type WidgetBox, type WidgetRotation } from './appearance.js';
import { acroFormOf, FF, readFieldTree, textName } from './tree.js';


/** One interactive field to add (the fill engine makes one per template field or subfield). */
export interface InteractiveFieldSpec {
  /** Field name; dots make a hierarchy (`a.b` is field `b` under `a`) unless the document's own form uses `a`. Specs sharing a name and kind become one field with several widgets. */
  name: string;
  /** `image`: a push button showing nothing of its own (an image field: the picture, if any, is page content under it). */
  kind: 'text' | 'comb' | 'checkbox' | 'radio' | 'combo' | 'list' | 'image';
  pageIndex: number;
  /** Text, comb, checkbox: the widget. Radio: the group's box (each option has its own rect). */
  rect: PdfRect;
  /** Text/comb: the text ('' = empty field). Checkbox: checked. Radio: the exportValue to select ('' = none). Combo/list: the export value chosen ('' = none; a combo shows any other text as typed). */
  value: string | boolean;
  /** Radio options, one widget each. */
  options?: Array<{ exportValue: string; rect: PdfRect }>;
  /** Combo/list: the choices in order; `label` is what is shown (default the export value). */
  choices?: Array<{ exportValue: string; label?: string }>;
  /** Text: shown as bullets, never stored in clear by viewers (/Ff Password). */
  password?: boolean;
  /** /Ff Required: viewers refuse to submit the form without a value. */
  required?: boolean;
  multiline?: boolean;
  /** Comb: number of cells (required). Text: maximum length. */
  maxLength?: number;
  style: FieldTextStyle;
  readOnly?: boolean;
  /** Checkbox: draws the checked mark (e.g. the request's checkbox character); default a drawn check mark. */
  checkMark?: CheckMarkPainter;
  /** Checkbox: the on state's name, which viewers report as the value when checked (default `Yes`). */
  onState?: string;
  /** List: several choices may be selected (/Ff MultiSelect); `selected` then holds them. */
  multiSelect?: boolean;
  /** List with `multiSelect`: the export values chosen (instead of `value`). */
  selected?: string[];
  /**
   * The widget's own border and background (/MK /BC, /MK /BG, /BS /W), drawn into its appearances.
   * `round` draws them as the ellipse inside the Rect (radio buttons). Absent: no border, no background.
   */
  box?: WidgetBox;
  /**
   * How far the content is turned counterclockwise in the page's user space (/MK /R): a page
   * shown turned by /Rotate needs the same turn for its text to read upright.
   */
  rotation?: WidgetRotation;
}

const PRINT = 4;

/**
 * Adds real AcroForm fields, prefilled, whose appearances are drawn with the
 * text layer's embedded fonts. Editing uses /DA = Helvetica from /DR (see
 * README.md: the embedded fonts are subsets, useless for typing new text).
 */
export function addInteractiveFields(doc: PDFDocument, specs: InteractiveFieldSpec[], text: TextSetter, target?: FormTarget, layouts?: LayoutMemo): void {
  if (specs.length === 0) return;
  const context = doc.context;
  const acroForm = target ? completeAcroForm(doc, target.acroForm) : ensureAcroForm(doc);
  const fieldsArr = acroForm.lookup(PDFName.of('Fields'), PDFArray);
  const pages = target ? target.pages : doc.getPages();
  const taken = new Set(!target || target.ownForm ? readFieldTree(doc).map((f) => f.name) : []);
  const created = new Map<string, { kind: InteractiveFieldSpec['kind']; dict: PDFDict; ref: PDFRef }>();

  const uniqueName = (wanted: string): string => {
    let name = wanted;
    for (let n = 2; taken.has(name); n++) name = `${wanted}_${n}`;
    taken.add(name);
    return name;
  };

  // Dotted names become a field hierarchy (`applicant.name` is field `name` under `applicant`),
  // unless the document's own form already uses the first part; then dots become '_'.
  const ownNames = [...taken];
  const groups = new Map<string, { dict: PDFDict; ref: PDFRef }>();
  const hierarchyFree = (first: string): boolean => !ownNames.some((n) => n === first || n.startsWith(`${first}.`));
  /** The non-terminal field for `path` (created on first use), or undefined when a terminal field holds that name. */
  const group = (path: string[]): { dict: PDFDict; ref: PDFRef } | undefined => {
    const full = path.join('.');
    const known = groups.get(full);
    if (known) return known;
    if (taken.has(full)) return undefined;
    const parent = path.length > 1 ? group(path.slice(0, -1)) : undefined;
    if (path.length > 1 && !parent) return undefined;
    const dict = context.obj({ T: PDFHexString.fromText(path[path.length - 1]!), Kids: [] });
    const ref = context.register(dict);
    if (parent) {
      dict.set(PDFName.of('Parent'), parent.ref);
      kidsOf(parent.dict).push(ref);
    } else fieldsArr.push(ref);
    const made = { dict, ref };
    groups.set(full, made);
    // A terminal field of the same name would clash with the group.
    taken.add(full);
    return made;
  };
  /** Where a new terminal field goes: its full name, its /T and its parent (none: the form's Fields). */
  const place = (wanted: string): { full: string; partial: string; parent?: { dict: PDFDict; ref: PDFRef } } => {
    const parts = wanted.split('.').filter((p) => p !== '');
    if (parts.length > 1 && hierarchyFree(parts[0]!)) {
      const parent = group(parts.slice(0, -1));
      const prefix = parts.slice(0, -1).join('.');
      if (parent) {
        const full = uniqueName(`${prefix}.${parts[parts.length - 1]}`);
        if (!groups.has(full)) return { full, partial: full.slice(prefix.length + 1), parent };
      }
    }
    const full = uniqueName(wanted.replace(/\./g, '_') || 'field');
    return { full, partial: full };
  };

  // Radio groups: the states used so far, and the groups that need RadiosInUnison.
  const radioStates = new Map<PDFRef, Set<string>>();
  const unison = new Set<PDFRef>();

  const addWidget = (pageIndex: number, widget: PDFDict): PDFRef => {
    const page = pages[pageIndex]!;
    widget.set(PDFName.of('P'), page.ref);
    const ref = context.register(widget);
    page.node.addAnnot(ref);
    return ref;
  };

  /** A radio group's option widgets on one page, as kids of `fieldRef`; the state chosen by the value, if any. */
  const addOptions = (spec: InteractiveFieldSpec, fieldRef: PDFRef, kids: PDFArray): string | undefined => {
    let selected: string | undefined;
    const states = radioStates.get(fieldRef) ?? new Set<string>();
    radioStates.set(fieldRef, states);
    (spec.options ?? []).forEach((opt, i) => {
      // The export value is the state name itself (a PDF name may hold any UTF-8), so viewers report it as the value.
      const state = opt.exportValue || String(i);
      // The same value on several buttons (a control repeated on every page): they turn on and off together.
      if (states.has(state)) unison.add(fieldRef);
      states.add(state);
      const apps = radioAppearances(doc, opt.rect.width, opt.rect.height, spec.style.textColor, spec.box ? { box: spec.box } : {});
      const on = spec.value !== '' && spec.value === opt.exportValue;
      if (on) selected = state;
      const stateName = textName(state);
      const normal = context.obj({ Off: apps.off });
      normal.set(stateName, apps.on);
      const widget = context.obj({ Type: 'Annot', Subtype: 'Widget', F: PRINT, Rect: rectArray(opt.rect), Parent: fieldRef, MK: mkOf(spec.box, 0) });
      if (spec.box) widget.set(PDFName.of('BS'), bsOf(doc, spec.box));
      widget.set(PDFName.of('AP'), context.obj({ N: normal }));
      widget.set(PDFName.of('AS'), on ? stateName : PDFName.of('Off'));
      kids.push(addWidget(spec.pageIndex, widget));
    });
    return selected;
  };

  for (const spec of specs) {
    if (!pages[spec.pageIndex]) continue;
    const existing = created.get(spec.name) ?? created.get(spec.name.replace(/\./g, '_') || 'field');
    if (existing && existing.kind === spec.kind) {
      // Same name again (a value shown on several pages, an alias shared): one field, more widgets
      // showing the same value; a radio group gets the options of this page as more kids.
      if (spec.kind === 'radio') {
        const selected = addOptions(spec, existing.ref, kidsOf(existing.dict));
        if (selected !== undefined && existing.dict.get(PDFName.of('V')) === PDFName.of('Off')) existing.dict.set(PDFName.of('V'), textName(selected));
        continue;
      }
      const widget = widgetFor(doc, spec, text, layouts);
      // A check box checked on a later widget: the field's value is that widget's on state.
      const shown = widget.get(PDFName.of('AS'));
      if (spec.kind === 'checkbox' && shown instanceof PDFName && shown !== PDFName.of('Off') && existing.dict.get(PDFName.of('V')) === PDFName.of('Off')) existing.dict.set(PDFName.of('V'), shown);
      widget.set(PDFName.of('Parent'), existing.ref);
      const ref = addWidget(spec.pageIndex, widget);
      kidsOf(existing.dict).push(ref);
      continue;
    }
    const where = place(spec.name);
    const field = fieldDict(doc, spec, where.partial);
    const fieldRef = context.register(field);
    created.set(where.full, { kind: spec.kind, dict: field, ref: fieldRef });
    if (where.parent) {
      field.set(PDFName.of('Parent'), where.parent.ref);
      kidsOf(where.parent.dict).push(fieldRef);
    } else fieldsArr.push(fieldRef);
    const kids = context.obj([]);
    field.set(PDFName.of('Kids'), kids);
    if (spec.kind === 'radio') {
      const selected = addOptions(spec, fieldRef, kids);
      field.set(PDFName.of('V'), selected !== undefined ? textName(selected) : PDFName.of('Off'));
    } else {
      const widget = widgetFor(doc, spec, text, layouts);
      widget.set(PDFName.of('Parent'), fieldRef);
      kids.push(addWidget(spec.pageIndex, widget));
    }
  }
  for (const ref of unison) {
    const field = context.lookup(ref, PDFDict);
    const ff = field.lookup(PDFName.of('Ff'));
    field.set(PDFName.of('Ff'), PDFNumber.of((ff instanceof PDFNumber ? ff.asNumber() : 0) | FF.radiosInUnison));
  }
}

/** /MK of a widget: its turn and, when it has a box, its background and border colours. */
function mkOf(box: WidgetBox | undefined, rotation: WidgetRotation): Record<string, number | number[]> {
  const mk: Record<string, number | number[]> = rotation !== 0 ? { R: rotation } : {};
  if (box?.background) mk.BG = box.background;
  if (box?.border && box.borderWidth > 0) mk.BC = box.border;
  return mk;
}

/** /BS of a widget with a box: solid or underline, its border width (0 when it has none), as the appearance draws it. */
function bsOf(doc: PDFDocument, box: WidgetBox): PDFDict {
  return doc.context.obj({ Type: 'Border', W: box.border ? box.borderWidth : 0, S: box.underline ? 'U' : 'S' });
}

function kidsOf(field: PDFDict): PDFArray {
  return field.lookup(PDFName.of('Kids'), PDFArray);
}

/**
 * Where new fields go when the document is not a whole pdf-lib document (the
 * fill engine's output is an update holding only the pages it writes): the
 * output pages by index and a new AcroForm dictionary the caller puts in the catalog.
 */
export interface FormTarget {
  pages: ReadonlyArray<PDFPage | undefined>;
  acroForm: PDFDict;
  /** `acroForm` is the document's own form: new fields join its tree and take names its fields do not use. */
  ownForm?: boolean;
}

/** The document's AcroForm (made when missing), completed with /Fields, /DR fonts and /DA. */
export function ensureAcroForm(doc: PDFDocument): PDFDict {
  const context = doc.context;
  let acroForm = acroFormOf(doc);
  if (!acroForm) {
    acroForm = context.obj({ Fields: [] });
    doc.catalog.set(PDFName.of('AcroForm'), context.register(acroForm));
  }
  return completeAcroForm(doc, acroForm);
}

/** Fields array, Helvetica and ZapfDingbats in /DR, a default /DA. */
export function completeAcroForm(doc: PDFDocument, acroForm: PDFDict): PDFDict {
  const context = doc.context;
  if (!acroForm.lookupMaybe(PDFName.of('Fields'), PDFArray)) acroForm.set(PDFName.of('Fields'), context.obj([]));
  let dr = acroForm.lookupMaybe(PDFName.of('DR'), PDFDict);
  if (!dr) {
    dr = context.obj({});
    acroForm.set(PDFName.of('DR'), dr);
  }
  let fonts = dr.lookupMaybe(PDFName.of('Font'), PDFDict);
  if (!fonts) {
    fonts = context.obj({});
    dr.set(PDFName.of('Font'), fonts);
  }
  if (!fonts.has(PDFName.of('Helv'))) {
    fonts.set(PDFName.of('Helv'), context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'Helvetica', Encoding: 'WinAnsiEncoding' })));
  }
  if (!fonts.has(PDFName.of('ZaDb'))) {
    fonts.set(PDFName.of('ZaDb'), context.register(context.obj({ Type: 'Font', Subtype: 'Type1', BaseFont: 'ZapfDingbats' })));
  }
  if (!acroForm.has(PDFName.of('DA'))) acroForm.set(PDFName.of('DA'), PDFString.of('/Helv 0 Tf 0 g'));
  return acroForm;
}

function daString(style: FieldTextStyle, font = 'Helv'): string {
  const c = hexToRgb(style.textColor) as { red: number; green: number; blue: number };
  const n = (v: number): string => String(Math.round(v * 1000) / 1000);
  return `/${font} ${n(style.fontSize)} Tf ${n(c.red)} ${n(c.green)} ${n(c.blue)} rg`;
}

function fieldDict(doc: PDFDocument, spec: InteractiveFieldSpec, name: string): PDFDict {
  const context = doc.context;
  const field = context.obj({ T: PDFHexString.fromText(name) });
  let flags = (spec.readOnly ? FF.readOnly : 0) | (spec.required ? FF.required : 0);
  switch (spec.kind) {
    case 'text':
    case 'comb': {
      field.set(PDFName.of('FT'), PDFName.of('Tx'));
      field.set(PDFName.of('V'), PDFHexString.fromText(String(spec.value === true ? 'Yes' : spec.value === false ? '' : spec.value)));
      field.set(PDFName.of('DA'), PDFString.of(daString(spec.style)));
      field.set(PDFName.of('Q'), PDFNumber.of(spec.style.alignment === 'center' ? 1 : spec.style.alignment === 'right' ? 2 : 0));
      if (spec.kind === 'comb') flags |= FF.comb | FF.doNotScroll;
      else if (spec.multiline) flags |= FF.multiline;
      if (spec.kind === 'text' && spec.password) flags |= FF.password;
      const maxLen = spec.maxLength && spec.maxLength > 0 ? spec.maxLength : spec.kind === 'comb' ? Math.max(1, Array.from(String(spec.value)).length) : 0;
      if (maxLen > 0) field.set(PDFName.of('MaxLen'), PDFNumber.of(maxLen));
      break;
    }
    case 'checkbox':
      field.set(PDFName.of('FT'), PDFName.of('Btn'));
      field.set(PDFName.of('V'), spec.value === true || spec.value === 'true' ? textName(spec.onState || 'Yes') : PDFName.of('Off'));
      field.set(PDFName.of('DA'), PDFString.of(daString({ ...spec.style, fontSize: 0 }, 'ZaDb')));
      break;
    case 'image':
      // Acrobat's image field is a push button; it holds no value (the picture is its icon or, here, page content).
      field.set(PDFName.of('FT'), PDFName.of('Btn'));
      flags |= FF.pushbutton;
      break;
    case 'radio':
      field.set(PDFName.of('FT'), PDFName.of('Btn'));
      flags |= FF.radio | FF.noToggleToOff;
      field.set(PDFName.of('DA'), PDFString.of(daString({ ...spec.style, fontSize: 0 }, 'ZaDb')));
      break;
    case 'combo':
    case 'list': {
      field.set(PDFName.of('FT'), PDFName.of('Ch'));
      if (spec.kind === 'combo') flags |= FF.combo;
      const choices = spec.choices ?? [];
      if (spec.kind === 'list' && spec.multiSelect) {
        flags |= FF.multiSelect;
        const rows = choices.flatMap((c, i) => ((spec.selected ?? []).includes(c.exportValue) ? [i] : []));
        const opt = choices.map((c) => (c.label === undefined || c.label === c.exportValue ? PDFHexString.fromText(c.exportValue) : context.obj([PDFHexString.fromText(c.exportValue), PDFHexString.fromText(c.label)])));
        field.set(PDFName.of('Opt'), context.obj(opt));
        // One value is a text string, several an array of them (PDF 32000 §12.7.4.4); /I lists the rows.
        const values = rows.map((i) => PDFHexString.fromText(choices[i]!.exportValue));
        if (values.length === 1) field.set(PDFName.of('V'), values[0]!);
        else if (values.length > 1) field.set(PDFName.of('V'), context.obj(values));
        if (rows.length > 0) field.set(PDFName.of('I'), context.obj(rows));
        field.set(PDFName.of('DA'), PDFString.of(daString(spec.style)));
        break;
      }
      // [export, shown] pairs only where they differ, as the spec allows (PDF 32000 §12.7.4.4).
      const opt = choices.map((c) =>
        c.label === undefined || c.label === c.exportValue ? PDFHexString.fromText(c.exportValue) : context.obj([PDFHexString.fromText(c.exportValue), PDFHexString.fromText(c.label)]),
      );
      field.set(PDFName.of('Opt'), context.obj(opt));
      const value = typeof spec.value === 'string' ? spec.value : '';
      const index = choices.findIndex((c) => c.exportValue === value);
      if (value !== '' && (index >= 0 || spec.kind === 'combo')) field.set(PDFName.of('V'), PDFHexString.fromText(value));
      if (index >= 0) field.set(PDFName.of('I'), context.obj([index]));
      field.set(PDFName.of('DA'), PDFString.of(daString(spec.style)));
      break;
    }
  }
  field.set(PDFName.of('Ff'), PDFNumber.of(flags));
  return field;
}

function widgetFor(doc: PDFDocument, spec: InteractiveFieldSpec, text: TextSetter, layouts?: LayoutMemo): PDFDict {
  const context = doc.context;
  const rotation = spec.rotation ?? 0;
  const turned = rotation === 90 || rotation === 270;
  // The box as its content reads; the appearance's /Matrix turns it onto the Rect.
  const width = turned ? spec.rect.height : spec.rect.width;
  const height = turned ? spec.rect.width : spec.rect.height;
  const mk = mkOf(spec.box, rotation);
  const base = { Type: 'Annot', Subtype: 'Widget', F: PRINT, Rect: rectArray(spec.rect), MK: mk, ...(spec.box ? { BS: bsOf(doc, spec.box) } : {}) };
  const box = spec.box ? { box: spec.box } : {};
  if (spec.kind === 'checkbox') {
    const apps = checkboxAppearances(doc, width, height, spec.style.textColor, { mark: spec.checkMark, rotation, ...box });
    const on = spec.value === true || spec.value === 'true';
    const onState = textName(spec.onState || 'Yes');
    const normal = context.obj({ Off: apps.off });
    normal.set(onState, apps.on);
    const widget = context.obj({ ...base, MK: { ...mk, CA: PDFString.of('4') }, AS: on ? onState : PDFName.of('Off') });
    widget.set(PDFName.of('AP'), context.obj({ N: normal }));
    return widget;
  }
  if (spec.kind === 'image') {
    // An empty appearance: the picture drawn into the page under the button stays visible.
    const ap = context.register(context.formXObject([], { BBox: [0, 0, width, height] }));
    return context.obj({ ...base, MK: { ...mk, TP: 1 }, AP: { N: ap } });
  }
  const value = String(spec.value === true ? 'Yes' : spec.value === false ? '' : spec.value);
  const maxLen = spec.maxLength && spec.maxLength > 0 ? spec.maxLength : undefined;
  const clipped = maxLen ? Array.from(value).slice(0, maxLen).join('') : value;
  const shown = spec.kind === 'text' && spec.password ? '\u2022'.repeat(Array.from(clipped).length) : clipped;
  const choices = spec.choices ?? [];
  const chosen = choices.findIndex((c) => c.exportValue === value);
  const chosenRows = spec.kind === 'list' && spec.multiSelect ? choices.flatMap((c, i) => ((spec.selected ?? []).includes(c.exportValue) ? [i] : [])) : chosen >= 0 ? [chosen] : [];
  const labelOf = (i: number): string => choices[i]!.label ?? choices[i]!.exportValue;
  if (spec.kind === 'combo' || spec.kind === 'list') {
    // A combo shows the chosen choice's label (or the typed text); a list shows its rows, the chosen one highlighted.
    const ap = textAppearance(doc, text, {
      width,
      height,
      value: spec.kind === 'combo' ? (chosen >= 0 ? labelOf(chosen) : value) : '',
      style: spec.style,
      rotation,
      ...(spec.kind === 'list' ? { list: { options: choices.map((_, i) => labelOf(i)), selected: new Set(chosenRows), topIndex: 0 } } : {}),
      ...(layouts ? { layouts } : {}),
      ...box,
    });
    return context.obj({ ...base, AP: { N: ap } });
  }
  const ap = textAppearance(doc, text, {
    width,
    height,
    value: shown,
    style: spec.style,
    multiline: spec.kind === 'text' && spec.multiline === true,
    comb: spec.kind === 'comb' ? maxLen ?? Math.max(1, Array.from(value).length) : undefined,
    rotation,
    ...(layouts ? { layouts } : {}),
    ...box,
  });
  return context.obj({ ...base, AP: { N: ap } });
}

function rectArray(r: PdfRect): number[] {
  return [r.x, r.y, r.x + r.width, r.y + r.height];
}
