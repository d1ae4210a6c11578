/**
 * The dashboard editor's pure core, without a browser: undo/redo over snapshots (runs of one key as
 * one step), the edits (draw, move and resize kept on the page, parts carried along, paste with new
 * ids, proposals accepted under free ids), alignment, the keys, points ↔ screen pixels, and the
 * editor's store (selection, clipboard, nudges as one undo step).
 */
import { describe, expect, it } from 'vitest';
import { alignFields } from '../src/dashboard/app/model/align.js';
import {
  acceptProposals,
  addField,
  docFrom,
  growFields,
  jsonOf,
  moveFields,
  pasteFields,
  rejectProposals,
  resizeField,
  updateField,
  type Doc,
} from '../src/dashboard/app/model/editing.js';
import {
  clampToPage,
  pointToPoints,
  spanned,
  splitRows,
  toPoints,
  toScreen,
} from '../src/dashboard/app/model/geometry.js';
import {
  canRedo,
  canUndo,
  HISTORY_LIMIT,
  record,
  redo,
  seal,
  startHistory,
  undo,
} from '../src/dashboard/app/model/history.js';
import { commandFor, type Command, type KeyPress } from '../src/dashboard/app/model/keymap.js';
import {
  alignSelection,
  editField,
  present,
  redoEdit,
  runCommand,
  sealRun,
  select,
  startEditor,
  undoEdit,
} from '../src/dashboard/app/model/store.js';
import type { PageSize, Rect, TemplateField } from '../src/dashboard/app/model/types.js';

const LETTER: PageSize = { width: 612, height: 792 };
const PAGES = [LETTER, { width: 300, height: 200 }];
const rect = (x: number, y: number, width = 50, height = 20): Rect => ({ x, y, width, height });
const f = (id: string, r: Rect, more: Partial<TemplateField> = {}): TemplateField => ({
  id,
  type: 'shortText',
  pageNum: 0,
  rect: r,
  ...more,
});
const doc = (...fields: TemplateField[]): Doc => docFrom({ fields });
const byId = (d: Doc, id: string) => d.fields.find((x) => x.id === id)!;

describe('history', () => {
  it('undoes and redoes snapshots; a new edit drops the redo steps', () => {
    let h = startHistory(1);
    h = record(h, 2);
    h = record(h, 3);
    expect([canUndo(h), canRedo(h)]).toEqual([true, false]);
    h = undo(h);
    expect(h.present).toBe(2);
    h = undo(h);
    expect(h.present).toBe(1);
    expect(undo(h)).toBe(h);
    h = redo(h);
    expect(h.present).toBe(2);
    h = record(h, 9);
    expect([h.present, canRedo(h)]).toEqual([9, false]);
    expect(undo(h).present).toBe(2);
  });

  it('makes a run of edits with one key one step, until sealed or another key comes', () => {
    let h = startHistory('a');
    h = record(h, 'ab', 'type:name');
    h = record(h, 'abc', 'type:name');
    h = record(h, 'abcd', 'type:name');
    expect(undo(h).present).toBe('a');
    h = seal(h);
    h = record(h, 'abcde', 'type:name');
    expect(undo(h).present).toBe('abcd');
    h = record(h, 'x', 'other');
    expect(undo(h).present).toBe('abcde');
  });

  it('ignores an edit that changes nothing and keeps at most HISTORY_LIMIT steps', () => {
    const same = { n: 1 };
    let h = startHistory(same);
    expect(record(h, same)).toBe(h);
    for (let i = 0; i < HISTORY_LIMIT + 50; i++) h = record(h, { n: i + 2 });
    expect(h.past.length).toBe(HISTORY_LIMIT);
  });
});

