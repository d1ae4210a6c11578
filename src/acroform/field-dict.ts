import { PDFDict, PDFHexString, PDFNumber, PDFString, type PDFDocument } from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import type { TextSetter } from '../text/index.js';
import { textAppearance, type FieldTextStyle, type LayoutMemo } from './appearance/appearance.js';
import { hexToRgb, type WidgetBox, type WidgetRotation } from './appearance/canvas.js';
import { checkboxAppearances } from './appearance/toggle.js';
import type { PdfRect } from '../geometry/index.js';
import type { InteractiveFieldSpec } from './field-spec.js';
import { FF, textName } from './tree.js';

/**
 * The dictionaries of one new interactive field (`addInteractiveFields`, create.ts): the field's
 * /FT, /V, /DA, /Opt and flags, and its widget with a prefilled appearance drawn with the text
 * layer's fonts.
 */

/** Annotation flag Print: widgets are printed. */
export const PRINT = 4;

/** /MK of a widget: its turn and, when it has a box, its background and border colours. */
export function mkOf(box: WidgetBox | undefined, rotation: WidgetRotation): Record<string, number | number[]> {
  const mk: Record<string, number | number[]> = rotation !== 0 ? { R: rotation } : {};
  if (box?.background) mk.BG = box.background;
  if (box?.border && box.borderWidth > 0) mk.BC = box.border;
  return mk;
}

/** /BS of a widget with a box: solid or underline, its border width (0 when it has none), as the appearance draws it. */
export function bsOf(doc: PDFDocument, box: WidgetBox): PDFDict {
  return doc.context.obj({ Type: 'Border', W: box.border ? box.borderWidth : 0, S: box.underline ? 'U' : 'S' });
}

function daString(style: FieldTextStyle, font = 'Helv'): string {
  const c = hexToRgb(style.textColor) as { red: number; green: number; blue: number };
  const n = (v: number): string => String(Math.round(v * 1000) / 1000);
  return `/${font} ${n(style.fontSize)} Tf ${n(c.red)} ${n(c.green)} ${n(c.blue)} rg`;
}

export function fieldDict(doc: PDFDocument, spec: InteractiveFieldSpec, name: string): PDFDict {
  const context = doc.context;
  const field = context.obj({ T: PDFHexString.fromText(name) });
  let flags = (spec.readOnly ? FF.readOnly : 0) | (spec.required ? FF.required : 0);
  switch (spec.kind) {
    case 'text':
    case 'comb': {
      field.set(PDF.FT, PDF.Tx);
      field.set(
        PDF.V,
        PDFHexString.fromText(String(spec.value === true ? 'Yes' : spec.value === false ? '' : spec.value)),
      );
      field.set(PDF.DA, PDFString.of(daString(spec.style)));
      field.set(PDF.Q, PDFNumber.of(spec.style.alignment === 'center' ? 1 : spec.style.alignment === 'right' ? 2 : 0));
      if (spec.kind === 'comb') flags |= FF.comb | FF.doNotScroll;
      else if (spec.multiline) flags |= FF.multiline;
      if (spec.kind === 'text' && spec.password) flags |= FF.password;
      const maxLen =
        spec.maxLength && spec.maxLength > 0
          ? spec.maxLength
          : spec.kind === 'comb'
            ? Math.max(1, Array.from(String(spec.value)).length)
            : 0;
      if (maxLen > 0) field.set(PDF.MaxLen, PDFNumber.of(maxLen));
      break;
    }
    case 'checkbox':
      field.set(PDF.FT, PDF.Btn);
      field.set(PDF.V, spec.value === true || spec.value === 'true' ? textName(spec.onState || 'Yes') : PDF.Off);
      field.set(PDF.DA, PDFString.of(daString({ ...spec.style, fontSize: 0 }, 'ZaDb')));
      break;
    case 'image':
      // Acrobat's image field is a push button; it holds no value (the picture is its icon or, here, page content).
      field.set(PDF.FT, PDF.Btn);
      flags |= FF.pushbutton;
      break;
    case 'radio':
      field.set(PDF.FT, PDF.Btn);
      flags |= FF.radio | FF.noToggleToOff;
      field.set(PDF.DA, PDFString.of(daString({ ...spec.style, fontSize: 0 }, 'ZaDb')));
      break;
    case 'combo':
    case 'list': {
      field.set(PDF.FT, PDF.Ch);
      if (spec.kind === 'combo') flags |= FF.combo;
      const choices = spec.choices ?? [];
      if (spec.kind === 'list' && spec.multiSelect) {
        flags |= FF.multiSelect;
        const rows = choices.flatMap((c, i) => ((spec.selected ?? []).includes(c.exportValue) ? [i] : []));
        const opt = choices.map((c) =>
          c.label === undefined || c.label === c.exportValue
            ? PDFHexString.fromText(c.exportValue)
            : context.obj([PDFHexString.fromText(c.exportValue), PDFHexString.fromText(c.label)]),
        );
        field.set(PDF.Opt, context.obj(opt));
        // One value is a text string, several an array of them (PDF 32000 §12.7.4.4); /I lists the rows.
        const values = rows.map((i) => PDFHexString.fromText(choices[i]!.exportValue));
        if (values.length === 1) field.set(PDF.V, values[0]!);
        else if (values.length > 1) field.set(PDF.V, context.obj(values));
        if (rows.length > 0) field.set(PDF.I, context.obj(rows));
        field.set(PDF.DA, PDFString.of(daString(spec.style)));
        break;
      }
      // [export, shown] pairs only where they differ, as the spec allows (PDF 32000 §12.7.4.4).
      const opt = choices.map((c) =>
        c.label === undefined || c.label === c.exportValue
          ? PDFHexString.fromText(c.exportValue)
          : context.obj([PDFHexString.fromText(c.exportValue), PDFHexString.fromText(c.label)]),
      );
      field.set(PDF.Opt, context.obj(opt));
      const value = typeof spec.value === 'string' ? spec.value : '';
      const index = choices.findIndex((c) => c.exportValue === value);
      if (value !== '' && (index >= 0 || spec.kind === 'combo')) field.set(PDF.V, PDFHexString.fromText(value));
      if (index >= 0) field.set(PDF.I, context.obj([index]));
      field.set(PDF.DA, PDFString.of(daString(spec.style)));
      break;
    }
  }
  field.set(PDF.Ff, PDFNumber.of(flags));
  return field;
}

