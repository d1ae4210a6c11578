/**
 * The signing page's HTML: server-rendered, one inline module script under a
 * per-response nonce (pdf.js imported from this server, no third-party requests,
 * no eval), keyboard-usable controls and a layout that fits a phone-width screen.
 * Everything interpolated is escaped; the script's settings travel as a JSON block.
 */
import { escapeHtml, escapeMarkdown } from '../../format/index.js';
import {
  fillPageText,
  signConsentText,
  type PageTextValues,
  type SignaturePageOptions,
  type SigningSession,
} from '../../packets/index.js';
import { ASSET_BASE } from './assets.js';
import { CLIENT_SCRIPT } from '../../../generated/signing-client.js';
import type { ErrorPageConfig, SigningPageConfig } from './client/contract.js';
import { ERROR_SCRIPT } from '../../../generated/signing-error.js';
import { isHexColour, readableOnWhite } from './colours.js';
import { renderDescription } from './description.js';

const esc = (s: unknown) => escapeHtml(String(s ?? ''));

/** Bundled faces (assets.ts serves them): the page looks the same whatever the machine has installed. */
const FONTS = `
@font-face{font-family:"castpress sans";src:url(${ASSET_BASE}/fonts/NotoSans-Regular.ttf) format("truetype");font-weight:400;font-display:block}
@font-face{font-family:"castpress sans";src:url(${ASSET_BASE}/fonts/NotoSans-Bold.ttf) format("truetype");font-weight:700;font-display:block}
@font-face{font-family:"castpress hand";src:url(${ASSET_BASE}/fonts/DancingScript-Regular.otf) format("opentype");font-display:block}`;

/** The default brand colour, darkened to 4.5:1 against white (text on it, text in it). */
const PRIMARY = readableOnWhite('#1985a1');

const STYLE = `${FONTS}
body{font:16px/1.4 "castpress sans",system-ui,sans-serif;margin:0;color:#46494c;background:#f6f7f8}
main{max-width:900px;margin:0 auto;padding:16px}
h1{font-size:1.4em;color:${PRIMARY};overflow-wrap:anywhere}
h2{font-size:1.15em}h3{font-size:1em;margin:16px 0 8px}
a{color:${PRIMARY}}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
#pad{width:100%;height:160px;border:1px dashed #888;touch-action:none;background:#fff;box-sizing:border-box}
input[type=text]{width:100%;box-sizing:border-box;font:inherit;font-size:1em;padding:8px}
button{font:inherit;font-size:1em;padding:10px 16px;margin:8px 8px 0 0;background:${PRIMARY};color:#fff;border:0;border-radius:4px}
button.secondary{background:#6b6e70}
button:disabled{opacity:.55}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{color:#b00020}
#bar{position:sticky;top:0;z-index:2;background:#fff;border-bottom:1px solid #ddd;padding:8px 12px;display:flex;flex-wrap:wrap;align-items:center;gap:8px}
#bar button{margin:0}
#progress{flex:1 1 12em}
#bar #status{flex:1 1 100%;margin:0}#bar #status:empty{display:none}
section.doc{border:0;padding:0;margin:0;background:none}
section.doc.zoomed{overflow-x:auto}.zoomed .page{max-width:none}
.page{container-type:inline-size;position:relative;width:100%;margin:0 0 12px;background:#fff;box-shadow:0 1px 4px rgba(0,0,0,.25)}
.page canvas{position:absolute;inset:0;width:100%;height:100%;display:block}
.box{position:absolute;margin:0;padding:0;left:var(--x);top:var(--y);width:var(--w);height:var(--h)}
div.box,.mark{box-sizing:border-box;padding:0 2px;border:2px solid ${PRIMARY};border-radius:3px;background:rgba(25,133,161,.16);color:#0b4f61;font-size:clamp(6px,1.8cqw,12px);line-height:1;overflow:hidden;display:flex;align-items:center;justify-content:center}
button.box{left:calc(var(--x) + var(--w) / 2);top:calc(var(--y) + var(--h) / 2);width:max(24px,var(--w));height:max(24px,var(--h));transform:translate(-50%,-50%);border:0;border-radius:3px;background:none;display:flex;align-items:center;justify-content:center;cursor:pointer;scroll-margin:120px 0 24px}
.mark{flex:none;width:var(--w);height:var(--h);font-weight:700}
.box.info{border-style:dashed;font-weight:400}
.box.accepted .mark{background:rgba(255,255,255,.75);border-color:#2e7d32}
.mark img{max-width:100%;max-height:100%}
.typed-mark{font:clamp(9px,2.4cqw,18px)/1 "castpress hand",cursive}
#confirm-list img{height:1.6em;vertical-align:middle;margin-left:8px;background:#fff}#confirm-list .typed-mark{margin-left:8px;font-size:1.2em}
#typed{font-family:"castpress hand",cursive;font-size:1.4em}
dialog{max-width:min(680px,calc(100vw - 32px));width:100%;box-sizing:border-box;border:0;border-radius:6px;padding:16px}
dialog::backdrop{background:rgba(0,0,0,.45)}
.org-logo{margin:0 0 8px}.org-logo img{display:block;max-height:30px;max-width:100%}
.consent{font-size:.85em}
#status.done{color:${PRIMARY}}`;

