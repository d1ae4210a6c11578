/**
 * The signing page's HTML: server-rendered, one inline script under a per-response
 * nonce (no third-party requests, no eval), keyboard-usable controls and a layout
 * that fits a phone-width screen. Everything interpolated is escaped.
 */
import type { SignaturePageOptions, SigningSession } from '../../packets/index.js';

const esc = (s: unknown) =>
  String(s ?? '').replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const STYLE = `
body{font:16px/1.4 system-ui,sans-serif;margin:0;color:#46494c;background:#f6f7f8}
main{max-width:720px;margin:0 auto;padding:16px}
h1{font-size:1.4em;color:#1985a1}
section{background:#fff;border:1px solid #ddd;border-radius:6px;padding:12px;margin:12px 0}
canvas{width:100%;height:160px;border:1px dashed #888;touch-action:none;background:#fff}
input[type=text]{width:100%;box-sizing:border-box;font-size:1em;padding:8px}
button{font-size:1em;padding:10px 16px;margin:8px 8px 0 0;background:#1985a1;color:#fff;border:0;border-radius:4px}
button.secondary{background:#888}
:focus-visible{outline:3px solid #f5a623;outline-offset:2px}
.error{color:#b00020}`;

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

/** The spec's colours as CSS overrides (already validated as hex by the request; checked again: they go into CSS). */
function styleOverrides(style: SignaturePageOptions['style']): string {
  if (!style) return '';
  const c = (v: string | undefined, d: string) => (v && HEX.test(v) ? v : d);
  const primary = c(style.primaryColor, '#1985a1');
  return `h1{color:${primary}}button{background:${primary}}body{color:${c(style.infoColor, '#46494c')}}a{color:${c(style.linkColor, '#1985a1')}}#status.done{color:${c(style.successColor, '#1985a1')}}`;
}

/** `signaturePageOptions` texts with the spec's `{{...}}` replacements (the organization is castpress here). */
function texts(session: SigningSession) {
  const o = (session.packet.signaturePageOptions ?? {}) as SignaturePageOptions;
  const values: Record<string, string> = {
    'organization.name': 'castpress',
    'packet.name': session.packet.name,
    'signer.name': session.signer.name ?? '',
    'currentUser.name': session.signer.name ?? '',
  };
  const t = (key: keyof SignaturePageOptions, fallback: string) => {
    const v = o[key];
    return (typeof v === 'string' ? v : fallback).replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, name: string) => values[name] ?? m);
  };
  return {
    css: styleOverrides(o.style),
    title: t('title', '{{packet.name}}'),
    // Markdown in `description` is shown as plain text (not rendered).
    description: t('description', 'Signing as {{signer.name}}.'),
    signatureLabel: t('signatureLabel', 'Signature'),
    initialLabel: t('initialLabel', 'Initials'),
    signButtonText: t('signButtonText', 'Finish signing'),
    completed: t('signDescriptionCompleted', 'Signed. Thank you: you can close this page.'),
  };
}

