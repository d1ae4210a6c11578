import type { Insets } from '../geometry/index.js';
import type { LengthUnit } from '../schema/index.js';

/** CSS absolute units in PDF points (1pt = 1/72in, 1px = 1/96in). em and rem use the CSS initial font size, 16px. */
const POINTS_PER_UNIT: Record<LengthUnit, number> = {
  pt: 1,
  px: 0.75,
  in: 72,
  cm: 72 / 2.54,
  mm: 72 / 25.4,
  pc: 12,
  em: 12,
  rem: 12,
};

/** `"20mm"` → 56.69. Input is a length already validated by the schema (or `0px`). */
export function lengthToPoints(length: string): number {
  const m = /^(\d+(?:\.\d+)?|\.\d+)(mm|cm|in|px|em|rem|pt|pc)$/.exec(length.trim());
  if (!m) throw new Error(`Not a validated length: ${length}`);
  return Number(m[1]) * POINTS_PER_UNIT[m[2] as LengthUnit];
}

/** CSS shorthand order (Insets: src/geometry): 1 value = all, 2 = vertical horizontal, 3 = top horizontal bottom, 4 = top right bottom left. */
export function marginShorthandToPoints(shorthand: string): Insets {
  const v = shorthand.trim().split(/\s+/).map(lengthToPoints);
  const [top, right = top, bottom = top, left = right] = v;
  return { top, right, bottom, left };
}
