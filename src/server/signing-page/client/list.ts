/** The document list (acceptEachField false, or signBeforeReviewing): one signature, one set of initials, one Finish. */
import { askOnLoad } from './details.js';
import { submit } from './submit.js';
import { $, post, say, type Client } from './ui.js';

export function documentList(client: Client): void {
  const { cfg, pad } = client;
  void askOnLoad(client).then(() => post(cfg, cfg.event));
  $('finish').addEventListener('click', () => {
    const d = pad.drawn(),
      text = $<HTMLInputElement>('typed').value.trim();
    if (!pad.typedMode && d.length === 0) {
      say('Please draw your signature, or choose Type instead.', 'error');
      return;
    }
    if (pad.typedMode && !text) {
      say('Please type your signature.', 'error');
      return;
    }
    const initials = $<HTMLInputElement>('initials').value.trim();
    post(cfg, { ...cfg.event, action: 'signerSign' });
    void submit(client, {
      signature: pad.typedMode ? { type: 'typed', text } : { type: 'drawn', strokes: d },
      initials: initials ? { type: 'typed', text: initials } : undefined,
    });
  });
}
