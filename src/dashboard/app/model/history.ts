/**
 * Undo and redo as pure functions over snapshots. A document is never changed in place, so a snapshot
 * is the document itself. Edits that carry the same key one after another (nudging the same fields,
 * typing in the same input) are one step: undo takes back the whole run, not one keystroke.
 */

export interface History<T> {
  past: readonly T[];
  present: T;
  future: readonly T[];
  /** The key of the last edit, while a run of same-key edits may still join it. */
  runKey?: string;
}

/** How many steps undo goes back at most. */
export const HISTORY_LIMIT = 200;

export function startHistory<T>(present: T): History<T> {
  return { past: [], present, future: [] };
}

/**
 * `next` as the new present. With a `key` equal to the last edit's, it replaces that edit (one step);
 * an edit that changes nothing (the same object) is not a step.
 */
export function record<T>(h: History<T>, next: T, key?: string): History<T> {
  if (next === h.present) return h;
  if (key !== undefined && key === h.runKey) return { past: h.past, present: next, future: [], runKey: key };
  const past = [...h.past, h.present].slice(-HISTORY_LIMIT);
  return { past, present: next, future: [], runKey: key };
}

/** Ends the current run: the next edit is a step of its own even with the same key. */
export function seal<T>(h: History<T>): History<T> {
  return h.runKey === undefined ? h : { ...h, runKey: undefined };
}

export function canUndo<T>(h: History<T>): boolean {
  return h.past.length > 0;
}

export function canRedo<T>(h: History<T>): boolean {
  return h.future.length > 0;
}

export function undo<T>(h: History<T>): History<T> {
  if (h.past.length === 0) return h;
  return { past: h.past.slice(0, -1), present: h.past[h.past.length - 1], future: [h.present, ...h.future] };
}

export function redo<T>(h: History<T>): History<T> {
  if (h.future.length === 0) return h;
  return { past: [...h.past, h.present], present: h.future[0], future: h.future.slice(1) };
}
