/**
 * `{{forgeSlug.fieldName}}` in the packet's strings: found (to check them when a definition is
 * read) and replaced by the submitted values (when a run makes its packet). A string that is one
 * placeholder and nothing else takes the value itself (a checkbox stays a boolean); inside a
 * longer string the value is written as text.
 */
import type { ResolvedValue, SubmissionRecord } from '../packets/index.js';

export const PLACEHOLDER = /\{\{\s*([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}/g;
const WHOLE = /^\{\{\s*([A-Za-z0-9][A-Za-z0-9_-]*)\.([A-Za-z_][A-Za-z0-9_]*)\s*\}\}$/;

export interface PlaceholderRef {
  forge: string;
  field: string;
  /** Where it is, e.g. `packet.signers[0].email`. */
  path: string;
}

/** Every placeholder in `value` (walked depth-first), with its property path under `prefix`. */
export function placeholdersIn(value: unknown, prefix: string): PlaceholderRef[] {
  const out: PlaceholderRef[] = [];
  const walk = (v: unknown, path: string): void => {
    if (typeof v === 'string') {
      for (const m of v.matchAll(PLACEHOLDER)) out.push({ forge: m[1]!, field: m[2]!, path });
    } else if (Array.isArray(v)) v.forEach((item, i) => walk(item, `${path}[${i}]`));
    else if (v !== null && typeof v === 'object')
      for (const [k, item] of Object.entries(v))
        walk(item, /^[A-Za-z_$][\w$]*$/.test(k) ? `${path}.${k}` : `${path}["${k}"]`);
  };
  walk(value, prefix);
  return out;
}

/** Submitted values by forge slug, then field name. */
export type SubmittedValues = Record<string, Record<string, ResolvedValue>>;

function text(v: unknown): string {
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : String(v);
}

/** How a value's text is written where a placeholder stands (`path` from the resolved root): value-places.ts. */
export type ValueWriter = (path: readonly PropertyKey[], text: string) => string;

const asIs: ValueWriter = (_path, text) => text;

/**
 * `value` with every placeholder replaced; a field left empty becomes '' (or is absent when it is the
 * whole string). Text values go through `write`, which knows where they land.
 */
export function resolvePlaceholders(
  value: unknown,
  values: SubmittedValues,
  write: ValueWriter = asIs,
  path: PropertyKey[] = [],
): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE.exec(value);
    if (whole) {
      const v = values[whole[1]!]?.[whole[2]!]?.value;
      return typeof v === 'string' ? write(path, v) : v;
    }
    return value.replace(PLACEHOLDER, (_m, forge: string, field: string) =>
      write(path, text(values[forge]?.[field]?.value)),
    );
  }
  if (Array.isArray(value)) return value.map((v, i) => resolvePlaceholders(v, values, write, [...path, i]));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const r = resolvePlaceholders(v, values, write, [...path, k]);
      if (r !== undefined) out[k] = r;
    }
    return out;
  }
  return value;
}

/** A run's submissions as placeholder values. */
export function valuesOf(submissions: readonly SubmissionRecord[]): SubmittedValues {
  return Object.fromEntries(submissions.map((s) => [s.forgeSlug, s.resolvedPayload]));
}
