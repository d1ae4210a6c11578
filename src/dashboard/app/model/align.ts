/**
 * Aligning several fields: edges and centres line up with the selection's bounds (as drawing programs
 * do: "left" is the leftmost edge among them); "same width/height" takes the size of the anchor, the
 * field selected first. Only fields on the anchor's page move: a page's coordinates mean nothing on another.
 */
import { bounds, clampToPage, roundRect } from './geometry.js';
import type { PageSize, Rect, TemplateField } from './types.js';

export const ALIGN_MODES = ['left', 'centerX', 'right', 'top', 'centerY', 'bottom', 'sameWidth', 'sameHeight'] as const;
export type AlignMode = (typeof ALIGN_MODES)[number];

export const ALIGN_LABELS: Readonly<Record<AlignMode, string>> = {
  left: 'Align left edges',
  centerX: 'Align horizontal centres',
  right: 'Align right edges',
  top: 'Align top edges',
  centerY: 'Align vertical centres',
  bottom: 'Align bottom edges',
  sameWidth: 'Same width as the first selected',
  sameHeight: 'Same height as the first selected',
};

/** The new rects of the selected fields (`selection` in the order they were selected), by id. */
export function alignFields(
  fields: readonly TemplateField[],
  selection: readonly string[],
  mode: AlignMode,
  page: PageSize,
): Map<string, Rect> {
  const byId = new Map(fields.map((f) => [f.id, f]));
  const anchor = selection.map((id) => byId.get(id)).find((f) => f !== undefined);
  const out = new Map<string, Rect>();
  if (!anchor) return out;
  const group = selection.map((id) => byId.get(id)).filter((f): f is TemplateField => f?.pageNum === anchor.pageNum);
  if (group.length < 2) return out;
  const box = bounds(group.map((f) => f.rect))!;
  for (const f of group) out.set(f.id, aligned(f.rect, mode, box, anchor.rect, page));
  return out;
}

function aligned(r: Rect, mode: AlignMode, box: Rect, anchor: Rect, page: PageSize): Rect {
  switch (mode) {
    case 'left':
      return roundRect({ ...r, x: box.x });
    case 'right':
      return roundRect({ ...r, x: box.x + box.width - r.width });
    case 'centerX':
      return roundRect({ ...r, x: box.x + (box.width - r.width) / 2 });
    case 'top':
      return roundRect({ ...r, y: box.y });
    case 'bottom':
      return roundRect({ ...r, y: box.y + box.height - r.height });
    case 'centerY':
      return roundRect({ ...r, y: box.y + (box.height - r.height) / 2 });
    case 'sameWidth':
      return clampToPage({ ...r, width: anchor.width }, page);
    case 'sameHeight':
      return clampToPage({ ...r, height: anchor.height }, page);
  }
}