describe('edits', () => {
  it('draws a field with the next free id of its type, kept on the page', () => {
    const d0 = doc(f('date1', rect(0, 0)));
    const { doc: d1, id } = addField(d0, 'date', 1, rect(280, 190, 100, 40), PAGES[1]);
    expect(id).toBe('date2');
    expect(byId(d1, id).rect).toEqual({ x: 280, y: 190, width: 20, height: 10 });
    expect(d0.fields).toHaveLength(1);
  });

  it('moves a group as one, stopping at the page edge for all of them, parts carried along', () => {
    const radio = f('r', rect(10, 10, 40, 20), {
      type: 'radioGroup',
      options: [{ id: 'yes', rect: rect(10, 10, 10, 10) }],
    });
    const d = moveFields(doc(radio, f('b', rect(100, 5))), ['r', 'b'], -30, -8, PAGES);
    expect(byId(d, 'r').rect).toEqual(rect(0, 5, 40, 20));
    expect(byId(d, 'b').rect).toEqual(rect(90, 0));
    expect(byId(d, 'r').options![0].rect).toEqual(rect(0, 5, 10, 10));
  });

  it('resizes by a handle and grows by keys, never below the minimum or past the page', () => {
    const d0 = doc(f('a', rect(10, 10, 50, 20)));
    expect(byId(resizeField(d0, 'a', 'nw', 5, 5, PAGES), 'a').rect).toEqual(rect(15, 15, 45, 15));
    expect(byId(resizeField(d0, 'a', 'e', 10_000, 0, PAGES), 'a').rect).toEqual(rect(10, 10, 602, 20));
    expect(byId(resizeField(d0, 'a', 's', 0, -100, PAGES), 'a').rect.height).toBe(4);
    expect(byId(growFields(d0, ['a'], 10, -1, PAGES), 'a').rect).toEqual(rect(10, 10, 60, 19));
    const lines = f('w', rect(0, 0, 100, 20), { type: 'textWrap', lines: splitRows(rect(0, 0, 100, 20), 2) });
    const grown = byId(resizeField(doc(lines), 'w', 'se', 100, 20, PAGES), 'w');
    expect(grown.lines).toEqual([rect(0, 0, 200, 20), rect(0, 20, 200, 20)]);
  });

  it('changes properties, drops what the new type does not read, and removes emptied ones', () => {
    const d0 = doc(
      f('r', rect(0, 0), { type: 'radioGroup', options: [{ id: 'x', rect: rect(0, 0, 5, 5) }], alias: 'q' }),
    );
    const d1 = updateField(d0, 'r', { type: 'shortText', alias: undefined, format: 'x' });
    expect(byId(d1, 'r')).toEqual({ id: 'r', type: 'shortText', pageNum: 0, rect: rect(0, 0) });
    expect(updateField(d0, 'nobody', { alias: 'z' })).toBe(d0);
  });

  it('pastes copies with new ids, offset, without alias or interactive name', () => {
    const d0 = doc(f('name1', rect(600, 10, 10, 10), { alias: 'name', name: 'Name' }));
    const { doc: d1, ids } = pasteFields(d0, d0.fields, 10, PAGES);
    expect(ids).toEqual(['name2']);
    expect(byId(d1, 'name2')).toEqual({ id: 'name2', type: 'shortText', pageNum: 0, rect: rect(602, 20, 10, 10) });
  });

  it('accepts proposals under free ids and rejects others, each undoable as a snapshot', () => {
    const p = (id: string) => ({ field: f(id, rect(0, 0)), source: 'box' as const, confidence: 0.9 });
    const d0 = docFrom({ fields: [f('name', rect(0, 0))] }, [p('name'), p('city'), p('zip')]);
    const { doc: d1, ids } = acceptProposals(d0, [0, 1]);
    expect(ids).toEqual(['name1', 'city']);
    expect(d1.proposals.map((x) => x.field.id)).toEqual(['zip']);
    expect(rejectProposals(d1, [0]).proposals).toEqual([]);
    expect(d0.proposals).toHaveLength(3);
    expect(jsonOf(d1)).toEqual({ fields: d1.fields });
  });
});

