/**
 * Form pieces used on every screen: a labelled input with its hint and its error tied to it
 * (aria-describedby, aria-invalid), and links that move between client routes without a reload.
 */
import type { ComponentChildren, JSX } from 'preact';
import { useApp } from './context.js';
import { pathOf, type Route } from '../io/route.js';

let counter = 0;
/** An id unique in the page, for labels and descriptions. */
export function uid(prefix: string): string {
  counter += 1;
  return `${prefix}-${counter}`;
}

export function Link(props: { to: Route; class?: string; children: ComponentChildren; 'aria-label'?: string }) {
  const { navigate } = useApp();
  const href = pathOf(props.to);
  const click = (e: MouseEvent) => {
    if (e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigate(props.to);
  };
  return (
    <a href={href} class={props.class} onClick={click} aria-label={props['aria-label']}>
      {props.children}
    </a>
  );
}

interface FieldRowProps {
  id: string;
  label: string;
  hint?: string;
  error?: string;
  children: (describedBy: string | undefined, invalid: boolean) => JSX.Element;
  class?: string;
}

/** A label, the control (given the ids that describe it) and, under it, its hint and error. */
export function FieldRow({ id, label, hint, error, children, class: cls }: FieldRowProps) {
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  const describedBy = [hintId, errorId].filter(Boolean).join(' ') || undefined;
  return (
    <div class={`field-row${error ? ' has-error' : ''}${cls ? ` ${cls}` : ''}`}>
      <label for={id}>{label}</label>
      {children(describedBy, !!error)}
      {hint && (
        <p class="hint" id={hintId}>
          {hint}
        </p>
      )}
      {error && (
        <p class="error" id={errorId}>
          {error}
        </p>
      )}
    </div>
  );
}

/** An alert shown in the flow of the page (role=alert: read when it appears). */
export function ErrorNote({ message }: { message: string | undefined }) {
  return message ? (
    <p class="error-note" role="alert">
      {message}
    </p>
  ) : null;
}
