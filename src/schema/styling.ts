import { z } from 'zod';
import { alignment, bool, fontFamily, fontSize, fontWeight, hexColor, verticalAlignment } from './common.js';
import { isPlainObject, messageFor } from './issues.js';

/** Styling a fill request may set for the whole document or for one value. */
export const stylingShape = {
  fontFamily: fontFamily.optional(),
  fontSize: fontSize.optional(),
  textColor: hexColor.optional(),
  alignment: alignment.optional(),
  fontWeight: fontWeight.optional(),
  verticalAlignment: verticalAlignment.optional(),
};

export const styling = z.object(stylingShape);
export type Styling = z.output<typeof styling>;

const valueObjectStyling = z.object({ ...stylingShape, readOnly: bool.optional() });

export type FieldInput = string | number | boolean | null | undefined | FieldInput[] | ValueObject | ComplexValue;

/** `{value, ...styling}`: a value with styling of its own. */
export interface ValueObject extends Styling {
  value: FieldInput;
  readOnly?: boolean;
}

/** The object value of a complex field type (fullName, usAddress, phone). */
export interface ComplexValue {
  [key: string]: unknown;
}

const MAX_VALUE_DEPTH = 32;

/** True for `{value, ...}` objects; inside arrays `{data, ...}` counts too (the spec shows both spellings). */
export function isValueObject(v: unknown, inArray = false): v is ValueObject {
  return isPlainObject(v) && ('value' in v || (inArray && 'data' in v && !('value' in v)));
}

/**
 * A field's value: validated only as far as the request alone allows (styling of
 * value objects); whether it suits the field's type is checked against the template.
 */
export const fieldInput: z.ZodType<FieldInput> = z.unknown().transform((raw, ctx): FieldInput => {
  const visit = (v: unknown, path: PropertyKey[], inArray: boolean): FieldInput => {
    // Values nest a few levels at most (repeats of arrays of value objects); a body nested
    // thousands deep would otherwise overflow the stack here.
    if (path.length > MAX_VALUE_DEPTH) {
      ctx.issues.push({ code: 'custom', message: `Nested more than ${MAX_VALUE_DEPTH} levels deep`, input: v, path });
      return null;
    }
    if (Array.isArray(v)) return v.map((el, i) => visit(el, [...path, i], true));
    if (isPlainObject(v) && isValueObject(v, inArray)) {
      const raw: Record<string, unknown> = v;
      const { value, data, ...rest } = raw;
      const parsed = valueObjectStyling.safeParse(rest, { error: (iss) => messageFor(iss) });
      if (!parsed.success) {
        for (const iss of parsed.error.issues)
          ctx.issues.push({ code: 'custom', message: iss.message, input: v, path: [...path, ...iss.path] });
        return null;
      }
      const inner = value !== undefined ? value : data;
      return { ...parsed.data, value: visit(inner, [...path, 'value'], false) };
    }
    if (v === undefined || v === null || typeof v === 'string' || typeof v === 'boolean') return v;
    if (typeof v === 'number') {
      if (!Number.isFinite(v)) {
        ctx.issues.push({ code: 'custom', message: 'Must be a finite number', input: v, path });
        return null;
      }
      return v;
    }
    if (isPlainObject(v)) return v;
    ctx.issues.push({ code: 'custom', message: `Unsupported value of type ${typeof v}`, input: v, path });
    return null;
  };
  return visit(raw, [], false);
});
