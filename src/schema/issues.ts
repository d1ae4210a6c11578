import type { z } from 'zod';
import { ValidationError, type FieldError } from '../errors/index.js';

type Issue = z.core.$ZodIssue;
type RawIssue = z.core.$ZodRawIssue;

/** `['data', 2, 'table', 'columnOptions', 0, 'align']` → `data[2].table.columnOptions[0].align`. */
export function formatPath(path: ReadonlyArray<PropertyKey>): string {
  let out = '';
  for (const key of path) {
    if (typeof key === 'number') out += `[${key}]`;
    else if (typeof key === 'string' && /^[A-Za-z_$][\w$]*$/.test(key)) out += out === '' ? key : `.${key}`;
    else out += `[${JSON.stringify(String(key))}]`;
  }
  return out;
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

/** Plain-language messages in the hosted API's style (`Required` for a missing property). */
export function messageFor(issue: RawIssue | Issue): string | undefined {
  switch (issue.code) {
    case 'invalid_type':
      if (issue.input === undefined) return 'Required';
      if (issue.expected === 'int') return 'Must be an integer';
      return `Expected ${issue.expected === 'record' ? 'object' : issue.expected}, received ${describe(issue.input)}`;
    case 'too_small':
      if (issue.origin === 'array')
        return `Must contain at least ${issue.minimum} item${Number(issue.minimum) === 1 ? '' : 's'}`;
      if (issue.origin === 'string')
        return Number(issue.minimum) === 1 ? 'Must not be empty' : `Must be at least ${issue.minimum} characters long`;
      return `Must be at least ${issue.minimum}`;
    case 'too_big':
      if (issue.origin === 'array') return `Must contain at most ${issue.maximum} items`;
      if (issue.origin === 'string') return `Must be at most ${issue.maximum} characters long`;
      return `Must be at most ${issue.maximum}`;
    case 'invalid_value':
      return `Must be one of: ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
    case 'unrecognized_keys':
      return `Unknown propert${issue.keys.length === 1 ? 'y' : 'ies'}: ${issue.keys.join(', ')}`;
    default:
      return undefined;
  }
}

export function toFieldErrors(issues: ReadonlyArray<Issue>, prefix: ReadonlyArray<PropertyKey> = []): FieldError[] {
  return issues.map((issue) => ({
    property: formatPath([...prefix, ...issue.path]) || '(body)',
    message: issue.message,
  }));
}

/** Parses with the project's messages; throws ValidationError listing every bad property. */
export function parseWith<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: ReadonlyArray<PropertyKey> = [],
): z.output<S> {
  const result = schema.safeParse(input, { error: (iss) => messageFor(iss) });
  if (result.success) return result.data;
  throw new ValidationError(toFieldErrors(result.error.issues, prefix));
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** Parses one part of a request, adding its problems (at `prefix`) to `errors` so one error can list them all. */
export function collect<S extends z.ZodType>(
  schema: S,
  input: unknown,
  prefix: PropertyKey[],
  errors: FieldError[],
): z.output<S> | undefined {
  const r = schema.safeParse(input, { error: (iss) => messageFor(iss) });
  if (r.success) return r.data;
  errors.push(...toFieldErrors(r.error.issues, prefix));
  return undefined;
}