/** The colours a page may be given: the packet's `style` (defaults filled in) or the organization's (keys optional). */
type PageColours = Partial<
  Pick<NonNullable<SignaturePageOptions['style']>, 'primaryColor' | 'successColor' | 'infoColor' | 'linkColor'>
>;

/**
 * The spec's colours as CSS overrides (already validated as hex by the request; checked again: they go into CSS).
 * Each is text on white or under white text, so it is darkened to 4.5:1 where it is lighter (WCAG AA).
 */
function styleOverrides(style: PageColours | undefined): string {
  if (!style) return '';
  const c = (v: string | undefined, d: string) => readableOnWhite(isHexColour(v) ? v : d);
  const primary = c(style.primaryColor, '#1985a1');
  return `h1{color:${primary}}button{background:${primary}}div.box,.mark{border-color:${primary}}body{color:${c(style.infoColor, '#46494c')}}a{color:${c(style.linkColor, '#1985a1')}}#status.done{color:${c(style.successColor, '#1985a1')}}`;
}

/** `signaturePageOptions` texts with the spec's `{{...}}` replacements (src/packets page-text.ts). */
function texts(session: SigningSession, organizationName: string, organizationStyle: PageColours | undefined) {
  const o = (session.packet.signaturePageOptions ?? {}) as SignaturePageOptions;
  const values: PageTextValues = { organizationName, packetName: session.packet.name, signerName: session.signer.name };
  const t = (key: Exclude<keyof SignaturePageOptions, 'style'>, fallback: string) => {
    const v = o[key];
    return fillPageText(typeof v === 'string' ? v : fallback, values);
  };
  return {
    // A packet's `style` is whole (the request fills in the spec's defaults), so it replaces the
    // organization's colours; a packet without one shows the organization's (docs/reference/organization.md).
    css: styleOverrides(o.style ?? organizationStyle),
    title: t('title', '{{packet.name}}'),
    // Markdown (the spec), rendered by description.ts: no raw HTML, no images. The names it quotes are
    // text (a signer may type their own): escaped, so they make no link or emphasis.
    description: fillPageText(typeof o.description === 'string' ? o.description : 'Signing as {{signer.name}}.', {
      organizationName: escapeMarkdown(values.organizationName),
      packetName: escapeMarkdown(values.packetName),
      signerName: values.signerName === null ? null : escapeMarkdown(values.signerName),
    }),
    signatureLabel: t('signatureLabel', 'Signature'),
    initialLabel: t('initialLabel', 'Initials'),
    signTitle: t('signTitle', 'Review and sign'),
    signDescription: t(
      'signDescription',
      'Press each highlighted box to sign it; "Next field" takes you to the next one.',
    ),
    signButtonText: t('signButtonText', 'Finish signing'),
    signConsentText: signConsentText(o, values),
    drawSignatureTitle: t('drawSignatureTitle', 'Your signature'),
    drawSignatureDescription: t(
      'drawSignatureDescription',
      'Draw your signature below (mouse, finger or pen), or type it instead.',
    ),
    drawSignatureButtonText: t('drawSignatureButtonText', 'Adopt and sign'),
    drawInitialsTitle: t('drawInitialsTitle', 'Your initials'),
    drawInitialsDescription: t('drawInitialsDescription', 'Draw your initials below, or type them instead.'),
    drawInitialsButtonText: t('drawInitialsButtonText', 'Adopt and initial'),
    acceptTitle: t('acceptTitle', 'Before you start'),
    acceptDescription: t(
      'acceptDescription',
      'Please enter your details as they should appear on the signed documents.',
    ),
    acceptButtonText: t('acceptButtonText', 'Continue'),
    completed: t('signDescriptionCompleted', 'Signed. Thank you: you can close this page.'),
    completedButtonText: t('completedButtonText', 'Signed'),
    // The words before any error the page shows (a refused submission, documents that do not load).
    error: t('error', 'Something went wrong:'),
  };
}

