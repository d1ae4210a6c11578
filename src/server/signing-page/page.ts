/**
 * The signing page's HTML, rendered on the server from the signing session: texts from
 * `signaturePageOptions` (their replacements filled, everything escaped), colours from
 * its `style` (hex colours only), the signer's documents as links, the signature pad
 * or the typed-signature box, consent and the sign button. No inline script: the
 * config is a JSON data block the page script reads.
 */
import type { SignerEvent, SigningSession } from '../../packets/index.js';

const DEFAULT_TEXT = {
  title: 'Sign {{packet.name}}',
  description: 'Review the documents below, then sign.',
  drawSignatureTitle: 'Draw your signature',
  signTitle: 'Type your signature',
  signConsentText: 'I agree that my electronic signature is as valid as a handwritten one.',
  signButtonText: 'Sign',
  signDescriptionCompleted: 'You have signed. Thank you.',
  error: 'This signing link cannot be used',
} as const;

const DEFAULT_STYLE = { primaryColor: '#1985a1', successColor: '#1985a1', infoColor: '#46494c', linkColor: '#1985a1' } as const;

export const escapeHtml = (s: string): string => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** JSON safe inside a <script type="application/json"> block. */
const scriptJson = (v: unknown): string => JSON.stringify(v).replace(/</g, '\\u003c').replace(/>/g, '\\u003e').replace(/&/g, '\\u0026');

function replacements(text: string, session: SigningSession, organization: string): string {
  return text
    .replace(/\{\{\s*organization\.name\s*\}\}/g, organization)
    .replace(/\{\{\s*packet\.name\s*\}\}/g, session.packet.name)
    .replace(/\{\{\s*(signer|currentUser)\.name\s*\}\}/g, session.signer.name ?? '');
}

function colour(v: unknown, fallback: string): string {
  return typeof v === 'string' && /^#[0-9a-fA-F]{3,8}$/.test(v) ? v : fallback;
}

export interface PageContext {
  session: SigningSession;
  token: string;
  withinIframe: boolean;
  organization: string;
}

export function signingPage(c: PageContext): string {
  const options = (c.session.packet.signaturePageOptions ?? {}) as Record<string, unknown>;
  const text = (key: keyof typeof DEFAULT_TEXT) => escapeHtml(replacements(typeof options[key] === 'string' ? (options[key] as string) : DEFAULT_TEXT[key], c.session, c.organization));
  const style = (options.style ?? {}) as Record<string, unknown>;
  const primary = colour(style.primaryColor, DEFAULT_STYLE.primaryColor);
  const success = colour(style.successColor, DEFAULT_STYLE.successColor);
  const info = colour(style.infoColor, DEFAULT_STYLE.infoColor);
  const link = colour(style.linkColor, DEFAULT_STYLE.linkColor);
  const eid = encodeURIComponent(c.session.signer.eid);
  const q = `token=${encodeURIComponent(c.token)}`;
  const draw = c.session.signer.options.signatureMode !== 'text';
  const completed = c.session.signer.status === 'completed';
  const docs = c.session.documents
    .map((d) => {
      const mine = d.fields.map((f) => f.type).join(', ');
      return `<li><a href="/sign/${eid}/documents/${d.index}?${q}" target="_blank" rel="noopener">${escapeHtml(d.title ?? d.filename)}</a> <span class="meta">${d.pageCount} page${d.pageCount === 1 ? '' : 's'}${mine ? ` · your fields: ${escapeHtml(mine)}` : ''}</span></li>`;
    })
    .join('\n');
  const config = {
    token: c.token,
    withinIframe: c.withinIframe,
    completeUrl: `/sign/${eid}/complete`,
    load: c.session.event,
    text: { working: 'Signing…', completed: replacements(typeof options.signDescriptionCompleted === 'string' ? options.signDescriptionCompleted : DEFAULT_TEXT.signDescriptionCompleted, c.session, c.organization) },
  };
  const pad = draw
    ? `<h2>${text('drawSignatureTitle')}</h2><canvas id="pad" aria-label="Signature pad"></canvas><p><button type="button" id="clear">Clear</button></p>`
    : `<h2>${text('signTitle')}</h2><input id="typed" class="typed" autocomplete="name" value="${escapeHtml(c.session.signer.name ?? '')}" aria-label="Your signature">`;
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${text('title')}</title>
<style>
body{font:16px/1.5 system-ui,sans-serif;color:${info};max-width:760px;margin:0 auto;padding:24px}
h1{color:${primary};font-size:1.5em}a{color:${link}}.meta{color:#777;font-size:.9em}
#pad{width:100%;max-width:520px;height:170px;border:1px solid #bbb;border-radius:6px;touch-action:none;display:block;background:#fff}
.typed{font:32px 'Dancing Script',cursive;width:100%;max-width:520px;padding:8px;border:1px solid #bbb;border-radius:6px}
#submit{background:${primary};color:#fff;border:0;border-radius:6px;padding:10px 28px;font-size:1em;cursor:pointer}
#submit:disabled{opacity:.45;cursor:default}body.done #sign{display:none}body.done #status{color:${success};font-weight:600}
</style></head>
<body${completed ? ' class="done"' : ''}>
<header><h1>${text('title')}</h1><p>${text('description')}</p></header>
<section><h2>Documents</h2><ul>${docs}</ul></section>
<section id="sign">${pad}
<p><label><input type="checkbox" id="consent"> ${text('signConsentText')}</label></p>
<p><button type="button" id="submit" disabled>${text('signButtonText')}</button></p></section>
<p id="status" role="status">${completed ? text('signDescriptionCompleted') : ''}</p>
<script id="castpress-config" type="application/json">${scriptJson(config)}</script>
<script src="/sign/assets/signature_pad.js"></script>
<script src="/sign/assets/page.js"></script>
</body></html>`;
}

export function errorPage(title: string, message: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(title)}</title>
<style>body{font:16px/1.5 system-ui,sans-serif;max-width:640px;margin:40px auto;padding:0 24px;color:#46494c}</style></head>
<body><h1>${escapeHtml(title)}</h1><p id="status" role="status">${escapeHtml(message)}</p></body></html>`;
}

/** The redirect/iframe parameters of a signing error. */
export function errorEvent(signerEid: string, errorType: string, error: string, message: string, session?: SignerEvent): SignerEvent {
  return { ...(session ?? {}), action: 'signerError', signerEid, errorType, error, message };
}