describe('align', () => {
  const fields = [f('a', rect(10, 10, 50, 20)), f('b', rect(40, 60, 80, 30)), f('c', rect(5, 5), { pageNum: 1 })];
  const aligned = (mode: Parameters<typeof alignFields>[2], sel = ['b', 'a', 'c']) =>
    Object.fromEntries(alignFields(fields, sel, mode, LETTER));

  it('lines up edges and centres with the bounds of the fields on the anchor’s page', () => {
    expect(aligned('left')).toEqual({ a: rect(10, 10, 50, 20), b: rect(10, 60, 80, 30) });
    expect(aligned('right')).toEqual({ a: rect(70, 10, 50, 20), b: rect(40, 60, 80, 30) });
    expect(aligned('top')).toEqual({ a: rect(10, 10, 50, 20), b: rect(40, 10, 80, 30) });
    expect(aligned('bottom')).toEqual({ a: rect(10, 70, 50, 20), b: rect(40, 60, 80, 30) });
    expect(aligned('centerX')).toEqual({ a: rect(40, 10, 50, 20), b: rect(25, 60, 80, 30) });
    expect(aligned('centerY')).toEqual({ a: rect(10, 40, 50, 20), b: rect(40, 35, 80, 30) });
  });

  it('gives every field the anchor’s width or height; nothing for one field', () => {
    expect(aligned('sameWidth')).toEqual({ a: rect(10, 10, 80, 20), b: rect(40, 60, 80, 30) });
    expect(aligned('sameHeight', ['a', 'b'])).toEqual({ a: rect(10, 10, 50, 20), b: rect(40, 60, 80, 20) });
    expect(aligned('left', ['a', 'c']).size).toBeUndefined();
    expect(alignFields(fields, ['a', 'c'], 'left', LETTER).size).toBe(0);
  });
});

describe('keys', () => {
  const key = (k: string, mods: Partial<KeyPress> = {}): KeyPress => ({
    key: k,
    shiftKey: false,
    ctrlKey: false,
    metaKey: false,
    altKey: false,
    ...mods,
  });

  it('nudges 1 pt, 10 pt with Shift, resizes with Alt', () => {
    expect(commandFor(key('ArrowLeft'))).toEqual({ kind: 'nudge', dx: -1, dy: 0 });
    expect(commandFor(key('ArrowDown', { shiftKey: true }))).toEqual({ kind: 'nudge', dx: 0, dy: 10 });
    expect(commandFor(key('ArrowRight', { altKey: true }))).toEqual({ kind: 'grow', dw: 1, dh: 0 });
  });

  it('maps undo, redo, copy, paste, duplicate, delete with Ctrl or Cmd', () => {
    expect(commandFor(key('z', { ctrlKey: true }))).toEqual({ kind: 'undo' });
    expect(commandFor(key('Z', { metaKey: true, shiftKey: true }))).toEqual({ kind: 'redo' });
    expect(commandFor(key('y', { ctrlKey: true }))).toEqual({ kind: 'redo' });
    expect(commandFor(key('c', { ctrlKey: true }))).toEqual({ kind: 'copy' });
    expect(commandFor(key('v', { metaKey: true }))).toEqual({ kind: 'paste' });
    expect(commandFor(key('d', { ctrlKey: true }))).toEqual({ kind: 'duplicate' });
    expect(commandFor(key('Delete'))).toEqual({ kind: 'delete' });
    expect(commandFor(key('z'))).toBeUndefined();
    expect(commandFor(key('ArrowLeft', { ctrlKey: true }))).toBeUndefined();
  });
});

describe('geometry', () => {
  it('converts points and screen pixels at a zoom', () => {
    expect(toScreen(rect(10, 20, 30, 40), 1.5)).toEqual(rect(15, 30, 45, 60));
    expect(toPoints(rect(15, 30, 45, 60), 1.5)).toEqual(rect(10, 20, 30, 40));
    expect(toPoints(rect(10, 10, 10, 10), 3)).toEqual(rect(3.33, 3.33, 3.33, 3.33));
    expect(pointToPoints({ x: 100, y: 50 }, 2)).toEqual({ x: 50, y: 25 });
  });

  it('spans a drag either way and cuts a rect to the page', () => {
    expect(spanned({ x: 50, y: 10 }, { x: 20, y: 40 })).toEqual(rect(20, 10, 30, 30));
    expect(clampToPage(rect(-10, 780, 40, 40), LETTER)).toEqual(rect(0, 780, 30, 12));
    expect(clampToPage(rect(700, 10, 40, 40), LETTER)).toEqual(rect(608, 10, 4, 40));
  });
});