/**
 * The dark scheme a browser asks for (`prefers-color-scheme: dark`). It comes after the colour overrides:
 * an organization's text colours are darkened for white, so on dark grounds text takes these light ones;
 * buttons keep the brand colour (white text on it reaches 4.5:1 already). Documents stay white paper.
 */
const DARK = `:root{color-scheme:light dark}
@media (prefers-color-scheme:dark){body{color:#e3e5e8;background:#121416}
section,#bar,dialog{background:#1e2124;color:#e3e5e8;border-color:#3a3f44}
section.doc{background:none}
h1,#status.done{color:#8fd3e8}a{color:#9ecbff}.error{color:#ff8a80}
input[type=text]{background:#121416;color:#e3e5e8;border:1px solid #8a8d90}
.page{box-shadow:0 1px 4px rgba(0,0,0,.8)}}`;

const HEAD = (title: string, nonce: string, css: string, stylesheet?: string) =>
  `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>${esc(title)}</title><style nonce="${nonce}">${STYLE}${css}${DARK}</style>${stylesheet ? `<link rel="stylesheet" nonce="${nonce}" href="${esc(stylesheet)}">` : ''}</head>`;

/** What an error page adds: the `signerError` it posts inside a frame, the completed documents it offers. */
export interface ErrorPageExtras {
  post?: ErrorPageConfig;
  /** Links to the signer's completed documents (a finished signer's page once the packet is complete). */
  downloads?: Array<{ label: string; url: string }>;
}

export function errorPage(title: string, message: string, nonce: string, extras: ErrorPageExtras = {}): string {
  const downloads = extras.downloads?.length
    ? `<section aria-labelledby="dl-h"><h2 id="dl-h">Signed documents</h2><ul>${extras.downloads
        .map((d) => `<li><a href="${esc(d.url)}" download>${esc(d.label)}</a></li>`)
        .join('')}</ul></section>`
    : '';
  const script = extras.post
    ? `\n<script type="application/json" id="cfg">${JSON.stringify(extras.post).replace(/</g, '\\u003c')}</script>
<script type="module" nonce="${nonce}">${ERROR_SCRIPT}</script>`
    : '';
  return `${HEAD(title, nonce, '')}
<body><main><h1${extras.downloads ? '' : ' class="error"'}>${esc(title)}</h1><p>${esc(message)}</p>${downloads}</main>${script}</body></html>`;
}

export interface SigningPageOptions {
  token: string;
  nonce: string;
  withinIframe: boolean;
  /** `style.stylesheetURL` once the route has allowed it (same origin or allow-list). */
  stylesheet?: string;
  /** The packet's organization (`--org`): its name for `{{organization.name}}`, its logo on top, its colours. Default castpress, no logo. */
  organization?: { name: string; logo?: string | undefined; style?: PageColours | undefined };
}

