import type { PDFDocument } from '@cantoo/pdf-lib';
import {
  addInteractiveFields,
  type FieldTextStyle,
  type InteractiveFieldSpec,
  type WidgetBox,
} from '../../acroform/index.js';
import type { FontRegistry } from '../../fonts/index.js';
import { TextSetter } from '../../text/index.js';

// The page measures controls (page/forms.ts); the shapes are the page contract's.
import type { FormControl, PlacedControl } from '../in-page/contract.js';

/** A check box's on state without a `value`: PDF's usual name, as fill's interactive check boxes have. */
const CHECKBOX_DEFAULT_VALUE = 'Yes';
/** A radio button's export value without a `value`: HTML's default value (what a browser submits). */
const RADIO_DEFAULT_VALUE = 'on';

/** The native look Chromium paints for controls whose border the document leaves alone: 1px #767676. */
const NATIVE_BORDER: [number, number, number] = [118 / 255, 118 / 255, 118 / 255];
const WHITE: [number, number, number] = [1, 1, 1];
const PT = 0.75;

/** `rgb()`/`rgba()` as computed by Chromium → [r, g, b] (0–1) over white, undefined when transparent or unreadable. */
function cssColor(css: string): [number, number, number] | undefined {
  const m = /^rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)$/.exec(css.trim());
  if (!m) return undefined;
  const alpha = m[4] === undefined ? 1 : m[4].endsWith('%') ? Number(m[4].slice(0, -1)) / 100 : Number(m[4]);
  if (!(alpha > 0)) return undefined;
  // Partly transparent colours are composited over the white page.
  return [m[1], m[2], m[3]].map((v) => Math.round((Number(v) / 255) * alpha * 1000 + (1 - alpha) * 1000) / 1000) as [
    number,
    number,
    number,
  ];
}

