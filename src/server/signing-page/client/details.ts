/** The signer's details: allowNameChange / allowEmailChange, requireNameOnLoad / requireEmailOnLoad. */
import type { DetailsRequest } from './contract.js';
import { $, maybe$, postJson, say, type Client } from './ui.js';

type Change = Omit<DetailsRequest, 'token'>;

function setInput(id: string, value: string): void {
  const input = maybe$<HTMLInputElement>(id);
  if (input) input.value = value;
}

/**
 * The texts page.ts filled with the name (`{{signer.name}}` in the title, description and consent
 * text) show the new one: the certificate of completion quotes the consent text with the name the
 * signer has when they finish, and the page must have shown them that text.
 */
function renameInTexts(before: string | null, after: string): void {
  if (!before || before === after) return;
  for (const root of document.querySelectorAll('h1, #description, .consent')) {
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode())
      if (node.nodeValue && node.nodeValue.includes(before)) node.nodeValue = node.nodeValue.split(before).join(after);
  }
}

/** Stores a change; null when it was accepted, else the service's message. */
async function sendDetails(client: Client, change: Change): Promise<string | null> {
  const { cfg } = client;
  const { ok, answer } = await postJson(cfg.details, { token: cfg.token, ...change });
  if (ok) {
    if (change.name) {
      const before = cfg.name;
      cfg.name = change.name;
      for (const el of document.querySelectorAll('.signer-name')) el.textContent = change.name;
      renameInTexts(before, change.name);
      // The inputs that were rendered with the old name: "Your details" is compared with cfg.name at
      // submission (a stale value would be posted back as a change), the list's typed signature
      // starts from the name unless the signer already typed something else.
      setInput('my-name', change.name);
      const typed = maybe$<HTMLInputElement>('typed');
      if (typed && (typed.value === '' || typed.value === before)) typed.value = change.name;
    }
    if (change.email) {
      cfg.email = change.email;
      setInput('my-email', change.email);
    }
    return null;
  }
  return (answer.event && answer.event.message) || 'error';
}

/** Sends what the signer changed in "Your details"; false (and a message) when it was refused. */
export async function changedDetails(client: Client): Promise<boolean> {
  const { cfg } = client;
  const nameIn = maybe$<HTMLInputElement>('my-name'),
    emailIn = maybe$<HTMLInputElement>('my-email');
  const change: Change = {};
  if (nameIn && nameIn.value.trim() && nameIn.value.trim() !== cfg.name) change.name = nameIn.value.trim();
  if (emailIn && emailIn.value.trim() && emailIn.value.trim() !== cfg.email) change.email = emailIn.value.trim();
  if (!change.name && !change.email) return true;
  const err = await sendDetails(client, change);
  if (err) {
    say(cfg.errorText + ' could not update your details: ' + err, 'error');
    return false;
  }
  return true;
}

/** The required details dialog, when page.ts rendered one: resolves once they are stored. */
export function askOnLoad(client: Client): Promise<void> {
  const dialog = maybe$<HTMLDialogElement>('onload');
  if (!dialog) return Promise.resolve();
  return new Promise((resolve) => {
    // Required: Escape does not close it.
    dialog.addEventListener('cancel', (e) => e.preventDefault());
    $('onload-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const change: Change = {};
      const n = maybe$<HTMLInputElement>('onload-name'),
        m = maybe$<HTMLInputElement>('onload-email');
      if (n) change.name = n.value.trim();
      if (m) change.email = m.value.trim();
      if ((n && !change.name) || (m && !change.email)) {
        $('onload-error').textContent = 'Please fill in every field.';
        return;
      }
      const err = await sendDetails(client, change);
      if (err) {
        $('onload-error').textContent = err;
        return;
      }
      dialog.close();
      resolve();
    });
    dialog.showModal();
  });
}
