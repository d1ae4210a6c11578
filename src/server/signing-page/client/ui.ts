/** What every part of the signing page's script shares: its settings, elements by id, messages. */
import type {
  DetailsRequest,
  HandOverRequest,
  PageEvent,
  SigningAnswer,
  SigningPageConfig,
  SubmitRequest,
} from './contract.js';
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
export function post(cfg: Pick<SigningPageConfig, 'withinIframe'>, msg: PageEvent): void {
  if (cfg.withinIframe && window.parent !== window) window.parent.postMessage(msg, '*');
}

/** POSTs a body of the contract as JSON, without cookies (the token is the credential); the answer, {} when none. */
export async function postJson(
  url: string,
  body: DetailsRequest | SubmitRequest | HandOverRequest,
): Promise<{ ok: boolean; answer: SigningAnswer }> {
  const r = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
    credentials: 'omit',
  });
  return { ok: r.ok, answer: (await r.json().catch(() => ({}))) as SigningAnswer };
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
