/**
 * Saving the working version: a moment after the last edit (and at once on Save or before a publish
 * or a preview), one save at a time, again if edits came while one ran. A 400 is placed on the fields
 * and inputs it names and waits for the next edit; the state is shown and announced.
 */
import { useEffect, useRef, useState } from 'preact/hooks';
import { ApiError, api, describeError } from '../io/api.js';
import { jsonOf, type Doc } from '../model/editing.js';
import { placeErrors, type PlacedErrors } from '../model/server-errors.js';
import type { TemplateDetail, TemplateJson } from '../model/types.js';

export type SaveState =
  | { kind: 'saved' }
  | { kind: 'dirty' }
  | { kind: 'saving' }
  | { kind: 'invalid'; count: number }
  | { kind: 'failed'; message: string };

/** The pause after the last edit before it is saved. */
export const AUTOSAVE_MS = 800;

export function saveStateText(s: SaveState): string {
  switch (s.kind) {
    case 'saved':
      return 'All changes saved';
    case 'dirty':
      return 'Unsaved changes';
    case 'saving':
      return 'Saving…';
    case 'invalid':
      return `Not saved: ${s.count} problem${s.count === 1 ? '' : 's'} to fix (marked on the fields)`;
    case 'failed':
      return `Not saved: ${s.message}`;
  }
}

export interface Autosave {
  state: SaveState;
  problems?: PlacedErrors;
  /** Saves now if anything changed; true when the working version on the server is the document. */
  flush(): Promise<boolean>;
}

export function useAutosave(eid: string, doc: Doc, saved: TemplateJson, onSaved: (d: TemplateDetail) => void) {
  const [state, setState] = useState<SaveState>({ kind: 'saved' });
  const [problems, setProblems] = useState<PlacedErrors>();
  const lastSaved = useRef(JSON.stringify(saved));
  const current = useRef(doc);
  const running = useRef<Promise<boolean>>();
  const timer = useRef<ReturnType<typeof setTimeout>>();
  current.current = doc;

  const saveOnce = async (): Promise<boolean> => {
    const body = jsonOf(current.current);
    const text = JSON.stringify(body);
    if (text === lastSaved.current) return true;
    setState({ kind: 'saving' });
    try {
      const detail = await api.saveWorking(eid, body);
      lastSaved.current = text;
      setProblems(undefined);
      onSaved(detail);
      const changedSince = JSON.stringify(jsonOf(current.current)) !== text;
      setState({ kind: changedSince ? 'dirty' : 'saved' });
      return !changedSince || saveOnce();
    } catch (e) {
      if (e instanceof ApiError && e.status === 400 && e.body.fields.length > 0) {
        setProblems(placeErrors(e.body.fields, body.fields));
        setState({ kind: 'invalid', count: e.body.fields.length });
      } else setState({ kind: 'failed', message: describeError(e) });
      return false;
    }
  };

  const flush = async (): Promise<boolean> => {
    clearTimeout(timer.current);
    timer.current = undefined;
    while (running.current) await running.current;
    running.current = saveOnce().finally(() => {
      running.current = undefined;
    });
    return running.current;
  };

  useEffect(() => {
    if (JSON.stringify(jsonOf(doc)) === lastSaved.current) return;
    if (!running.current) setState({ kind: 'dirty' });
    clearTimeout(timer.current);
    timer.current = setTimeout(() => void flush(), AUTOSAVE_MS);
  }, [doc]);

  useEffect(() => {
    // Leaving the page with edits not saved yet: the browser asks first.
    const unload = (e: BeforeUnloadEvent) => {
      if (JSON.stringify(jsonOf(current.current)) !== lastSaved.current) e.preventDefault();
    };
    addEventListener('beforeunload', unload);
    return () => {
      removeEventListener('beforeunload', unload);
      // Leaving the editor inside the app: what was waiting for the pause is saved now.
      if (timer.current !== undefined) {
        clearTimeout(timer.current);
        void saveOnce();
      }
    };
  }, []);

  return { state, problems, flush } satisfies Autosave;
}
