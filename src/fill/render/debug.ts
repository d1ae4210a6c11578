import type { PDFPage, RGB } from '@cantoo/pdf-lib';
import { fieldType } from '../../fields/index.js';
import type { TemplateField } from '../../template/index.js';
import type { TopLeftRect } from '../../geometry/index.js';
import type { PageFrame } from '../output/prepared-template.js';
import { toDrawBox } from './geometry.js';

/** Every box a field has: its rect and those of its lines, options, parts and rows. */
export function fieldRects(field: TemplateField): TopLeftRect[] {
  const own = fieldType(field.type).debugBoxes;
  return own
    ? own(field)
    : [
        field.rect,
        ...(field.lines ?? []),
        ...(field.options ?? []).map((o) => o.rect),
        ...Object.values(field.parts ?? {}),
        ...(field.rows ?? []),
      ];
}

export function strokeBoxes(page: PDFPage, frame: PageFrame, rects: TopLeftRect[], color: RGB): void {
  for (const r of rects) {
    const b = toDrawBox(r, frame);
    page.drawRectangle({ x: b.x, y: b.y, width: b.width, height: b.height, borderColor: color, borderWidth: 1 });
  }
}