describe('the editor store', () => {
  const key = (kind: Command['kind'], more: object = {}) => ({ kind, ...more }) as Command;
  const start = () =>
    select(startEditor(doc(f('a', rect(10, 10)), f('b', rect(100, 100)), f('c', rect(5, 5), { pageNum: 1 }))), ['a']);

  it('makes a run of nudges of the same fields one undo step, and a nudge of others a new one', () => {
    let s = start();
    for (let i = 0; i < 3; i++) s = runCommand(s, key('nudge', { dx: 1, dy: 0 }), PAGES, 0);
    s = runCommand(s, key('nudge', { dx: 0, dy: 10 }), PAGES, 0);
    expect(byId(present(s), 'a').rect).toEqual(rect(13, 20));
    s = select(s, ['b']);
    s = runCommand(s, key('nudge', { dx: -1, dy: 0 }), PAGES, 0);
    s = undoEdit(s);
    expect(byId(present(s), 'b').rect).toEqual(rect(100, 100));
    s = undoEdit(s);
    expect(byId(present(s), 'a').rect).toEqual(rect(10, 10));
    expect(canUndo(s.history)).toBe(false);
    expect(byId(present(redoEdit(s)), 'a').rect).toEqual(rect(13, 20));
  });

  it('copies and pastes each time a step further, duplicates, deletes; undo keeps only live ids selected', () => {
    let s = runCommand(start(), key('copy'), PAGES, 0);
    s = runCommand(s, key('paste'), PAGES, 0);
    expect(s.selection).toEqual(['a1']);
    s = runCommand(s, key('paste'), PAGES, 0);
    expect(byId(present(s), 'a2').rect).toEqual(rect(30, 30));
    s = runCommand(select(s, ['b']), key('duplicate'), PAGES, 0);
    expect(s.selection).toEqual(['b1']);
    s = runCommand(s, key('delete'), PAGES, 0);
    expect([s.selection, present(s).fields.map((x) => x.id)]).toEqual([[], ['a', 'b', 'c', 'a1', 'a2']]);
    s = select(undoEdit(undoEdit(s)), ['b1', 'a']);
    expect(s.selection).toEqual(['a']);
  });

  it('selects all on the page worked on, toggles and adds, renames the selected id with the field', () => {
    let s = runCommand(start(), key('selectAll'), PAGES, 0);
    expect(s.selection).toEqual(['a', 'b']);
    s = select(s, ['a', 'c'], 'toggle');
    expect(s.selection).toEqual(['b', 'c']);
    s = editField(s, 'b', { id: 'bee' });
    expect(s.selection).toEqual(['bee', 'c']);
    expect(runCommand(s, key('clearSelection'), PAGES, 0).selection).toEqual([]);
  });

  it('aligns the selection to the first selected and typing in one input is one step', () => {
    let s = select(start(), ['b', 'a']);
    s = alignSelection(s, 'top', PAGES);
    expect(byId(present(s), 'a').rect.y).toBe(10);
    expect(byId(present(s), 'b').rect.y).toBe(10);
    s = editField(s, 'a', { alias: 'n' }, 'a:alias');
    s = editField(s, 'a', { alias: 'na' }, 'a:alias');
    s = editField(sealRun(s), 'a', { alias: 'nam' }, 'a:alias');
    expect(byId(present(undoEdit(s)), 'a').alias).toBe('na');
    expect(byId(present(undoEdit(undoEdit(s))), 'a').alias).toBeUndefined();
  });
});
