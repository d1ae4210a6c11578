/**
 * In person: the hand-over step page.ts renders before everything else. The signer types their
 * name; the service compares it (case and spaces ignored) and, once it matches, serves the documents.
 * A wrong name shows the service's message and nothing else happens.
 */
import { $, maybe$, postJson, type Client } from './ui.js';

/** Resolves once the hand-over was confirmed (at once when none is asked). */
export function handOver(client: Client): Promise<void> {
  const { cfg } = client;
  const step = cfg.handOver;
  const section = maybe$('hand-over');
  if (!step || !section) return Promise.resolve();
  const input = $<HTMLInputElement>('hand-over-name');
  const error = $('hand-over-error');
  const ok = $<HTMLButtonElement>('hand-over-ok');
  input.focus();
  return new Promise((resolve) => {
    $('hand-over-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const name = input.value.trim();
      if (!name) {
        error.textContent = 'Please type your full name.';
        return;
      }
      ok.disabled = true;
      error.textContent = '';
      try {
        const { ok: accepted, answer } = await postJson(step.url, { token: cfg.token, name });
        if (!accepted) {
          error.textContent = (answer.event && answer.event.message) || cfg.errorText;
          input.select();
          return;
        }
      } catch {
        error.textContent = cfg.errorText + ' the name could not be checked; try again.';
        return;
      } finally {
        ok.disabled = false;
      }
      section.hidden = true;
      $('signing').hidden = false;
      resolve();
    });
  });
}
