import { PDFDocument, PDFName, PDFBool, StandardFonts, rgb, type PDFFont, type PDFPage } from '@cantoo/pdf-lib';
import { fillExistingFields, type ExistingFieldValue } from '../acroform/index.js';
import type { FontRegistry } from '../fonts/index.js';
import { TextSetter } from '../text/index.js';

/** A form control as measured in the page (CSS px), see inpage-script.ts `prepareForms`. */
export interface FormControl {
  id: string;
  kind: 'text' | 'password' | 'textarea' | 'checkbox' | 'radio' | 'combo' | 'list';
  name: string;
  width: number;
  height: number;
  fontSize: number;
  color: string;
  readOnly: boolean;
  required: boolean;
  maxLength: number;
  textAlign: string;
  value?: string;
  checked?: boolean;
  /** [value, label, selected] */
  options?: Array<[string, string, boolean]>;
}

export interface PlacedControl {
  control: FormControl;
  page: number;
  /** Top-left corner, points from the page's top-left. */
  left: number;
  top: number;
}

function rgbOf(css: string): [number, number, number] {
  const m = /rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)/.exec(css);
  return m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [0, 0, 0];
}

function parseColor(css: string): ReturnType<typeof rgb> {
  const [r, g, b] = rgbOf(css);
  return rgb(r / 255, g / 255, b / 255);
}

function hexColor(css: string): string {
  return `#${rgbOf(css)
    .map((n) => Math.max(0, Math.min(255, Math.round(n))).toString(16).padStart(2, '0'))
    .join('')}`;
}

/** Field names in PDF use dots for hierarchy; other characters are kept as HTML gave them. */
function fieldName(name: string): string {
  return name.replace(/\.{2,}/g, '.').replace(/^\.|\.$/g, '') || 'field';
}

/**
 * Adds one AcroForm field per named control (radios sharing a name become one
 * group, repeated names one field with several widgets), placed where Chromium
 * laid the control out. Chromium painted nothing for the controls (they were
 * hidden before printing), so the widgets are the only visible controls.
 */
export async function addAcroForm(doc: PDFDocument, placed: PlacedControl[], fonts: FontRegistry): Promise<void> {
  if (placed.length === 0) return;
  // pdf-lib builds the fields; text and drop-down appearances are then redrawn with the shared text layer.
  const redraw: ExistingFieldValue[] = [];
  let viewerDraws = false;
  const form = doc.getForm();
  const font: PDFFont = await doc.embedFont(StandardFonts.Helvetica);
  const pages = doc.getPages();
  const kinds = new Map<string, FormControl['kind']>();
  for (const { control: c, page, left, top } of placed) {
    const target: PDFPage | undefined = pages[page];
    if (!target) continue;
    const name = fieldName(c.name);
    const group = c.kind === 'password' || c.kind === 'textarea' ? 'text' : c.kind;
    const seen = kinds.get(name);
    if (seen !== undefined && seen !== group) continue;
    kinds.set(name, group);
    const { height: pageHeight } = target.getSize();
    const width = Math.max(1, c.width * 0.75);
    const height = Math.max(1, c.height * 0.75);
    // pdf-lib grows the widget by the border width around the given box: shrink it back.
    const border = 0.75;
    const rect = { x: left + border / 2, y: pageHeight - top - height + border / 2, width: width - border, height: height - border };
    const look = { ...rect, font, textColor: parseColor(c.color), borderColor: rgb(0.6, 0.6, 0.6), borderWidth: border, backgroundColor: rgb(1, 1, 1) };
    const fontSize = Math.max(4, Math.min(c.fontSize * 0.75, height * 0.8));
    try {
      if (group === 'text') {
        const field = seen ? form.getTextField(name) : form.createTextField(name);
        if (!seen) {
          if (c.kind === 'textarea') field.enableMultiline();
          if (c.kind === 'password') field.enablePassword();
          if (c.maxLength > 0) field.setMaxLength(c.maxLength);
          if (c.value) field.setText(c.maxLength > 0 ? c.value.slice(0, c.maxLength) : c.value);
          if (c.textAlign === 'center') field.setAlignment(1);
          else if (c.textAlign === 'right' || c.textAlign === 'end') field.setAlignment(2);
        }
        field.addToPage(target, look);
        const size = c.kind === 'textarea' ? fontSize : Math.min(fontSize, height * 0.7);
        field.setFontSize(size);
        if (c.readOnly) field.enableReadOnly();
        if (c.required) field.enableRequired();
        if (!seen) redraw.push({ acroFieldName: field.getName(), value: field.getText() ?? '', style: { fontSize: size, textColor: hexColor(c.color), alignment: alignmentOf(c.textAlign) } });
      } else if (group === 'checkbox') {
        const field = seen ? form.getCheckBox(name) : form.createCheckBox(name);
        field.addToPage(target, { ...look, textColor: rgb(0, 0, 0) });
        if (c.checked) field.check();
        if (c.readOnly) field.enableReadOnly();
        if (c.required) field.enableRequired();
      } else if (group === 'radio') {
        const field = seen ? form.getRadioGroup(name) : form.createRadioGroup(name);
        const value = c.value ?? 'on';
        if (field.getOptions().includes(value)) continue;
        field.addOptionToPage(value, target, { ...look, textColor: rgb(0, 0, 0) });
        if (c.checked) field.select(value);
        if (c.readOnly) field.enableReadOnly();
        if (c.required) field.enableRequired();
      } else {
        const options = c.options ?? [];
        const field = seen ? (group === 'list' ? form.getOptionList(name) : form.getDropdown(name)) : group === 'list' ? form.createOptionList(name) : form.createDropdown(name);
        if (!seen) {
          field.setOptions(options.map(([value]) => value));
          const selected = options.filter(([, , s]) => s).map(([value]) => value);
          if (selected.length > 0) field.select(group === 'list' ? selected : selected[0]!);
          if (group === 'list' && selected.length > 1 && 'enableMultiselect' in field) field.enableMultiselect();
        }
        field.addToPage(target, look);
        field.setFontSize(Math.min(fontSize, height * 0.7));
        if (c.readOnly) field.enableReadOnly();
        if (c.required) field.enableRequired();
        // List boxes keep pdf-lib's list appearance (the text layer draws one line, not a list).
        if (!seen && group === 'combo') redraw.push({ acroFieldName: field.getName(), value: field.getSelected()[0] ?? '', style: { fontSize: Math.min(fontSize, height * 0.7), textColor: hexColor(c.color) } });
      }
    } catch {
      // pdf-lib could not draw it (a value Helvetica cannot encode): keep the field, let the viewer draw it.
      viewerDraws = true;
    }
  }
  try {
    form.updateFieldAppearances(font);
  } catch {
    viewerDraws = true;
  }
  // Embedded subsets draw any script (CJK, Cyrillic, Arabic...) where Helvetica showed '?'; /DA keeps
  // Helvetica for typing, as fill's interactive output does.
  if (redraw.length > 0) fillExistingFields(doc, redraw, new TextSetter(doc, fonts), { flatten: false });
  if (viewerDraws) form.acroForm.dict.set(PDFName.of('NeedAppearances'), PDFBool.True);
}

function alignmentOf(textAlign: string): 'left' | 'center' | 'right' {
  if (textAlign === 'center') return 'center';
  return textAlign === 'right' || textAlign === 'end' ? 'right' : 'left';
}
