/**
 * One page in the editor: the PDF drawn by pdf.js and, over it, the fields and proposals. The mouse
 * draws a new field (when a type is armed) or selects by dragging a band over fields; on a field it
 * selects (Shift: adds or removes) and moves; on a handle it resizes. What a drag would make is shown
 * while it runs and becomes one step of the history when the button comes up.
 */
import { useRef, useState } from 'preact/hooks';
import { addField, moveFields, resizeField, type Doc } from '../model/editing.js';
import { defaultRect } from '../model/field-kinds.js';
import { intersects, spanned, toPoints, type Handle, type Point } from '../model/geometry.js';
import type { PlacedErrors } from '../model/server-errors.js';
import type { FieldType, PageSize, Rect } from '../model/types.js';
import type { PdfDocument } from '../io/pdf.js';
import { PdfPage } from '../ui/pdf-page.js';
import { FieldBox, PartOutlines, ProposalBox } from './field-box.js';
import type { EditorState, SelectMode } from '../model/store.js';

/** Pixels a pointer must travel before a press on a field becomes a move (a plain click does not nudge it). */
const DRAG_SLOP = 3;

type Gesture =
  | { kind: 'move'; start: Point; base: Doc; ids: readonly string[]; moved: boolean; narrowTo?: string }
  | { kind: 'resize'; start: Point; base: Doc; id: string; handle: Handle }
  | { kind: 'draw'; start: Point; base: Doc; type: FieldType }
  | { kind: 'band'; start: Point; add: boolean };

interface PageViewProps {
  index: number;
  count: number;
  size: PageSize;
  zoom: number;
  pdf?: PdfDocument;
  doc: Doc;
  state: EditorState;
  pages: readonly PageSize[];
  drawType?: FieldType;
  problems?: PlacedErrors;
  activeProposal?: number;
  onProposal(i: number): void;
  onPreview(doc: Doc | undefined): void;
  onCommit(doc: Doc, select?: readonly string[]): void;
  onSelect(ids: readonly string[], mode: SelectMode): void;
}

