/**
 * The error page's browser code, bundled (scripts/generate-page-code.mjs) into `ERROR_SCRIPT`:
 * an expired, invalid or spent link inside the embedding app's iframe tells the app (`signerError`,
 * spec: Iframe messages) so it can make a new URL, then follows the signer's redirectURL if any.
 */
import type { ErrorPageConfig } from './contract.js';
import { $, post } from './ui.js';

const cfg = JSON.parse($('cfg').textContent as string) as ErrorPageConfig;
post(cfg, cfg.event);
if (cfg.redirect) window.location.replace(cfg.redirect);