function hexColor(css: string): string {
  const c = cssColor(css) ?? [0, 0, 0];
  return `#${c
    .map((n) =>
      Math.max(0, Math.min(255, Math.round(n * 255)))
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

/**
 * The widget's border and background from the control's computed style. Controls the
 * document did not restyle keep Chromium's native look: text fields compute to `2px inset`
 * but are painted with a 1px grey border; check boxes and radios compute to no border and
 * no background but are painted as a grey-bordered white box (a circle for radios).
 */
function controlBox(c: FormControl): WidgetBox {
  const { look } = c;
  const native = look.appearance !== 'none';
  const toggle = c.kind === 'checkbox' || c.kind === 'radio';
  const none = (style: string, width: number): boolean => style === 'none' || style === 'hidden' || !(width > 0);
  const noBorder = none(look.borderStyle, look.borderWidth);
  if (toggle && native && noBorder)
    return { border: NATIVE_BORDER, borderWidth: PT, background: WHITE, round: c.kind === 'radio' };
  const round =
    c.kind === 'radio' && (look.radius === '50%' || parseFloat(look.radius) >= Math.min(c.width, c.height) / 2);
  const background = cssColor(look.background);
  const box: WidgetBox = { borderWidth: 0, ...(background ? { background } : {}), ...(round ? { round } : {}) };
  if (noBorder) {
    // Only a bottom border (a line to write on): PDF's underline border style.
    const line = none(look.bottomStyle, look.bottomWidth) || toggle ? undefined : cssColor(look.bottomColor);
    if (line) Object.assign(box, { border: line, borderWidth: look.bottomWidth * PT, underline: true });
    return box;
  }
  const nativeText = native && !toggle && look.borderStyle === 'inset' && look.borderWidth === 2;
  const border = cssColor(look.borderColor);
  if (border) Object.assign(box, { border, borderWidth: (nativeText ? 1 : look.borderWidth) * PT });
  return box;
}

function alignmentOf(textAlign: string): FieldTextStyle['alignment'] {
  if (textAlign === 'center') return 'center';
  return textAlign === 'right' || textAlign === 'end' ? 'right' : 'left';
}

/**
 * Field specs for src/acroform's writer, one per control: radios sharing a name are
 * one group (export values = their `value`s), repeated names one field with several
 * widgets (text-like fields all show the first control's text), dotted names nest.
 * Check boxes sharing a name with different values become one field per value,
 * `name.value` (HTML lets several be checked; a PDF check-box field has one value).
 */
function formFieldSpecs(placed: PlacedControl[], pageHeights: number[]): InteractiveFieldSpec[] {
  const firstText = new Map<string, string>();
  const checkValues = new Map<string, Set<string>>();
  for (const { control: c } of placed) {
    if (c.kind === 'checkbox') {
      const set = checkValues.get(c.name) ?? new Set<string>();
      set.add(c.value || CHECKBOX_DEFAULT_VALUE);
      checkValues.set(c.name, set);
    }
  }
  const specs: InteractiveFieldSpec[] = [];
  for (const { control: c, page, left, top } of placed) {
    const pageHeight = pageHeights[page];
    if (pageHeight === undefined) continue;
    const width = Math.max(1, c.width * PT);
    const height = Math.max(1, c.height * PT);
    const rect = { x: left, y: pageHeight - top - height, width, height };
    const size = Math.max(4, Math.min(c.fontSize * PT, height * 0.8));
    const lineSize = c.kind === 'textarea' || c.kind === 'list' ? size : Math.min(size, height * 0.7);
    const style: FieldTextStyle = {
      fontFamily: 'Noto Sans',
      fontWeight: 'normal',
      fontSize: lineSize,
      textColor: hexColor(c.color),
      alignment: alignmentOf(c.textAlign),
    };
    const common = {
      pageIndex: page,
      rect,
      style,
      box: controlBox(c),
      ...(c.readOnly ? { readOnly: true } : {}),
      ...(c.required ? { required: true } : {}),
    };
    switch (c.kind) {
      case 'text':
      case 'password':
      case 'textarea': {
        // HTML's maxlength limits typing, not the value attribute; the field's /MaxLen limits its value.
        if (!firstText.has(c.name))
          firstText.set(
            c.name,
            c.maxLength > 0
              ? Array.from(c.value ?? '')
                  .slice(0, c.maxLength)
                  .join('')
              : (c.value ?? ''),
          );
        specs.push({
          ...common,
          name: c.name,
          kind: 'text',
          value: firstText.get(c.name)!,
          ...(c.kind === 'password' ? { password: true } : {}),
          ...(c.kind === 'textarea' ? { multiline: true } : {}),
          ...(c.maxLength > 0 ? { maxLength: c.maxLength } : {}),
        });
        break;
      }
      case 'checkbox': {
        const onState = c.value || CHECKBOX_DEFAULT_VALUE;
        const split = (checkValues.get(c.name)?.size ?? 0) > 1;
        specs.push({
          ...common,
          name: split ? `${c.name}.${onState.replace(/\./g, '_')}` : c.name,
          kind: 'checkbox',
          value: c.checked === true,
          onState,
        });
        break;
      }
      case 'radio': {
        const exportValue = c.value || RADIO_DEFAULT_VALUE;
        specs.push({
          ...common,
          name: c.name,
          kind: 'radio',
          value: c.checked ? exportValue : '',
          options: [{ exportValue, rect }],
        });
        break;
      }
      case 'combo':
      case 'list': {
        const options = c.options ?? [];
        const selected = options.filter(([, , s]) => s).map(([v]) => v);
        const choices = options.map(([exportValue, label]) => ({ exportValue, label }));
        if (c.kind === 'combo')
          specs.push({ ...common, name: c.name, kind: 'combo', value: selected[0] ?? '', choices });
        else
          specs.push({
            ...common,
            name: c.name,
            kind: 'list',
            value: selected[0] ?? '',
            choices,
            multiSelect: true,
            selected,
          });
        break;
      }
    }
  }
  return specs;
}

/**
 * Writes the controls as AcroForm fields with src/acroform's writer (the one fill's
 * interactive output uses): appearances drawn with the engine's fonts (any script),
 * /DA Helvetica for typing. Chromium painted nothing for the controls (they were
 * hidden before printing), so the widgets are the only visible controls.
 */
export function addHtmlFields(doc: PDFDocument, placed: PlacedControl[], fonts: FontRegistry): void {
  if (placed.length === 0) return;
  const heights = doc.getPages().map((p) => p.getHeight());
  addInteractiveFields(doc, formFieldSpecs(placed, heights), new TextSetter(doc, fonts));
}