export function PageView(p: PageViewProps) {
  const ref = useRef<HTMLDivElement>(null);
  const [band, setBand] = useState<{ rect: Rect; drawing: boolean }>();
  const fields = p.doc.fields.filter((f) => f.pageNum === p.index);
  const selection = p.state.selection;
  const withProblem = new Set(p.problems?.fields.map((x) => x.fieldId));

  const local = (e: PointerEvent): Point => {
    const r = ref.current!.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  };

  const step = (g: Gesture, e: PointerEvent, done: boolean) => {
    const at = local(e);
    const dx = (at.x - g.start.x) / p.zoom;
    const dy = (at.y - g.start.y) / p.zoom;
    switch (g.kind) {
      case 'move': {
        g.moved ||= Math.hypot(at.x - g.start.x, at.y - g.start.y) >= DRAG_SLOP;
        // A click (no drag) on a field of a larger selection selects that field alone.
        if (!g.moved) return done && g.narrowTo ? p.onSelect([g.narrowTo], 'replace') : undefined;
        const next = moveFields(g.base, g.ids, dx, dy, p.pages);
        return done ? p.onCommit(next, g.ids) : p.onPreview(next);
      }
      case 'resize': {
        const next = resizeField(g.base, g.id, g.handle, dx, dy, p.pages);
        return done ? p.onCommit(next, [g.id]) : p.onPreview(next);
      }
      case 'draw': {
        const rect = spanned(g.start, at);
        if (!done) return setBand({ rect, drawing: true });
        setBand(undefined);
        const pts = toPoints(rect, p.zoom);
        // A click without a drag places a field of the type's usual size there.
        const wanted = rect.width < DRAG_SLOP * 2 || rect.height < DRAG_SLOP ? defaultRect(g.type, pts.x, pts.y) : pts;
        const added = addField(g.base, g.type, p.index, wanted, p.size);
        return p.onCommit(added.doc, [added.id]);
      }
      case 'band': {
        const rect = spanned(g.start, at);
        if (!done) return setBand({ rect, drawing: false });
        setBand(undefined);
        const pts = toPoints(rect, p.zoom);
        const hit = fields.filter((f) => intersects(f.rect, pts)).map((f) => f.id);
        return p.onSelect(hit, g.add ? 'add' : 'replace');
      }
    }
  };

  const begin = (e: PointerEvent, g: Gesture) => {
    if (e.button !== 0) return;
    e.preventDefault();
    const move = (ev: PointerEvent) => step(g, ev, false);
    const up = (ev: PointerEvent) => {
      removeEventListener('pointermove', move);
      removeEventListener('pointerup', up);
      removeEventListener('pointercancel', up);
      if (ev.type === 'pointercancel') {
        setBand(undefined);
        p.onPreview(undefined);
      } else step(g, ev, true);
    };
    addEventListener('pointermove', move);
    addEventListener('pointerup', up);
    addEventListener('pointercancel', up);
  };

  const onSurfaceDown = (e: PointerEvent) => {
    // A finger on the page scrolls it unless a field type is armed for drawing.
    if (e.pointerType === 'touch' && !p.drawType) return;
    const start = local(e);
    if (p.drawType) begin(e, { kind: 'draw', start, base: p.doc, type: p.drawType });
    else begin(e, { kind: 'band', start, add: e.shiftKey });
  };

  const onFieldDown = (e: PointerEvent, id: string) => {
    e.stopPropagation();
    if (e.button !== 0) return;
    const was = selection.includes(id);
    if (e.shiftKey) {
      p.onSelect([id], 'toggle');
      if (was) return;
    } else if (!was) p.onSelect([id], 'replace');
    const ids = e.shiftKey ? [...selection, id] : was ? selection : [id];
    const narrowTo = was && !e.shiftKey && selection.length > 1 ? id : undefined;
    begin(e, { kind: 'move', start: local(e), base: p.doc, ids, moved: false, narrowTo });
  };

  const single = selection.length === 1 ? selection[0] : undefined;
  return (
    <div class="page-frame">
      <p class="page-label" id={`page-label-${p.index}`}>
        Page {p.index + 1} of {p.count}
      </p>
      <div
        ref={ref}
        class={`page${p.drawType ? ' drawing' : ''}`}
        style={{ width: `${p.size.width * p.zoom}px`, height: `${p.size.height * p.zoom}px` }}
        onPointerDown={onSurfaceDown}
        role="group"
        aria-labelledby={`page-label-${p.index}`}
      >
        {p.pdf && (
          <PdfPage
            doc={p.pdf}
            index={p.index}
            zoom={p.zoom}
            width={p.size.width}
            height={p.size.height}
            label={`Page ${p.index + 1} of the PDF`}
          />
        )}
        {p.doc.proposals.map((proposal, i) =>
          proposal.field.pageNum === p.index ? (
            <ProposalBox
              key={`p${i}`}
              proposal={proposal}
              zoom={p.zoom}
              active={p.activeProposal === i}
              onActivate={() => p.onProposal(i)}
            />
          ) : null,
        )}
        {fields.map((f) => (
          <PartOutlines key={`parts-${f.id}`} field={f} zoom={p.zoom} />
        ))}
        {fields.map((f) => (
          <FieldBox
            key={f.id}
            field={f}
            zoom={p.zoom}
            selected={selection.includes(f.id)}
            handles={single === f.id}
            problem={withProblem.has(f.id)}
            onPointerDown={(e) => onFieldDown(e, f.id)}
            onHandleDown={(e, handle) => begin(e, { kind: 'resize', start: local(e), base: p.doc, id: f.id, handle })}
            onActivate={(add) => p.onSelect([f.id], add ? 'toggle' : 'replace')}
          />
        ))}
        {band && (
          <span
            class={band.drawing ? 'draw-band' : 'select-band'}
            aria-hidden="true"
            style={{
              left: `${band.rect.x}px`,
              top: `${band.rect.y}px`,
              width: `${band.rect.width}px`,
              height: `${band.rect.height}px`,
            }}
          />
        )}
      </div>
    </div>
  );
}
