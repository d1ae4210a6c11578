/** What every part of the signing page's script shares: its settings, elements by id, messages. */
import type { PageEvent, SigningPageConfig } from './contract.js';
import type { Pad } from './pad.js';

/** One page's state: its settings (`cfg`, updated when the signer changes their details), the pad, the outcome. */
export interface Client {
  cfg: SigningPageConfig;
  pad: Pad;
  /** A submission is under way or succeeded: later clicks do nothing. */
  finished: boolean;
}

/** An element page.ts always renders for this mode. */
export function $<T extends HTMLElement = HTMLElement>(id: string): T {
  return document.getElementById(id) as T;
}

/** An element page.ts renders only with some options. */
export function maybe$<T extends HTMLElement = HTMLElement>(id: string): T | null {
  return document.getElementById(id) as T | null;
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

export const initialsOf = (name: string | null): string => (name || '').split(/\s+/).filter(Boolean).map((w) => (Array.from(w)[0] as string).toUpperCase()).join('');
