/**
 * The editor's state as one value and pure functions from a state to the next: the document's
 * history, the selection (ids in the order they were selected: the first is the anchor that align
 * follows) and the clipboard. The components hold one of these and replace it; nothing here touches
 * the page.
 */
import { alignFields, type AlignMode } from './align.js';
import { growFields, moveFields, pasteFields, removeFields, setRects, updateField, type Doc } from './editing.js';
import { record, redo, seal, startHistory, undo, type History } from './history.js';
import type { Command } from './keymap.js';
import type { PlacedErrors } from './server-errors.js';
import type { PageSize, TemplateField } from './types.js';

export interface EditorState {
  history: History<Doc>;
  selection: readonly string[];
  clipboard: readonly TemplateField[];
}

/** What each side panel is given: the state, the way to change it, the pages and the last save's problems. */
export interface PanelProps {
  state: EditorState;
  update(change: (s: EditorState) => EditorState): void;
  pages: readonly PageSize[];
  problems?: PlacedErrors;
}

/** How far a paste or a duplicate lands from the original, in points. */
export const PASTE_OFFSET = 10;

export function startEditor(doc: Doc): EditorState {
  return { history: startHistory(doc), selection: [], clipboard: [] };
}

export function present(s: EditorState): Doc {
  return s.history.present;
}

export function selectedFields(s: EditorState): TemplateField[] {
  const fields = present(s).fields;
  return s.selection.map((id) => fields.find((f) => f.id === id)).filter((f): f is TemplateField => !!f);
}

function existing(doc: Doc, ids: readonly string[]): string[] {
  const have = new Set(doc.fields.map((f) => f.id));
  return ids.filter((id) => have.has(id));
}

/** A new document as one step (or part of the run `key`), selecting `select` when given. */
export function commit(s: EditorState, next: Doc, options: { key?: string; select?: readonly string[] } = {}) {
  const history = record(s.history, next, options.key);
  return { ...s, history, selection: existing(next, options.select ?? s.selection) };
}

/** Ends a run of same-key edits (an input lost focus, a drag ended). */
export function sealRun(s: EditorState): EditorState {
  const history = seal(s.history);
  return history === s.history ? s : { ...s, history };
}

export type SelectMode = 'replace' | 'toggle' | 'add';

export function select(s: EditorState, ids: readonly string[], mode: SelectMode = 'replace'): EditorState {
  let selection: string[];
  if (mode === 'replace') selection = [...ids];
  else if (mode === 'add') selection = [...s.selection, ...ids.filter((id) => !s.selection.includes(id))];
  else {
    const flip = new Set(ids);
    selection = [...s.selection.filter((id) => !flip.has(id)), ...ids.filter((id) => !s.selection.includes(id))];
  }
  return { ...s, selection: existing(present(s), selection) };
}

export function undoEdit(s: EditorState): EditorState {
  const history = undo(s.history);
  return history === s.history ? s : { ...s, history, selection: existing(history.present, s.selection) };
}

export function redoEdit(s: EditorState): EditorState {
  const history = redo(s.history);
  return history === s.history ? s : { ...s, history, selection: existing(history.present, s.selection) };
}

/** One property edit of one field; renaming the id keeps it selected under the new id. */
export function editField(s: EditorState, id: string, patch: Partial<TemplateField>, key?: string): EditorState {
  const next = updateField(present(s), id, patch);
  const renamed = patch.id !== undefined && patch.id !== id ? patch.id : undefined;
  const selection = renamed ? s.selection.map((x) => (x === id ? renamed : x)) : s.selection;
  return commit(s, next, { key, select: selection });
}

export function alignSelection(s: EditorState, mode: AlignMode, pages: readonly PageSize[]): EditorState {
  const first = selectedFields(s)[0];
  if (!first) return s;
  const rects = alignFields(present(s).fields, s.selection, mode, pages[first.pageNum] ?? pages[0]);
  return rects.size === 0 ? s : commit(s, setRects(present(s), rects));
}

/**
 * A key command on the selection. `page` is the page the person works on (select all takes its fields).
 * Nudges of the same fields one after another are one step to undo.
 */
export function runCommand(s: EditorState, cmd: Command, pages: readonly PageSize[], page: number): EditorState {
  const doc = present(s);
  const run = s.selection.join(',');
  switch (cmd.kind) {
    case 'nudge':
      return commit(s, moveFields(doc, s.selection, cmd.dx, cmd.dy, pages), { key: `nudge:${run}` });
    case 'grow':
      return commit(s, growFields(doc, s.selection, cmd.dw, cmd.dh, pages), { key: `grow:${run}` });
    case 'delete':
      return s.selection.length === 0 ? s : commit(s, removeFields(doc, s.selection), { select: [] });
    case 'undo':
      return undoEdit(s);
    case 'redo':
      return redoEdit(s);
    case 'copy':
      return s.selection.length === 0 ? s : { ...s, clipboard: selectedFields(s) };
    case 'paste': {
      if (s.clipboard.length === 0) return s;
      const pasted = pasteFields(doc, s.clipboard, PASTE_OFFSET, pages);
      // The next paste lands another step further, as in drawing programs.
      const clipboard = pasted.doc.fields.filter((f) => pasted.ids.includes(f.id));
      return { ...commit(s, pasted.doc, { select: pasted.ids }), clipboard };
    }
    case 'duplicate': {
      const chosen = selectedFields(s);
      if (chosen.length === 0) return s;
      const pasted = pasteFields(doc, chosen, PASTE_OFFSET, pages);
      return commit(s, pasted.doc, { select: pasted.ids });
    }
    case 'selectAll':
      return select(
        s,
        doc.fields.filter((f) => f.pageNum === page).map((f) => f.id),
      );
    case 'clearSelection':
      return select(s, []);
  }
}
