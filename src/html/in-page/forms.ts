/**
 * Form controls that become AcroForm fields (src/html/post/acroform.ts writes them): measured and hidden
 * in the body, re-measured at their page's content width, and found in the overlay's margin boxes.
 */
import type { ControlKind, FormControl } from './contract.js';
import { idFor } from './dom.js';
import { sheetPrinting } from './sheet.js';
import { newId, type PageState } from './state.js';
import { atContentWidth } from './generated-content/targets.js';

const TEXT_TYPES = new Set([
  'text',
  'password',
  'email',
  'number',
  'tel',
  'url',
  'search',
  'date',
  'time',
  'datetime-local',
  'month',
  'week',
]);
const CONTROLS = 'input[name], select[name], textarea[name]';

/** What describeControl reads of any control (a select has no readOnly or maxLength: undefined there). */
type ControlProps = { readOnly?: boolean; disabled?: boolean; required?: boolean; maxLength?: number; value?: string };

/** A named form control as a field description (its look from the computed style), or null when it is no field. */
export function describeControl(el: Element, id: string): FormControl | null {
  const name = el.getAttribute('name');
  if (!name) return null;
  let kind: ControlKind;
  const tag = el.tagName;
  if (tag === 'TEXTAREA') kind = 'textarea';
  else if (tag === 'SELECT') kind = (el as HTMLSelectElement).multiple ? 'list' : 'combo';
  else {
    const type = (el.getAttribute('type') || 'text').trim().toLowerCase();
    if (TEXT_TYPES.has(type)) kind = type === 'password' ? 'password' : 'text';
    else if (type === 'checkbox' || type === 'radio') kind = type;
    else return null;
  }
  const rect = el.getBoundingClientRect();
  if (rect.width === 0 && rect.height === 0) return null;
  const cs = getComputedStyle(el);
  if (cs.display === 'none' || cs.visibility !== 'visible') return null;
  const c: ControlProps = el as HTMLInputElement | HTMLSelectElement | HTMLTextAreaElement;
  const f: FormControl = {
    id,
    kind,
    name,
    width: rect.width,
    height: rect.height,
    fontSize: parseFloat(cs.fontSize) || 12,
    color: cs.color,
    readOnly: c.readOnly === true || c.disabled === true,
    required: c.required === true,
    maxLength: typeof c.maxLength === 'number' && c.maxLength > 0 ? c.maxLength : 0,
    textAlign: cs.textAlign,
    look: {
      appearance: cs.appearance,
      borderStyle: cs.borderTopStyle,
      borderWidth: parseFloat(cs.borderTopWidth) || 0,
      borderColor: cs.borderTopColor,
      background: cs.backgroundColor,
      radius: cs.borderTopLeftRadius,
      bottomStyle: cs.borderBottomStyle,
      bottomWidth: parseFloat(cs.borderBottomWidth) || 0,
      bottomColor: cs.borderBottomColor,
    },
  };
  if (kind === 'checkbox' || kind === 'radio') {
    f.checked = (el as HTMLInputElement).checked;
    const v = el.getAttribute('value');
    if (v !== null) f.value = v;
  } else if (kind === 'combo' || kind === 'list') {
    f.options = [...(el as HTMLSelectElement).options].map((o): [string, string, boolean] => [
      o.value,
      o.text,
      o.selected,
    ]);
  } else f.value = c.value;
  return f;
}

/** Controls inside a form: described, given a marker id, hidden (visibility keeps their layout). */
export function prepareForms(S: PageState): void {
  for (const el of document.querySelectorAll<HTMLElement>(CONTROLS)) {
    if (!el.closest('form')) continue;
    const f = describeControl(el, '');
    if (!f) continue;
    f.id = idFor(S, el, 'f');
    S.forms.push(f);
    el.style.setProperty('visibility', 'hidden', 'important');
  }
  S.layoutWidth = document.documentElement.clientWidth;
}

/**
 * Sizes of body controls as laid out at the printed content width of their page
 * (groups: content width in px → control ids). The screen layout is at the
 * viewport's width, the request's default page, not the document's @page size:
 * the root is given the page's content width (less its own margins) while measuring.
 */
export function measureForms(S: PageState, groups: Record<string, string[]>): Record<string, [number, number]> {
  sheetPrinting(S, false);
  const out: Record<string, [number, number]> = {};
  for (const [width, ids] of Object.entries(groups)) {
    atContentWidth(Number(width), () => {
      for (const id of ids) {
        const el = document.getElementById(id);
        if (el) {
          const r = el.getBoundingClientRect();
          out[id] = [r.width, r.height];
        }
      }
    });
  }
  sheetPrinting(S, true);
  return out;
}

/**
 * Controls inside running elements shown in margin boxes: each copy on overlay page i is a widget on body
 * page i, placed relative to that page's top-left (the overlay page is the body page's exact box).
 */
export function overlayForms(S: PageState, root: ShadowRoot): void {
  S.overlayForms = [];
  root.querySelectorAll('[data-fs-overlay-page]').forEach((pg) => {
    // Layout is read only for pages that show controls (most overlays have none).
    // The page is in the overlay's shadow tree; the running elements' copies are slotted into it.
    const controls = [...pg.querySelectorAll('slot')].flatMap((slot) => {
      const inForm = slot.closest('[data-fs-in-form]') !== null;
      return slot
        .assignedElements()
        .flatMap((n) => [...(n.matches(CONTROLS) ? [n] : []), ...n.querySelectorAll(CONTROLS)])
        .filter((el) => inForm || el.closest('form'));
    });
    if (controls.length === 0) return;
    const page = Number(pg.getAttribute('data-fs-overlay-page'));
    const origin = pg.getBoundingClientRect();
    for (const el of controls) {
      const f = describeControl(el, newId(S, 'g'));
      if (!f) continue;
      // The copies on all pages share one radio group in the document: only the last stays checked. The markup's state is the one.
      if (f.kind === 'checkbox' || f.kind === 'radio') f.checked = (el as HTMLInputElement).defaultChecked;
      const r = el.getBoundingClientRect();
      const bleed = S.sheet ? S.sheet.bleed : 0;
      S.overlayForms.push({
        control: f,
        page,
        left: (r.left - origin.left + bleed) * 0.75,
        top: (r.top - origin.top + bleed) * 0.75,
      });
      (el as HTMLElement).style.setProperty('visibility', 'hidden', 'important');
    }
  });
}
