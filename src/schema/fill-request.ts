import { z } from 'zod';
import { bool, hexColor, outputFormat } from './common.js';
import { fieldInput, stylingShape, type FieldInput } from './styling.js';

/** One fill's data: field alias (or id) → value. */
export const fillData = z.record(z.string(), fieldInput);
export type FillData = Record<string, FieldInput>;

/** Every property of the fill request body but `data`, which is dispatched by its shape. */
export const fillOptions = z.object({
  title: z.string().optional(),
  ...stylingShape,
  borderColor: hexColor.optional(),
  defaultCheckboxCharacter: z.string().min(1).max(4).optional(),
  defaultMakeCheckboxSquare: bool.optional(),
  useInteractiveFields: bool.optional(),
  defaultReadOnly: bool.optional(),
  drawDebugBoxes: bool.optional(),
  stripAnnotations: bool.optional(),
  outputFormat: outputFormat.optional(),
  /** castpress's own: a key of `data` that names no field is a 400 on it (default: a warning). */
  strict: bool.optional(),
});

export type FillOptions = z.output<typeof fillOptions>;

/** A validated fill request; `data` is always a list (one entry per merged fill). */
export interface FillRequest extends FillOptions {
  data: FillData[];
  /** True when the caller sent an array (one merged PDF of several fills). */
  dataWasArray: boolean;
}
