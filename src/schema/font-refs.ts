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
