import { PayloadTooLargeError } from '../errors/index.js';
import { formatPath, isValueObject, type FillRequest, type FieldInput } from '../schema/index.js';

/**
 * Enforces the spec's cap on the image data URLs of one fill payload: 413 naming the value
 * that crossed it. Only `data:image/…` values count, and with `imageFields` only those of the
 * template's image fields: a key no field reads is ignored by the spec, so is its size, and
 * a text value that happens to start with `data:` is text.
 */
export function checkDataUrlBudget(request: FillRequest, limit: number, imageFields?: ReadonlySet<string>): void {
  let total = 0;
  const visit = (value: FieldInput, path: PropertyKey[]) => {
    if (typeof value === 'string') {
      if (/^data:image\//i.test(value)) {
        total += value.length;
        if (total > limit) {
          throw new PayloadTooLargeError(
            `data: URLs in this payload total more than ${limit} characters`,
            formatPath(path),
          );
        }
      }
    } else if (Array.isArray(value)) value.forEach((v, i) => visit(v, [...path, i]));
    else if (isValueObject(value)) visit(value.value, [...path, 'value']);
  };
  request.data.forEach((one, i) => {
    for (const [key, value] of Object.entries(one)) {
      if (imageFields && !imageFields.has(key)) continue;
      visit(value, request.dataWasArray ? ['data', i, key] : ['data', key]);
    }
  });
}
