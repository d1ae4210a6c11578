/**
 * The properties panel's inputs: each labelled, with its hint and the server's message for it. Text
 * commits as it is typed (one undo step per input until it loses focus); numbers commit when they
 * read as a number; an id commits when it leaves the input, once it is free.
 */
import type { ComponentChildren } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { FieldRow } from '../ui/controls.js';

interface Common {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  onBlur?(): void;
}

export function TextInput(p: Common & { value: string | undefined; onInput(v: string): void; placeholder?: string }) {
  return (
    <FieldRow id={p.id} label={p.label} hint={p.hint} error={p.error}>
      {(describedBy, invalid) => (
        <input
          id={p.id}
          type="text"
          value={p.value ?? ''}
          placeholder={p.placeholder}
          onInput={(e) => p.onInput(e.currentTarget.value)}
          onBlur={p.onBlur}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          spellcheck={false}
        />
      )}
    </FieldRow>
  );
}

/** A text input that commits when it is left (or on Enter), after `check` accepts the value. */
export function CommitInput(
  p: Common & { value: string; check(v: string): string | undefined; onCommit(v: string): void },
) {
  const [text, setText] = useState(p.value);
  const [local, setLocal] = useState<string>();
  // Another field (or an undo) shows another value: what was typed and its message go.
  useEffect(() => {
    setText(p.value);
    setLocal(undefined);
  }, [p.value]);
  const commit = () => {
    if (text === p.value) return setLocal(undefined);
    const problem = p.check(text);
    setLocal(problem);
    if (!problem) p.onCommit(text);
  };
  return (
    <FieldRow id={p.id} label={p.label} hint={p.hint} error={local ?? p.error}>
      {(describedBy, invalid) => (
        <input
          id={p.id}
          type="text"
          value={text}
          onInput={(e) => setText(e.currentTarget.value)}
          onBlur={commit}
          onKeyDown={(e) => {
            if (e.key !== 'Enter') return;
            commit();
            // A new id mounts the panel anew (it is keyed by the field): the focus stays in this input.
            requestAnimationFrame(() => document.getElementById(p.id)?.focus());
          }}
          aria-describedby={describedBy}
          aria-invalid={invalid}
          spellcheck={false}
        />
      )}
    </FieldRow>
  );
}

/**
 * A number: what is typed stays as typed while the input has focus ("1." on the way to "1.5"), and
 * commits whenever it reads as a number in range; empty means "not set" where `optional`.
 */
export function NumberInput(
  p: Common & {
    value: number | undefined;
    onValue(v: number | undefined): void;
    min?: number;
    max?: number;
    step?: number;
    integer?: boolean;
    optional?: boolean;
  },
) {
  const [text, setText] = useState(p.value === undefined ? '' : String(p.value));
  const [focused, setFocused] = useState(false);
  const [local, setLocal] = useState<string>();
  useEffect(() => {
    if (!focused) setText(p.value === undefined ? '' : String(p.value));
  }, [p.value, focused]);
  const read = (s: string) => {
    setText(s);
    if (s.trim() === '') {
      if (p.optional) {
        setLocal(undefined);
        return p.onValue(undefined);
      }
      return setLocal('Enter a number');
    }
    const n = Number(s);
    if (!Number.isFinite(n)) return setLocal('Enter a number');
    if (p.integer && !Number.isInteger(n)) return setLocal('Enter a whole number');
    if (p.min !== undefined && n < p.min) return setLocal(`At least ${p.min}`);
    if (p.max !== undefined && n > p.max) return setLocal(`At most ${p.max}`);
    setLocal(undefined);
    p.onValue(n);
  };
  return (
    <FieldRow id={p.id} label={p.label} hint={p.hint} error={local ?? p.error} class="number">
      {(describedBy, invalid) => (
        <input
          id={p.id}
          type="text"
          inputMode="decimal"
          value={text}
          onInput={(e) => read(e.currentTarget.value)}
          onFocus={() => setFocused(true)}
          onBlur={() => {
            setFocused(false);
            setLocal(undefined);
            p.onBlur?.();
          }}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        />
      )}
    </FieldRow>
  );
}

export function SelectInput(p: Common & { value: string; onValue(v: string): void; children: ComponentChildren }) {
  return (
    <FieldRow id={p.id} label={p.label} hint={p.hint} error={p.error}>
      {(describedBy, invalid) => (
        <select
          id={p.id}
          value={p.value}
          onChange={(e) => p.onValue(e.currentTarget.value)}
          aria-describedby={describedBy}
          aria-invalid={invalid}
        >
          {p.children}
        </select>
      )}
    </FieldRow>
  );
}

export function CheckInput(p: Common & { checked: boolean; onValue(v: boolean): void }) {
  return (
    <div class={`check-row${p.error ? ' has-error' : ''}`}>
      <input
        id={p.id}
        type="checkbox"
        checked={p.checked}
        onChange={(e) => p.onValue(e.currentTarget.checked)}
        aria-describedby={p.error ? `${p.id}-error` : undefined}
        aria-invalid={!!p.error}
      />
      <label for={p.id}>{p.label}</label>
      {p.error && (
        <p class="error" id={`${p.id}-error`}>
          {p.error}
        </p>
      )}
    </div>
  );
}
