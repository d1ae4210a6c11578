import { z } from 'zod';
import { ValidationError, type FieldError } from '../errors/index.js';
import { fillData, fillOptions, type FillData, type FillRequest } from './fill-request.js';
import { generateType, htmlRequest, markdownRequest, type GenerateRequest } from './generate-request.js';
import { collect, isPlainObject } from './issues.js';

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

/** Replaces an encrypted `data` string with the data it holds. */
function decryptData(data: unknown, options: ParseOptions): unknown {
  if (typeof data !== 'string') return data;
  if (!options.decrypt) throw ValidationError.of('data', 'Encrypted data needs a private key: start with --private-key FILE (library: the privateKey option)');
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

export function parseFillRequest(body: unknown, options: ParseOptions = {}): FillRequest {
  const raw = bodyObject(body);
  const errors: FieldError[] = [];
  const rest = collect(fillOptions, raw, [], errors);

  let data: FillData[] | undefined;
  let dataWasArray = false;
  if (raw.data === undefined || raw.data === null) {
    errors.push({ property: 'data', message: 'Required' });
  } else {
    const plain = decryptData(raw.data, options);
    if (Array.isArray(plain)) {
      dataWasArray = true;
      data = collect(z.array(fillData).min(1), plain, ['data'], errors);
    } else if (isPlainObject(plain)) {
      const one = collect(fillData, plain, ['data'], errors);
      data = one && [one];
    } else {
      errors.push({ property: 'data', message: 'Expected an object of field values or an array of such objects' });
    }
  }
  if (errors.length > 0 || !rest || !data) throw new ValidationError(errors);
  return { ...rest, data, dataWasArray };
}

/**
 * HTML mode when `type` is `html` or `data` carries an `html` key (spec, generate rule 1: the
 * `html` key wins even over `type: "markdown"`, issue 21); Markdown otherwise.
 */
export function parseGenerateRequest(body: unknown, options: ParseOptions = {}): GenerateRequest {
  const raw = bodyObject(body);
  const errors: FieldError[] = [];
  const type = collect(generateType, raw.type, ['type'], errors);
  if (errors.length > 0) throw new ValidationError(errors);
  if (raw.data === undefined || raw.data === null) throw ValidationError.of('data', 'Required');

  const data = decryptData(raw.data, options);
  const isHtml = type === 'html' || (isPlainObject(data) && 'html' in data);
  const input: Record<string, unknown> = { ...raw, data };
  if (isHtml) {
    if (!isPlainObject(data)) throw ValidationError.of('data', 'In HTML mode data must be an object {html, css}');
    const { logo: _l, includeTimestamp: _t, fontSize: _s, fontFamily: _f, textColor: _c, type: _type, ...htmlOnly } = input;
    const parsed = collect(htmlRequest, { ...htmlOnly, type: 'html' }, [], errors);
    if (!parsed) throw new ValidationError(errors);
    return parsed;
  }
  if (!Array.isArray(data)) throw ValidationError.of('data', 'In Markdown mode data must be an array of content blocks');
  const parsed = collect(markdownRequest, input, [], errors);
  if (!parsed) throw new ValidationError(errors);
  return parsed;
}