export function widgetFor(
  doc: PDFDocument,
  spec: InteractiveFieldSpec,
  text: TextSetter,
  layouts?: LayoutMemo,
): PDFDict {
  const context = doc.context;
  const rotation = spec.rotation ?? 0;
  const turned = rotation === 90 || rotation === 270;
  // The box as its content reads; the appearance's /Matrix turns it onto the Rect.
  const width = turned ? spec.rect.height : spec.rect.width;
  const height = turned ? spec.rect.width : spec.rect.height;
  const mk = mkOf(spec.box, rotation);
  const base = {
    Type: 'Annot',
    Subtype: 'Widget',
    F: PRINT,
    Rect: rectArray(spec.rect),
    MK: mk,
    ...(spec.box ? { BS: bsOf(doc, spec.box) } : {}),
  };
  const box = spec.box ? { box: spec.box } : {};
  if (spec.kind === 'checkbox') {
    const apps = checkboxAppearances(doc, width, height, spec.style.textColor, {
      mark: spec.checkMark,
      rotation,
      ...box,
    });
    const on = spec.value === true || spec.value === 'true';
    const onState = textName(spec.onState || 'Yes');
    const normal = context.obj({ Off: apps.off });
    normal.set(onState, apps.on);
    const widget = context.obj({ ...base, MK: { ...mk, CA: PDFString.of('4') }, AS: on ? onState : PDF.Off });
    widget.set(PDF.AP, context.obj({ N: normal }));
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
  const chosenRows =
    spec.kind === 'list' && spec.multiSelect
      ? choices.flatMap((c, i) => ((spec.selected ?? []).includes(c.exportValue) ? [i] : []))
      : chosen >= 0
        ? [chosen]
        : [];
  const labelOf = (i: number): string => choices[i]!.label ?? choices[i]!.exportValue;
  if (spec.kind === 'combo' || spec.kind === 'list') {
    // A combo shows the chosen choice's label (or the typed text); a list shows its rows, the chosen one highlighted.
    const ap = textAppearance(doc, text, {
      width,
      height,
      value: spec.kind === 'combo' ? (chosen >= 0 ? labelOf(chosen) : value) : '',
      style: spec.style,
      rotation,
      ...(spec.kind === 'list'
        ? { list: { options: choices.map((_, i) => labelOf(i)), selected: new Set(chosenRows), topIndex: 0 } }
        : {}),
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
    comb: spec.kind === 'comb' ? (maxLen ?? Math.max(1, Array.from(value).length)) : undefined,
    rotation,
    ...(layouts ? { layouts } : {}),
    ...box,
  });
  return context.obj({ ...base, AP: { N: ap } });
}

export function rectArray(r: PdfRect): number[] {
  return [r.x, r.y, r.x + r.width, r.y + r.height];
}