/** The organization's logo at the top, at most 30 px high and 100 % wide (the spec); only an image data URL (the CSP's img-src). */
function logoBlock(organization: SigningPageOptions['organization']): string {
  const logo = organization?.logo;
  if (!logo || !/^data:image\//.test(logo)) return '';
  return `<p class="org-logo"><img src="${esc(logo)}" alt="${esc(organization.name)}"></p>`;
}

/**
 * The drawing pad and the typed alternative: in the list's signature section (with its help
 * text), or in the mark dialog (described by the dialog's own description).
 */
function markInputs(typed: boolean, name: string | null, helpText?: string): string {
  return `<div id="draw"${typed ? ' hidden' : ''}>${helpText ? `<p id="draw-help">${esc(helpText)}</p>` : ''}
<canvas id="pad" aria-describedby="${helpText ? 'draw-help' : 'adopt-desc'}" width="680" height="160"></canvas>
<button type="button" class="secondary" id="clear">Clear</button><button type="button" class="secondary" id="use-typed">Type instead</button></div>
<div id="type"${typed ? '' : ' hidden'}><label for="typed" id="typed-label">Type your signature</label><input type="text" id="typed" autocomplete="off" value="${esc(name)}"></div>`;
}

/**
 * In person: the first thing the page shows, until the signer typed their name (page/hand-over.ts
 * posts it; the service compares it and only then serves the documents).
 */
function handOverStep(name: string): string {
  return `<section id="hand-over" aria-labelledby="hand-over-h"><h2 id="hand-over-h">Please hand this device to ${esc(name)}</h2>
<form id="hand-over-form" novalidate><p>${esc(name)}: to show that the device is in your hands, type your full name.</p>
<label for="hand-over-name">Your full name</label><input type="text" id="hand-over-name" autocomplete="off" required>
<p id="hand-over-error" class="error" role="alert"></p><button type="submit" id="hand-over-ok">Continue</button></form></section>`;
}

export function signingPage(session: SigningSession, options: SigningPageOptions): string {
  const { signer, packet, documents } = session;
  const { token, nonce, withinIframe } = options;
  const typed = signer.options.signatureMode === 'text';
  const docUrl = (index: number) =>
    `/sign/${encodeURIComponent(signer.eid)}/documents/${index}?token=${encodeURIComponent(token)}`;
  const tx = texts(session, options.organization?.name ?? 'castpress', options.organization?.style);
  const nameChange = signer.options.allowNameChange === true;
  const emailChange = signer.options.allowEmailChange === true;
  const details =
    nameChange || emailChange
      ? `<section aria-labelledby="me-h"><h2 id="me-h">Your details</h2>${
          nameChange
            ? `<label for="my-name">Full name</label><input type="text" id="my-name" autocomplete="name" value="${esc(signer.name)}">`
            : ''
        }${emailChange ? `<label for="my-email">Email</label><input type="text" id="my-email" inputmode="email" autocomplete="email" value="${esc(signer.email)}">` : ''}</section>`
      : '';
  const need = session.detailsRequired;
  const onLoad =
    need.name || need.email
      ? `<dialog id="onload" aria-labelledby="onload-h" aria-describedby="onload-desc"><form id="onload-form" novalidate>
<h2 id="onload-h">${esc(tx.acceptTitle)}</h2><p id="onload-desc">${esc(tx.acceptDescription)}</p>${
          need.name
            ? `<label for="onload-name">Your full legal name</label><input type="text" id="onload-name" autocomplete="name" required>`
            : ''
        }${need.email ? `<label for="onload-email">Your email</label><input type="text" id="onload-email" inputmode="email" autocomplete="email" required>` : ''}
<p id="onload-error" class="error" role="alert"></p><button type="submit" id="onload-ok">${esc(tx.acceptButtonText)}</button></form></dialog>`
      : '';
  const settings: SigningPageConfig = {
    assets: ASSET_BASE,
    details: `/sign/${encodeURIComponent(signer.eid)}/details`,
    handOver: session.handOver
      ? { url: `/sign/${encodeURIComponent(signer.eid)}/hand-over`, name: session.handOver.name }
      : null,
    submit: `/sign/${encodeURIComponent(signer.eid)}/submit`,
    name: signer.name,
    email: signer.email,
    completed: tx.completed,
    completedButtonText: tx.completedButtonText,
    errorText: tx.error,
    token,
    documentsVersion: session.documentsVersion,
    withinIframe,
    event: session.event,
    typed,
    acceptEachField: session.acceptEachField,
    showFinish: signer.options.showFinishSigningButton === true,
    documents: documents.map((d) => ({ index: d.index, title: d.title ?? d.filename, url: docUrl(d.index) })),
    boxes: session.boxes,
    customTexts: Object.entries(session.packet.signaturePageOptions ?? {})
      .filter(([, v]) => typeof v === 'string')
      .map(([k]) => k),
    texts: {
      signature: {
        label: tx.signatureLabel,
        title: tx.drawSignatureTitle,
        description: tx.drawSignatureDescription,
        button: tx.drawSignatureButtonText,
      },
      initial: {
        label: tx.initialLabel,
        title: tx.drawInitialsTitle,
        description: tx.drawInitialsDescription,
        button: tx.drawInitialsButtonText,
      },
    },
  };
  const config = JSON.stringify(settings).replace(/</g, '\\u003c');
  const header = `<h1>${esc(tx.title)}</h1>
<div id="description">${renderDescription(tx.description)}</div>
<p>Signer: <strong class="signer-name">${esc(signer.name)}</strong>${signer.email ? ` (${esc(signer.email)})` : ''}</p>`;
  const body = session.acceptEachField
    ? `${details}<div id="bar" role="region" aria-label="Signing progress"><span id="progress" role="status" aria-live="polite">Loading the documents…</span>
<button type="button" id="next" disabled>Next field</button><button type="button" id="finish" hidden disabled>${esc(tx.signButtonText)}</button>
<p id="status" role="status" aria-live="polite"></p></div>
<section id="review" aria-labelledby="docs-h" hidden><h2 id="docs-h">${esc(tx.signTitle)}</h2><p id="sign-desc">${esc(tx.signDescription)}</p><div id="docs"></div></section>
<dialog id="adopt" aria-labelledby="adopt-h" aria-describedby="adopt-desc"><h2 id="adopt-h"></h2><p id="adopt-desc"></p>
${markInputs(typed, signer.name)}
<p class="consent">${esc(tx.signConsentText)}</p><p id="adopt-error" class="error" role="alert"></p>
<button type="button" id="adopt-ok"></button><button type="button" class="secondary" id="adopt-cancel">Cancel</button></dialog>
<dialog id="confirm" aria-labelledby="confirm-h" aria-describedby="confirm-desc"><h2 id="confirm-h">Review your marks</h2>
<p id="confirm-desc">Each box you signed, with its page. Confirm to sign the documents.</p><ul id="confirm-list"></ul>
<p class="consent">${esc(tx.signConsentText)}</p>
<button type="button" id="confirm-ok">${esc(tx.signButtonText)}</button><button type="button" class="secondary" id="confirm-back">Back</button></dialog>`
    : `${details}<section aria-labelledby="docs-h"><h2 id="docs-h">Documents</h2><ul>${documents
        .map(
          (d) =>
            `<li><a href="${esc(docUrl(d.index))}" target="_blank" rel="noopener">${esc(d.title ?? d.filename)}</a> (${d.pageCount} page${d.pageCount === 1 ? '' : 's'})</li>`,
        )
        .join('')}</ul></section>
<section aria-labelledby="sig-h"><h2 id="sig-h">${esc(tx.signatureLabel)}</h2>
${markInputs(typed, signer.name, 'Draw your signature below (mouse, finger or pen), or type it instead.')}
</section>
<section aria-labelledby="ini-h"><h2 id="ini-h">${esc(tx.initialLabel)}</h2><label for="initials">Your initials</label><input type="text" id="initials" maxlength="8"></section>
<p class="consent">${esc(tx.signConsentText)}</p>
<p id="status" role="status" aria-live="polite"></p>
<button type="button" id="finish">${esc(tx.signButtonText)}</button>`;
  return `${HEAD(`Sign ${packet.name}`, nonce, tx.css, options.stylesheet)}
<body><main>
${logoBlock(options.organization)}${header}
${session.handOver ? `${handOverStep(session.handOver.name)}<div id="signing" hidden>${body}</div>` : body}
</main>${onLoad}
<script type="application/json" id="cfg">${config}</script>
<script type="module" nonce="${nonce}">${CLIENT_SCRIPT}</script></body></html>`;
}
