/** What every part of the signing page's script shares: its settings, elements by id, messages. */
import type { PageEvent, SigningPageConfig } from './contract.js';
import type { Pad } from './pad.js';

// Elements by id live in dom.ts (pad.ts needs them too; importing them from here would be a cycle).
import { $ } from './dom.js';
export { $, maybe$ } from './dom.js';

/** One page's state: its settings (`cfg`, updated when the signer changes their details), the pad, the outcome. */
export interface Client {
  cfg: SigningPageConfig;
  pad: Pad;
  /** A submission is under way or succeeded: later clicks do nothing. */
  finished: boolean;
}

/** Tells the parent frame (withinIframe only). */
export function post(cfg: SigningPageConfig, msg: PageEvent): void {
  if (cfg.withinIframe && window.parent !== window) window.parent.postMessage(msg, '*');
}

/** The status line. */
export function say(text: string, cls?: string): void {
  const status = $('status');
  status.textContent = text;
  status.className = cls || '';
}

export const initialsOf = (name: string | null): string =>
  (name || '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => (Array.from(w)[0] as string).toUpperCase())
    .join('');
