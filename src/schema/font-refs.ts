import { isValueObject, type FieldInput } from './styling.js';
import type { FillRequest } from './fill-request.js';
import type { GenerateRequest } from './generate-request.js';
import { formatPath } from './issues.js';

export interface FontRef {
  family: string;
  property: string;
}

/** Every font family a request names, with where it named it, so unknown names get precise errors. */
export function fontFamilyRefs(request: FillRequest | GenerateRequest): FontRef[] {
  const refs: FontRef[] = [];
  if ('fontFamily' in request && request.fontFamily) refs.push({ family: request.fontFamily, property: 'fontFamily' });
  if ('dataWasArray' in request) {
    request.data.forEach((one, i) => {
      for (const [key, value] of Object.entries(one)) {
        const base: PropertyKey[] = request.dataWasArray ? ['data', i, key] : ['data', key];
        walkValue(value, base, refs);
      }
    });
  } else if (request.type === 'markdown') {
    request.data.forEach((block, i) => {
      if (block.fontFamily) refs.push({ family: block.fontFamily, property: formatPath(['data', i, 'fontFamily']) });
    });
  }
  return refs;
}

function walkValue(value: FieldInput, path: PropertyKey[], refs: FontRef[]): void {
  if (Array.isArray(value)) value.forEach((v, i) => walkValue(v, [...path, i], refs));
  else if (isValueObject(value)) {
    if (value.fontFamily) refs.push({ family: value.fontFamily, property: formatPath([...path, 'fontFamily']) });
    walkValue(value.value, [...path, 'value'], refs);
  }
}

/**
 * The font families a Markdown generate body names, read from the raw body (non-empty strings
 * only): when the body fails validation, unknown fonts are still reported in the same 400.
 * HTML mode takes fonts from CSS, so an HTML body names none here.
 */
export function rawGenerateFontRefs(body: unknown): FontRef[] {
  if (typeof body !== 'object' || body === null || Array.isArray(body)) return [];
  const b = body as Record<string, unknown>;
  const isHtml =
    b.type === 'html' || (typeof b.data === 'object' && b.data !== null && !Array.isArray(b.data) && 'html' in b.data);
  if (isHtml) return [];
  const refs: FontRef[] = [];
  if (typeof b.fontFamily === 'string' && b.fontFamily !== '')
    refs.push({ family: b.fontFamily, property: 'fontFamily' });
  if (Array.isArray(b.data)) {
    b.data.forEach((block: unknown, i) => {
      const family =
        typeof block === 'object' && block !== null ? (block as Record<string, unknown>).fontFamily : undefined;
      if (typeof family === 'string' && family !== '')
        refs.push({ family, property: formatPath(['data', i, 'fontFamily']) });
    });
  }
  return refs;
}
