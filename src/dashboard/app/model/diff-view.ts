/**
 * The versions page's visual diff as boxes to draw over the pages: each status has a colour, a line
 * style and a mark with a word (never colour alone), and the legend says which is which.
 */
import { FIELD_KINDS } from './field-kinds.js';
import { sameRect } from './editing.js';
import type { FieldDiff, Rect, TemplateField } from './types.js';

export type DiffStatus = 'added' | 'removed' | 'moved-from' | 'changed' | 'unchanged';

export interface DiffBox {
  key: string;
  fieldId: string;
  pageNum: number;
  rect: Rect;
  status: DiffStatus;
  /** What a screen reader and the list say: `Added: signature1 (Signature)`. */
  label: string;
}

export interface LegendEntry {
  status: DiffStatus;
  mark: string;
  word: string;
  /** How the box is drawn, in words. */
  drawn: string;
}

export const DIFF_LEGEND: readonly LegendEntry[] = [
  { status: 'added', mark: '+', word: 'Added', drawn: 'solid green outline' },
  { status: 'removed', mark: '−', word: 'Removed', drawn: 'dashed red outline, crossed' },
  { status: 'changed', mark: '~', word: 'Changed', drawn: 'double amber outline' },
  { status: 'moved-from', mark: '←', word: 'Was here', drawn: 'dotted amber outline' },
  { status: 'unchanged', mark: '=', word: 'Unchanged', drawn: 'thin grey outline' },
];

export function legendOf(status: DiffStatus): LegendEntry {
  return DIFF_LEGEND.find((e) => e.status === status)!;
}

function named(f: TemplateField): string {
  return `${f.alias ?? f.id} (${FIELD_KINDS[f.type]?.label ?? f.type})`;
}

function box(f: TemplateField, status: DiffStatus, detail = ''): DiffBox {
  return {
    key: `${status}:${f.id}`,
    fieldId: f.id,
    pageNum: f.pageNum,
    rect: f.rect,
    status,
    label: `${legendOf(status).word}: ${named(f)}${detail}`,
  };
}

/**
 * The boxes of a diff; `to` (the later version's fields) adds its unchanged fields in grey, for context.
 * A changed field that moved shows where it was too.
 */
export function diffBoxes(diff: FieldDiff, to: readonly TemplateField[] = []): DiffBox[] {
  const touched = new Set([...diff.added.map((f) => f.id), ...diff.changed.map((c) => c.id)]);
  const out: DiffBox[] = to.filter((f) => !touched.has(f.id)).map((f) => box(f, 'unchanged'));
  for (const f of diff.removed) out.push(box(f, 'removed'));
  for (const c of diff.changed) {
    const moved = c.before.pageNum !== c.after.pageNum || !sameRect(c.before.rect, c.after.rect);
    if (moved) out.push(box(c.before, 'moved-from'));
    out.push(box(c.after, 'changed', c.keys.length > 0 ? ` — ${c.keys.join(', ')}` : ''));
  }
  for (const f of diff.added) out.push(box(f, 'added'));
  return out;
}

export function diffSummary(diff: FieldDiff): string {
  const n = (count: number, word: string) => `${count} ${word}`;
  if (diff.added.length + diff.removed.length + diff.changed.length === 0) return 'No field differs.';
  return `${n(diff.added.length, 'added')}, ${n(diff.removed.length, 'removed')}, ${n(diff.changed.length, 'changed')}.`;
}

/** The version numbers as the selects name them: -1 is the working version. */
export function versionName(n: number): string {
  return n === -1 ? 'Working version' : `Version ${n}`;
}
