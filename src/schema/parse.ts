import { z } from 'zod';
import { ValidationError, type FieldError } from '../errors/index.js';
import { fillOptions, type FillData, type FillRequest } from './fill-request.js';
import { generateSchemas, type GenerateRequest } from './generate-request.js';
import { collect, formatPath, isPlainObject, messageFor, toFieldErrors } from './issues.js';
import { fieldInput } from './styling.js';

/** Turns an encrypted `data` string into its JSON text; throws with a message for the caller. */
export type DataDecryptor = (encrypted: string) => string;

export interface ParseOptions {
  decrypt?: DataDecryptor;
}

function bodyObject(body: unknown): Record<string, unknown> {
  if (body === undefined || body === null || body === '') return {};
  if (!isPlainObject(body)) throw ValidationError.of('(body)', 'Expected a JSON object');
  return body;
}

/** An encrypted `data` without a key to read it: worded for the API caller and the library user alike. */
export const NO_PRIVATE_KEY_MESSAGE =
  'Encrypted data needs a private key: start with --private-key FILE (library: the privateKey option)';

/** Replaces an encrypted `data` string with the data it holds. */
function decryptData(data: unknown, options: ParseOptions): unknown {
  if (typeof data !== 'string') return data;
  if (!options.decrypt) throw ValidationError.of('data', NO_PRIVATE_KEY_MESSAGE);
  let text: string;
  try {
    text = options.decrypt(data);
  } catch (e) {
    throw ValidationError.of('data', `Cannot decrypt data: ${e instanceof Error ? e.message : String(e)}`);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw ValidationError.of('data', 'Decrypted data is not valid JSON');
  }
}

/** A fill body checked property by property: every problem, and what could be read. */
export interface CollectedFillRequest {
  errors: FieldError[];
  /**
   * The request without the properties that failed (their defaults would apply), so checks
   * that need a request (fonts, each value against its field) can still run and report too;
   * undefined when `data` itself is unusable. Never render it when `errors` is not empty.
   */
  request?: FillRequest;
}

/**
 * Parses an object schema, reporting every problem; on failure parses again without the
 * top-level keys that failed, so the rest of the object is still read.
 */
function collectLeaving<S extends z.ZodObject>(
  schema: S,
  raw: Record<string, unknown>,
  errors: FieldError[],
): z.output<S> | undefined {
  const first = schema.safeParse(raw, { error: (iss) => messageFor(iss) });
  if (first.success) return first.data;
  errors.push(...toFieldErrors(first.error.issues));
  const bad = new Set(first.error.issues.map((i) => i.path[0]));
  const kept = Object.fromEntries(Object.entries(raw).filter(([k]) => !bad.has(k)));
  const second = schema.safeParse(kept);
  return second.success ? second.data : undefined;
}

/** One fill's data, key by key: a key whose value fails is left out and reported. */
function collectData(plain: Record<string, unknown>, prefix: PropertyKey[], errors: FieldError[]): FillData {
  const out: FillData = {};
  for (const [key, value] of Object.entries(plain)) {
    const parsed = fieldInputOf(value, [...prefix, key], errors);
    if (parsed.ok) out[key] = parsed.value;
  }
  return out;
}

function fieldInputOf(
  value: unknown,
  at: PropertyKey[],
  errors: FieldError[],
): { ok: true; value: FillData[string] } | { ok: false } {
  const before = errors.length;
  const parsed = collect(fieldInput, value, at, errors);
  return errors.length === before ? { ok: true, value: parsed } : { ok: false };
}

/**
 * Every problem of a fill body at once (a bad `fontSize` does not hide a bad value): the options, `data` and each value of it are read independently.
 */
export function collectFillRequest(body: unknown, options: ParseOptions = {}): CollectedFillRequest {
  const raw = bodyObject(body);
  const errors: FieldError[] = [];
  const rest = collectLeaving(fillOptions, raw, errors) ?? {};

  let data: FillData[] | undefined;
  let dataWasArray = false;
  if (raw.data === undefined || raw.data === null) {
    errors.push({ property: 'data', message: 'Required' });
  } else {
    let plain: unknown;
    try {
      plain = decryptData(raw.data, options);
    } catch (e) {
      if (!(e instanceof ValidationError)) throw e;
      errors.push(...e.fields);
      return { errors };
    }
    if (Array.isArray(plain)) {
      dataWasArray = true;
      if (plain.length === 0) errors.push({ property: 'data', message: 'Must contain at least 1 item' });
      else {
        const fills: FillData[] = [];
        plain.forEach((one, i) => {
          if (isPlainObject(one)) fills.push(collectData(one, ['data', i], errors));
          else
            errors.push({
              property: formatPath(['data', i]),
              message: `Expected object, received ${one === null ? 'null' : Array.isArray(one) ? 'array' : typeof one}`,
            });
        });
        if (fills.length === plain.length) data = fills;
      }
    } else if (isPlainObject(plain)) {
      data = [collectData(plain, ['data'], errors)];
    } else {
      errors.push({ property: 'data', message: 'Expected an object of field values or an array of such objects' });
    }
  }
  return data ? { errors, request: { ...rest, data, dataWasArray } } : { errors };
}

export function parseFillRequest(body: unknown, options: ParseOptions = {}): FillRequest {
  const { errors, request } = collectFillRequest(body, options);
  if (errors.length > 0 || !request) throw new ValidationError(errors);
  return request;
}

/**
 * HTML mode when `type` is `html` or `data` carries an `html` key (spec, generate rule 1: the
 * `html` key wins even over `type: "markdown"`); Markdown otherwise.
 */
export function parseGenerateRequest(body: unknown, options: ParseOptions = {}): GenerateRequest {
  const raw = bodyObject(body);
  const errors: FieldError[] = [];
  const { generateType, htmlRequest, markdownRequest } = generateSchemas();
  const type = collect(generateType, raw.type, ['type'], errors);
  if (raw.data === undefined || raw.data === null) errors.push({ property: 'data', message: 'Required' });
  if (errors.length > 0) throw new ValidationError(errors);

  const data = decryptData(raw.data, options);
  const isHtml = type === 'html' || (isPlainObject(data) && 'html' in data);
  const input: Record<string, unknown> = { ...raw, data };
  if (isHtml) {
    if (!isPlainObject(data)) throw ValidationError.of('data', 'In HTML mode data must be an object {html, css}');
    const {
      logo: _l,
      includeTimestamp: _t,
      fontSize: _s,
      fontFamily: _f,
      textColor: _c,
      type: _type,
      ...htmlOnly
    } = input;
    const parsed = collect(htmlRequest, { ...htmlOnly, type: 'html' }, [], errors);
    if (!parsed) throw new ValidationError(errors);
    return parsed;
  }
  if (!Array.isArray(data))
    throw ValidationError.of('data', 'In Markdown mode data must be an array of content blocks');
  const parsed = collect(markdownRequest, input, [], errors);
  if (!parsed) throw new ValidationError(errors);
  return parsed;
}
