/**
 * A forge submission checked with the fill's own field types (src/fields: the same `format` a fill
 * runs, so a value a form accepts is one the packet's documents can show) and turned into the
 * resolvedPayload `{name: {type, value, label}}`. Every problem is reported at once, by field name.
 */
import { ValidationError, type FieldError } from '../../errors/index.js';
import { fieldType, type ResolvedStyle, type TemplateField } from '../../fields/index.js';
import type { ResolvedValue } from '../../packets/index.js';
import type { WorkflowForm, FormField } from './definition.js';

/** Longest value of one field (characters) when the definition sets no maxLength. */
const MAX_VALUE_CHARS = 10_000;

/** An address's shape (the forms' check of `email` fields). */
export const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** What `format` needs besides the value: a stand-in box and style (nothing is drawn here). */
const BOX = { x: 0, y: 0, width: 200, height: 20 };
const STYLE: ResolvedStyle = {
  fontFamily: 'Noto Sans',
  fontWeight: 'normal',
  fontSize: 10,
  textColor: '#000000',
  alignment: 'left',
  verticalAlignment: 'middle',
};

/** The fill's verdict on one value of the field's type; a message when it refuses it. */
function fillTypeProblem(field: FormField, value: string): string | undefined {
  const template = {
    id: field.name,
    type: field.type,
    pageNum: 0,
    rect: BOX,
    ...(field.format !== undefined ? { format: field.format } : {}),
  } as TemplateField;
  const outcome = fieldType(field.type).format({
    field: template,
    raw: value,
    box: BOX,
    at: { dx: 0, dy: 0 },
    style: STYLE,
    options: { checkboxCharacter: 'X', checkboxSquare: false },
  });
  return outcome.ok ? undefined : outcome.message;
}

/** One field's value from a form body (strings, as a browser posts them), or its problem. */
function resolveField(field: FormField, raw: unknown): { value?: unknown; problem?: string } {
  if (Array.isArray(raw)) return { problem: 'One value only' };
  if (raw !== undefined && typeof raw !== 'string') return { problem: 'Expected text' };
  if (field.type === 'checkbox') {
    // An unchecked box is not posted at all.
    if (raw === undefined || raw === '') return field.required ? { problem: 'Required' } : { value: false };
    return raw === 'on' || raw === 'true' ? { value: true } : { problem: 'Expected a checked box' };
  }
  const value = (raw ?? '').trim();
  if (value === '') return field.required ? { problem: 'Required' } : {};
  const max = field.validation?.maxLength ?? MAX_VALUE_CHARS;
  if ([...value].length > max) return { problem: `At most ${max} characters` };
  if (field.type === 'radioGroup') {
    return field.options!.some((o) => o.id === value) ? { value } : { problem: 'Choose one of the options' };
  }
  const pattern = field.validation?.pattern;
  if (pattern !== undefined && !new RegExp(`^(?:${pattern})$`, 'u').test(value))
    return { problem: field.validation?.patternMessage ?? `Must match ${pattern}` };
  // The fill draws any text in an email field; a form collects addresses packets send to, so it checks the shape.
  if (field.type === 'email' && !EMAIL.test(value))
    return { problem: 'Expected an email address like name@example.com' };
  const problem = fillTypeProblem(field, value);
  return problem ? { problem } : { value };
}

/** Names a form posts besides the forge's fields (the run's token and the form's one-time submission id). */
export const FORM_CONTROLS = new Set(['t', 'weldDataEid', 'submissionEid']);

/**
 * The forge's resolvedPayload from a posted body; a ValidationError naming every bad or unknown field.
 * Empty optional fields are left out.
 */
export function resolveSubmission(forge: WorkflowForm, body: Record<string, unknown>): Record<string, ResolvedValue> {
  const errors: FieldError[] = [];
  const known = new Set(forge.fields.map((f) => f.name));
  for (const name of Object.keys(body))
    if (!known.has(name) && !FORM_CONTROLS.has(name))
      errors.push({ property: name, message: `Forge "${forge.slug}" has no field "${name}"` });
  const out: Record<string, ResolvedValue> = {};
  for (const field of forge.fields) {
    const r = resolveField(field, body[field.name]);
    if (r.problem) errors.push({ property: field.name, message: r.problem });
    else if (r.value !== undefined) out[field.name] = { type: field.type, value: r.value, label: field.label };
  }
  if (errors.length) throw new ValidationError(errors);
  return out;
}
