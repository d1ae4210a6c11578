/**
 * A field over the page: a button (Tab reaches it, Enter or Space selects it, Shift adds it to the
 * selection), at least 24 × 24 CSS px to hit however small the field, with the field's own rect drawn
 * inside it. The selected field, alone, shows its eight resize handles (the mouse's; the keyboard has
 * Alt+arrows and the properties' exact numbers).
 */
import { FIELD_KINDS } from '../model/field-kinds.js';
import { HANDLES, toScreen, type Handle } from '../model/geometry.js';
import type { Proposal, Rect, TemplateField } from '../model/types.js';

/** The smallest target a pointer or a finger is given (WCAG 2.2 target size). */
export const MIN_TARGET = 24;

/** The hit area around a drawn rect (px): the rect itself, grown to MIN_TARGET about its centre. */
export function hitArea(r: Rect): Rect {
  const width = Math.max(r.width, MIN_TARGET);
  const height = Math.max(r.height, MIN_TARGET);
  return { x: r.x - (width - r.width) / 2, y: r.y - (height - r.height) / 2, width, height };
}

const px = (r: Rect) => ({ left: `${r.x}px`, top: `${r.y}px`, width: `${r.width}px`, height: `${r.height}px` });

interface BoxProps {
  field: TemplateField;
  zoom: number;
  selected: boolean;
  handles: boolean;
  problem: boolean;
  onPointerDown(e: PointerEvent): void;
  onHandleDown(e: PointerEvent, handle: Handle): void;
  onActivate(add: boolean): void;
}

export function FieldBox({ field, zoom, selected, handles, problem, ...on }: BoxProps) {
  const drawn = toScreen(field.rect, zoom);
  const hit = hitArea(drawn);
  const name = field.alias ?? field.id;
  const kind = FIELD_KINDS[field.type];
  return (
    <button
      type="button"
      class={`field-box type-${field.type}${selected ? ' selected' : ''}${problem ? ' problem' : ''}`}
      style={px(hit)}
      data-field-id={field.id}
      aria-pressed={selected}
      aria-label={`${kind?.label ?? field.type} field ${name}${problem ? ' (has a problem)' : ''}`}
      onPointerDown={(e) => on.onPointerDown(e)}
      // A click the keyboard made (detail 0): the pointer's clicks select on pointerdown already.
      onClick={(e) => e.detail === 0 && on.onActivate(e.shiftKey)}
    >
      <span
        class="outline"
        style={px({ x: drawn.x - hit.x, y: drawn.y - hit.y, width: drawn.width, height: drawn.height })}
      >
        <span class="name">{name}</span>
        {handles &&
          HANDLES.map((h) => (
            <span
              key={h}
              class={`handle handle-${h}`}
              aria-hidden="true"
              onPointerDown={(e) => {
                e.stopPropagation();
                on.onHandleDown(e, h);
              }}
            />
          ))}
      </span>
    </button>
  );
}

export function ProposalBox(props: { proposal: Proposal; zoom: number; active: boolean; onActivate(): void }) {
  const { field, label, source } = props.proposal;
  const drawn = toScreen(field.rect, props.zoom);
  const hit = hitArea(drawn);
  const name = label ?? field.alias ?? field.id;
  return (
    <button
      type="button"
      class={`proposal-box${props.active ? ' active' : ''}`}
      style={px(hit)}
      aria-pressed={props.active}
      aria-label={`Proposed ${FIELD_KINDS[field.type]?.label ?? field.type} field ${name} (found by ${source})`}
      onPointerDown={(e) => e.stopPropagation()}
      onClick={props.onActivate}
    >
      <span
        class="outline"
        style={px({ x: drawn.x - hit.x, y: drawn.y - hit.y, width: drawn.width, height: drawn.height })}
      >
        <span class="name">{name}</span>
      </span>
    </button>
  );
}

/** The rects a field holds inside it (options, lines, parts, rows), drawn for the eye only. */
export function partRects(f: TemplateField): Array<{ key: string; rect: Rect; label: string }> {
  const out: Array<{ key: string; rect: Rect; label: string }> = [];
  f.options?.forEach((o, i) => out.push({ key: `o${i}`, rect: o.rect, label: o.id }));
  f.lines?.forEach((r, i) => out.push({ key: `l${i}`, rect: r, label: `line ${i + 1}` }));
  f.rows?.forEach((r, i) => out.push({ key: `r${i}`, rect: r, label: `row ${i + 1}` }));
  for (const [k, r] of Object.entries(f.parts ?? {})) out.push({ key: `p${k}`, rect: r, label: k });
  return out;
}

export function PartOutlines({ field, zoom }: { field: TemplateField; zoom: number }) {
  return (
    <>
      {partRects(field).map((p) => (
        <span key={p.key} class="part-outline" aria-hidden="true" style={px(toScreen(p.rect, zoom))}>
          <span class="name">{p.label}</span>
        </span>
      ))}
    </>
  );
}
