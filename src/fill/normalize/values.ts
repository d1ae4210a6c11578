import {
  fieldType,
  type FormatOptions,
  type FormatOutcome,
  type Placement,
  type ResolvedStyle,
} from '../../fields/index.js';
import type { TemplateField } from '../../template/index.js';

export type { FormatOptions, FormatOutcome, Placement };

/**
 * Formats one value (already unwrapped from its value object) for `field`, through its
 * type's module (src/fields). An empty string or null gives no contents: nothing is drawn.
 */
export function formatValue(
  field: TemplateField,
  raw: unknown,
  style: ResolvedStyle,
  at: Placement,
  options: FormatOptions,
): FormatOutcome {
  if (raw === '' || raw === null || raw === undefined)
    return { ok: true, result: { values: { '': '' }, contents: [] } };
  const box = { x: field.rect.x + at.dx, y: field.rect.y + at.dy, width: field.rect.width, height: field.rect.height };
  return fieldType(field.type).format({ field, raw, box, at, style, options });
}
