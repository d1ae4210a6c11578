/**
 * Signing-page code for test/html-page-code.test.ts: the pad and the helpers on
 * `window.__signingProbe`, over the markup page.ts renders for them.
 */
import { setUpPad, type Pad } from '../../src/server/signing-page/client/pad.js';
import { initialsOf } from '../../src/server/signing-page/client/ui.js';

let pad: Pad | null = null;
const probe = {
  initialsOf,
  setUp: (typed: boolean) => {
    pad = setUpPad(typed);
    return true;
  },
  drawn: () => pad?.drawn() ?? null,
  typedMode: () => pad?.typedMode ?? null,
  clear: () => {
    pad?.clear();
    return true;
  },
};

(window as unknown as { __signingProbe: typeof probe }).__signingProbe = probe;
