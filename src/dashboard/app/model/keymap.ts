/**
 * The editor's keys, as a pure mapping from a key press to a command. Arrow keys move the selected
 * fields by 1 point (10 with Shift), Alt+arrows resize them; Ctrl (Cmd on a Mac) with Z, Shift+Z or Y,
 * C, V, D and A undo, redo, copy, paste, duplicate and select all. In a text input the browser's own
 * editing keys win: only the page and the fields take these.
 */

export interface KeyPress {
  key: string;
  shiftKey: boolean;
  ctrlKey: boolean;
  metaKey: boolean;
  altKey: boolean;
}

export type Command =
  | { kind: 'nudge'; dx: number; dy: number }
  | { kind: 'grow'; dw: number; dh: number }
  | { kind: 'delete' }
  | { kind: 'undo' }
  | { kind: 'redo' }
  | { kind: 'copy' }
  | { kind: 'paste' }
  | { kind: 'duplicate' }
  | { kind: 'selectAll' }
  | { kind: 'clearSelection' };

export const NUDGE = 1;
export const NUDGE_LARGE = 10;

const ARROWS: Readonly<Record<string, [number, number]>> = {
  ArrowLeft: [-1, 0],
  ArrowRight: [1, 0],
  ArrowUp: [0, -1],
  ArrowDown: [0, 1],
};

export function commandFor(k: KeyPress): Command | undefined {
  const mod = k.ctrlKey || k.metaKey;
  const arrow = ARROWS[k.key];
  if (arrow && !mod) {
    const step = k.shiftKey ? NUDGE_LARGE : NUDGE;
    return k.altKey
      ? { kind: 'grow', dw: arrow[0] * step, dh: arrow[1] * step }
      : { kind: 'nudge', dx: arrow[0] * step, dy: arrow[1] * step };
  }
  if (!mod) {
    if (k.key === 'Delete' || k.key === 'Backspace') return { kind: 'delete' };
    if (k.key === 'Escape') return { kind: 'clearSelection' };
    return undefined;
  }
  if (k.altKey) return undefined;
  switch (k.key.toLowerCase()) {
    case 'z':
      return k.shiftKey ? { kind: 'redo' } : { kind: 'undo' };
    case 'y':
      return k.shiftKey ? undefined : { kind: 'redo' };
    case 'c':
      return k.shiftKey ? undefined : { kind: 'copy' };
    case 'v':
      return k.shiftKey ? undefined : { kind: 'paste' };
    case 'd':
      return k.shiftKey ? undefined : { kind: 'duplicate' };
    case 'a':
      return k.shiftKey ? undefined : { kind: 'selectAll' };
    default:
      return undefined;
  }
}

/** The keys as the help panel lists them. */
export const KEY_HELP: ReadonlyArray<[string, string]> = [
  ['Tab / Shift+Tab', 'Go to the next or previous field'],
  ['Enter or Space', 'Select the field (Shift adds it to the selection)'],
  ['Arrow keys', 'Move the selected fields 1 pt (Shift: 10 pt)'],
  ['Alt+Arrow keys', 'Make the selected fields wider, narrower, taller or shorter'],
  ['Delete', 'Delete the selected fields'],
  ['Ctrl+Z / Ctrl+Shift+Z', 'Undo / redo'],
  ['Ctrl+C / Ctrl+V / Ctrl+D', 'Copy / paste / duplicate'],
  ['Ctrl+A', 'Select every field on the page'],
  ['Escape', 'Stop drawing; else clear the selection'],
];
