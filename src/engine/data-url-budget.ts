import { PayloadTooLargeError } from '../errors/index.js';
import { formatPath, isValueObject, type FillRequest, type FieldInput } from '../schema/index.js';

/** Enforces the spec's cap on all `data:` URLs of one fill payload: 413 naming the value that crossed it. */
export function checkDataUrlBudget(request: FillRequest, limit: number): void {
  let total = 0;
  const visit = (value: FieldInput, path: PropertyKey[]) => {
    if (typeof value === 'string') {
      if (value.startsWith('data:')) {
        total += value.length;
        if (total > limit) {
          throw new PayloadTooLargeError(`data: URLs in this payload total more than ${limit} characters`, formatPath(path));
        }
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (isValueObject(value)) visit(value.value, [...path, 'value']);
  };
  request.data.forEach((one, i) => {
    for (const [key, value] of Object.entries(one)) visit(value, request.dataWasArray ? ['data', i, key] : ['data', key]);
  });
}
