import type { TemplateField } from './model.js';
import type { Content, ResolvedStyle } from './filled.js';
import type { TopLeftRect } from '../geometry/index.js';
import type { FormatOutcome, InteractiveInput, Placement } from './contract.js';
import type { InteractiveFieldSpec } from '../acroform/index.js';

/** Shared pieces of the type modules: value coercion, messages, boxes. */

export const ok = (values: Record<string, string>, contents: Content[]): FormatOutcome => ({
  ok: true,
  result: { values, contents },
});
export const fail = (message: string): FormatOutcome => ({ ok: false, message });

export function place(r: TopLeftRect, p: Placement): TopLeftRect {
  return { x: r.x + p.dx, y: r.y + p.dy, width: r.width, height: r.height };
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Text types take strings; a number is printed as sent (users send ZIP codes and amounts as numbers). */
export function asText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (typeof v === 'number') return String(v);
  return undefined;
}

/** Numeric types take numbers, or strings holding a plain decimal number. */
export function asNumber(v: unknown): number | undefined {
  if (typeof v === 'number') return v;
  if (typeof v === 'string' && /^\s*-?(\d+(\.\d*)?|\.\d+)\s*$/.test(v)) return Number(v);
  return undefined;
}

/** A value as a message shows it. */
export function describe(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  return `${typeof v} ${JSON.stringify(v)}`;
}

export function text(box: TopLeftRect, s: string, style: ResolvedStyle, multiline = false): Content {
  return { kind: 'text', box, text: s, style, multiline };
}

/** A string value drawn as one text: the shared format of the plain text types. */
export function oneText(shown: string, box: TopLeftRect, style: ResolvedStyle, multiline = false): FormatOutcome {
  return ok({ '': shown }, [text(box, shown, style, multiline)]);
}

/** The usual interactive form of a value: one text field holding the formatted value. */
export function textWidget(input: InteractiveInput, multiline = false): InteractiveFieldSpec[] {
  const f = input.filled;
  return [
    {
      ...input.common,
      name: input.name,
      kind: 'text',
      rect: input.at(f.field.rect),
      value: f.values[''] ?? '',
      multiline,
    },
  ];
}

/** The keys of an object value as strings (absent keys left out), or a message. */
export function stringParts(raw: unknown, keys: readonly string[]): Record<string, string> | string {
  if (!isPlainObject(raw)) return `Expected an object {${keys.join(', ')}}, received ${describe(raw)}`;
  const out: Record<string, string> = {};
  for (const k of keys) {
    const v = raw[k];
    if (v === undefined || v === null) continue;
    const s = asText(v);
    if (s === undefined) return `${k}: expected a string, received ${describe(v)}`;
    out[k] = s;
  }
  return out;
}

/** Complex types: each part in its own box when the template has parts, else the whole value in the field's box. */
export function withParts(
  field: TemplateField,
  parts: Record<string, string>,
  whole: string,
  box: TopLeftRect,
  at: Placement,
  style: ResolvedStyle,
  multiline: boolean,
): FormatOutcome {
  if (!field.parts || Object.keys(field.parts).length === 0)
    return ok({ '': whole }, whole ? [text(box, whole, style, multiline)] : []);
  const values: Record<string, string> = {};
  const contents: Content[] = [];
  for (const [name, rect] of Object.entries(field.parts)) {
    const v = parts[name];
    if (v === undefined) continue;
    values[name] = v;
    if (v !== '') contents.push(text(place(rect, at), v, style));
  }
  return ok(values, contents);
}

/** Complex types interactive: spec says each subfield is interactive (one text field per part box), else one field. */
export function partWidgets(input: InteractiveInput, multiline: boolean): InteractiveFieldSpec[] {
  const f = input.filled;
  const parts = f.field.parts;
  if (parts && Object.keys(parts).length > 0) {
    return Object.entries(parts).map(([part, r]) => ({
      ...input.common,
      name: `${input.name}_${part}`,
      kind: 'text' as const,
      rect: input.at(r),
      value: f.values[part] ?? '',
    }));
  }
  return textWidget(input, multiline);
}
