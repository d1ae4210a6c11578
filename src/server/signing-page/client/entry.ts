/**
 * The signing page's browser code, bundled (scripts/generate-page-code.mjs) into `CLIENT_SCRIPT`,
 * which page.ts sends inline as one module script under the response's CSP nonce (pdf.js is
 * imported from this server; the nonce carries over to the import). It reads its settings from the
 * `#cfg` JSON block (contract.ts `SigningPageConfig`).
 *
 * An in-person signer first confirms their name (hand-over.ts). Then one of two modes (page.ts renders the matching markup):
 * - accept each field (fields.ts): the documents are drawn with pdf.js, the signer's boxes over
 *   them; each signature/initials box is clicked; the first of a kind asks for the mark.
 * - document list (list.ts; acceptEachField false, or signBeforeReviewing): one signature,
 *   one set of initials, one Finish.
 */
import type { SigningPageConfig } from './contract.js';
import { acceptEachField } from './fields.js';
import { handOver } from './hand-over.js';
import { localize } from './i18n.js';
import { documentList } from './list.js';
import { setUpPad } from './pad.js';
import { $, type Client } from './ui.js';

const cfg = JSON.parse($('cfg').textContent as string) as SigningPageConfig;
localize(cfg);
const client: Client = { cfg, pad: setUpPad(cfg.typed), finished: false };
// In person: nothing of the documents is shown (or fetched) before the hand-over is confirmed.
void handOver(client).then(() => {
  if (!cfg.acceptEachField) documentList(client);
  else acceptEachField(client);
});
