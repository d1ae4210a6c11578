/** Finishing: the submission, and what the page shows after it. */
import type { SubmitRequest } from './contract.js';
import { changedDetails } from './details.js';
import { $, maybe$, post, postJson, say, type Client } from './ui.js';

export async function submit(client: Client, body: Omit<SubmitRequest, 'token'>): Promise<void> {
  const { cfg } = client;
  if (client.finished) return;
  if (!(await changedDetails(client))) return;
  client.finished = true;
  say('Signing…');
  const { ok, answer: out } = await postJson(cfg.submit, {
    token: cfg.token,
    documentsVersion: cfg.documentsVersion,
    ...body,
    ...browserTimeZone(),
  });
  if (out.event) post(cfg, out.event);
  if (out.redirect) {
    window.location.assign(out.redirect);
    return;
  }
  if (!ok) {
    client.finished = false;
    say(cfg.errorText + ' ' + ((out.event && out.event.message) || 'error'), 'error');
    // Signing that ended at the last box has no button yet: Finish is how to try again.
    const again = $<HTMLButtonElement>('finish');
    again.hidden = false;
    again.disabled = false;
    return;
  }
  say(cfg.completed, 'done');
  for (const b of document.querySelectorAll<HTMLButtonElement>('#finish, #next')) b.disabled = true;
  // The finish button stays, as a record of the outcome, labelled completedButtonText.
  const done = maybe$('finish');
  if (done) {
    done.textContent = cfg.completedButtonText;
    done.hidden = false;
  }
  document.body.classList.add('signed');
}

/** The browser's IANA time zone, for the certificate of completion's audit trail; none when it has none. */
function browserTimeZone(): { timeZone?: string } {
  try {
    const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
    return typeof zone === 'string' && zone !== '' ? { timeZone: zone } : {};
  } catch {
    return {};
  }
}
