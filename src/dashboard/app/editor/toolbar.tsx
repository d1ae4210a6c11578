/**
 * The editor's buttons: add a field (drawn on the page with the mouse, or placed at once for the
 * keyboard and then set exactly in the properties), undo and redo, the clipboard, align, zoom.
 */
import { ALIGN_LABELS, ALIGN_MODES, type AlignMode } from '../model/align.js';
import { addField } from '../model/editing.js';
import { defaultRect, FIELD_KINDS } from '../model/field-kinds.js';
import { canRedo, canUndo } from '../model/history.js';
import type { Command } from '../model/keymap.js';
import type { FieldType, PageSize } from '../model/types.js';
import { alignSelection, commit, present, runCommand, type EditorState } from '../model/store.js';
import { TypeMenu } from '../ui/type-menu.js';

export const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2] as const;

/** Where a field added without the mouse lands: near the top-left, moved down for each one already there. */
const ADD_AT = 36;

const ALIGN_WORDS: Readonly<Record<AlignMode, string>> = {
  left: 'Left',
  centerX: 'Centre',
  right: 'Right',
  top: 'Top',
  centerY: 'Middle',
  bottom: 'Bottom',
  sameWidth: 'Same width',
  sameHeight: 'Same height',
};

interface ToolbarProps {
  state: EditorState;
  update(change: (s: EditorState) => EditorState): void;
  pages: readonly PageSize[];
  zoom: number;
  setZoom(z: number): void;
  drawType: FieldType;
  setDrawType(t: FieldType): void;
  drawing: boolean;
  setDrawing(on: boolean): void;
  workPage: number;
  setWorkPage(p: number): void;
  focusField(id: string): void;
}

export function Toolbar(p: ToolbarProps) {
  const { state, update, pages } = p;
  const doc = present(state);
  const none = state.selection.length === 0;
  const cmd = (c: Command) => update((s) => runCommand(s, c, pages, p.workPage));

  const addNow = () => {
    const size = pages[p.workPage] ?? pages[0];
    const onPage = doc.fields.filter((f) => f.pageNum === p.workPage).length;
    const at = defaultRect(p.drawType, ADD_AT, ADD_AT + (onPage % 20) * 24);
    const added = addField(doc, p.drawType, p.workPage, at, size);
    update((s) => commit(s, added.doc, { select: [added.id] }));
    p.focusField(added.id);
  };

  return (
    <div class="toolbar">
      <div class="group" role="group" aria-label="Add a field">
        <label for="draw-type">Field type</label>
        <select id="draw-type" value={p.drawType} onChange={(e) => p.setDrawType(e.currentTarget.value as FieldType)}>
          <TypeMenu />
        </select>
        <button type="button" aria-pressed={p.drawing} onClick={() => p.setDrawing(!p.drawing)} class="draw-toggle">
          Draw on page
        </button>
        {p.drawing && (
          <span class="hint">Drag on a page to draw a {FIELD_KINDS[p.drawType].label.toLowerCase()} field</span>
        )}
        {pages.length > 1 && (
          <>
            <label for="work-page">Page</label>
            <select id="work-page" value={p.workPage} onChange={(e) => p.setWorkPage(Number(e.currentTarget.value))}>
              {pages.map((_, i) => (
                <option key={i} value={i}>
                  {i + 1}
                </option>
              ))}
            </select>
          </>
        )}
        <button type="button" onClick={addNow}>
          Add field
        </button>
      </div>
      <div class="group" role="group" aria-label="Edit">
        <button type="button" onClick={() => cmd({ kind: 'undo' })} disabled={!canUndo(state.history)}>
          Undo
        </button>
        <button type="button" onClick={() => cmd({ kind: 'redo' })} disabled={!canRedo(state.history)}>
          Redo
        </button>
        <button type="button" onClick={() => cmd({ kind: 'copy' })} disabled={none}>
          Copy
        </button>
        <button type="button" onClick={() => cmd({ kind: 'paste' })} disabled={state.clipboard.length === 0}>
          Paste
        </button>
        <button type="button" onClick={() => cmd({ kind: 'duplicate' })} disabled={none}>
          Duplicate
        </button>
        <button type="button" class="danger" onClick={() => cmd({ kind: 'delete' })} disabled={none}>
          Delete
        </button>
      </div>
      <div class="group" role="group" aria-label="Align the selected fields">
        {ALIGN_MODES.map((m) => (
          <button
            key={m}
            type="button"
            title={ALIGN_LABELS[m]}
            disabled={state.selection.length < 2}
            onClick={() => update((s) => alignSelection(s, m, pages))}
          >
            {ALIGN_WORDS[m]}
          </button>
        ))}
      </div>
      <div class="group">
        <label for="zoom">Zoom</label>
        <select id="zoom" value={p.zoom} onChange={(e) => p.setZoom(Number(e.currentTarget.value))}>
          {ZOOMS.map((z) => (
            <option key={z} value={z}>
              {Math.round(z * 100)}%
            </option>
          ))}
        </select>
      </div>
    </div>
  );
}