export function errorPage(title: string, message: string, nonce: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>${esc(title)}</title><style nonce="${nonce}">${STYLE}</style></head>
<body><main><h1 class="error">${esc(title)}</h1><p>${esc(message)}</p></main></body></html>`;
}

export function signingPage(session: SigningSession, token: string, nonce: string, withinIframe: boolean): string {
  const { signer, packet, documents } = session;
  const typed = signer.options.signatureMode === 'text';
  const docs = documents
    .map((d) => `<li><a href="/sign/${encodeURIComponent(signer.eid)}/documents/${d.index}?token=${encodeURIComponent(token)}" target="_blank" rel="noopener">${esc(d.title ?? d.filename)}</a> (${d.pageCount} page${d.pageCount === 1 ? '' : 's'})</li>`)
    .join('');
  const tx = texts(session);
  const nameChange = signer.options.allowNameChange === true;
  const emailChange = signer.options.allowEmailChange === true;
  const details =
    nameChange || emailChange
      ? `<section aria-labelledby="me-h"><h2 id="me-h">Your details</h2>${
          nameChange ? `<label for="my-name">Full name</label><input type="text" id="my-name" autocomplete="name" value="${esc(signer.name)}">` : ''
        }${emailChange ? `<label for="my-email">Email</label><input type="text" id="my-email" inputmode="email" autocomplete="email" value="${esc(signer.email)}">` : ''}</section>`
      : '';
  const config = JSON.stringify({ details: `/sign/${encodeURIComponent(signer.eid)}/details`, name: signer.name, email: signer.email, completed: tx.completed, submit: `/sign/${encodeURIComponent(signer.eid)}/submit`, token, withinIframe, event: session.event, redirectURL: session.redirectURL ?? null, typed }).replace(/</g, '\\u003c');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><link rel="icon" href="data:,">
<title>Sign ${esc(packet.name)}</title><style nonce="${nonce}">${STYLE}${tx.css}</style></head>
<body><main>
<h1>${esc(tx.title)}</h1>
<p id="description">${esc(tx.description)}</p>
<p>Signer: <strong>${esc(signer.name)}</strong>${signer.email ? ` (${esc(signer.email)})` : ''}</p>
${details}<section aria-labelledby="docs-h"><h2 id="docs-h">Documents</h2><ul>${docs}</ul></section>
<section aria-labelledby="sig-h"><h2 id="sig-h">${esc(tx.signatureLabel)}</h2>
<div id="draw"${typed ? ' hidden' : ''}><p id="draw-help">Draw your signature below (mouse, finger or pen), or type it instead.</p>
<canvas id="pad" aria-describedby="draw-help" width="680" height="160"></canvas>
<button type="button" class="secondary" id="clear">Clear</button><button type="button" class="secondary" id="use-typed">Type instead</button></div>
<div id="type"${typed ? '' : ' hidden'}><label for="typed">Type your signature</label><input type="text" id="typed" autocomplete="name" value="${esc(signer.name)}"></div>
</section>
<section aria-labelledby="ini-h"><h2 id="ini-h">${esc(tx.initialLabel)}</h2><label for="initials">Your initials</label><input type="text" id="initials" maxlength="8"></section>
<p id="status" role="status" aria-live="polite"></p>
<button type="button" id="finish">${esc(tx.signButtonText)}</button>
</main>
<script nonce="${nonce}">
(() => {
  const cfg = ${config};
  const post = (msg) => { if (cfg.withinIframe && window.parent !== window) window.parent.postMessage(msg, '*'); };
  post(cfg.event);
  const pad = document.getElementById('pad'), ctx = pad.getContext('2d');
  const strokes = []; let current = null;
  const at = (e) => { const r = pad.getBoundingClientRect(); return { x: (e.clientX - r.left) * pad.width / r.width, y: (e.clientY - r.top) * pad.height / r.height }; };
  pad.addEventListener('pointerdown', (e) => { pad.setPointerCapture(e.pointerId); current = [at(e)]; strokes.push(current); });
  pad.addEventListener('pointermove', (e) => { if (!current) return; const p = at(e), q = current[current.length - 1];
    ctx.lineWidth = 2.5; ctx.lineCap = 'round'; ctx.beginPath(); ctx.moveTo(q.x, q.y); ctx.lineTo(p.x, p.y); ctx.stroke(); current.push(p); });
  const end = () => { current = null; };
  pad.addEventListener('pointerup', end); pad.addEventListener('pointercancel', end);
  document.getElementById('clear').addEventListener('click', () => { strokes.length = 0; ctx.clearRect(0, 0, pad.width, pad.height); });
  let typedMode = cfg.typed;
  document.getElementById('use-typed').addEventListener('click', () => { typedMode = true; document.getElementById('draw').hidden = true; document.getElementById('type').hidden = false; document.getElementById('typed').focus(); });
  const status = document.getElementById('status');
  document.getElementById('finish').addEventListener('click', async () => {
    const drawn = strokes.filter((s) => s.length > 1);
    const text = document.getElementById('typed').value.trim();
    if (!typedMode && drawn.length === 0) { status.textContent = 'Please draw your signature, or choose Type instead.'; return; }
    if (typedMode && !text) { status.textContent = 'Please type your signature.'; return; }
    const initials = document.getElementById('initials').value.trim();
    const body = { token: cfg.token, signature: typedMode ? { type: 'typed', text } : { type: 'drawn', strokes: drawn }, initials: initials ? { type: 'typed', text: initials } : undefined };
    status.textContent = 'Signing…';
    const nameIn = document.getElementById('my-name'), emailIn = document.getElementById('my-email');
    const change = {};
    if (nameIn && nameIn.value.trim() && nameIn.value.trim() !== cfg.name) change.name = nameIn.value.trim();
    if (emailIn && emailIn.value.trim() && emailIn.value.trim() !== cfg.email) change.email = emailIn.value.trim();
    if (change.name || change.email) {
      const r = await fetch(cfg.details, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: cfg.token, ...change }), credentials: 'omit' });
      if (!r.ok) { const o = await r.json(); status.textContent = 'Could not update your details: ' + (o.event && o.event.message || 'error'); return; }
    }
    post({ ...cfg.event, action: 'signerSign' });
    const res = await fetch(cfg.submit, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body), credentials: 'omit' });
    const out = await res.json();
    post(out.event);
    if (out.redirect) { window.location.assign(out.redirect); return; }
    if (res.ok) status.className = 'done';
    status.textContent = res.ok ? cfg.completed : 'Could not sign: ' + (out.event && out.event.message || 'error');
    if (res.ok) document.getElementById('finish').disabled = true;
  });
})();
</script></body></html>`;
}
