/**
 * The server's typed 400 (`fields: [{property, message}]`, properties such as `fields[3].rect.width`)
 * placed where the person can act on it: the field it names (by id, since the list may have changed
 * since it was sent) and the input of the properties panel that edits that property.
 */
import type { ErrorField, TemplateField } from './types.js';

export type PathPart = string | number;

/** `fields[3].rect.width` → ['fields', 3, 'rect', 'width']; a leading `template.` (the engine's prefix) is dropped. */
export function parsePath(property: string): PathPart[] {
  const parts: PathPart[] = [];
  for (const m of property.matchAll(/([^.[\]]+)|\[(\d+)\]/g)) parts.push(m[2] !== undefined ? Number(m[2]) : m[1]);
  const start = parts.findIndex((p) => p === 'fields' || p === 'style' || p === 'title');
  return start > 0 ? parts.slice(start) : parts;
}

/** Path parts written back as an input's name: ['options', 1, 'rect', 'x'] → `options[1].rect.x`. */
export function inputName(parts: readonly PathPart[]): string {
  return parts.map((p, i) => (typeof p === 'number' ? `[${p}]` : i === 0 ? p : `.${p}`)).join('');
}

export interface FieldProblem {
  fieldId: string;
  /** The input's name in the properties panel (`rect.width`, `style.fontSize`, `id`); '' for the field as a whole. */
  input: string;
  message: string;
}

export interface PlacedErrors {
  fields: FieldProblem[];
  /** Problems of the document's own properties (`style.textColor`, `title`), by input name. */
  document: Array<{ input: string; message: string }>;
  /** Anything else: shown as it came. */
  other: ErrorField[];
}

/** Places each problem; `sent` is the list of fields as it was sent (the indices refer to it). */
export function placeErrors(errors: readonly ErrorField[], sent: readonly TemplateField[]): PlacedErrors {
  const out: PlacedErrors = { fields: [], document: [], other: [] };
  for (const e of errors) {
    const path = parsePath(e.property);
    if (path[0] === 'fields' && typeof path[1] === 'number' && sent[path[1]]) {
      out.fields.push({ fieldId: sent[path[1]].id, input: inputName(path.slice(2)), message: e.message });
    } else if (path[0] === 'style' || path[0] === 'title') {
      out.document.push({ input: inputName(path), message: e.message });
    } else out.other.push(e);
  }
  return out;
}

/** The message for one input of one field, if the server named it. */
export function problemAt(placed: PlacedErrors | undefined, fieldId: string, input: string): string | undefined {
  return placed?.fields.find((p) => p.fieldId === fieldId && p.input === input)?.message;
}
