/**
 * The signing page's script, served as /sign/assets/page.js (a same-origin file, so the
 * page's CSP allows no inline script). Plain browser JavaScript, no build step: it reads
 * the page's JSON config, posts the spec's iframe messages to the parent when framed
 * with `withinIframe=true`, captures the signature (signature_pad strokes or typed
 * text) and posts it to the server.
 */
export const CLIENT_SCRIPT = String.raw`(() => {
  'use strict';
  const cfg = JSON.parse(document.getElementById('castpress-config').textContent);
  const framed = cfg.withinIframe && window.parent !== window;
  const tell = (message) => { if (framed) window.parent.postMessage(message, '*'); };
  const status = document.getElementById('status');
  const submit = document.getElementById('submit');
  const consent = document.getElementById('consent');
  const canvas = document.getElementById('pad');
  const typed = document.getElementById('typed');
  let pad = null;
  if (canvas && window.SignaturePad) {
    const ratio = Math.max(window.devicePixelRatio || 1, 1);
    canvas.width = canvas.offsetWidth * ratio;
    canvas.height = canvas.offsetHeight * ratio;
    canvas.getContext('2d').scale(ratio, ratio);
    pad = new window.SignaturePad(canvas, { penColor: '#1b2a4a' });
    pad.addEventListener('endStroke', update);
    document.getElementById('clear').addEventListener('click', () => { pad.clear(); update(); });
  }
  if (typed) typed.addEventListener('input', update);
  consent.addEventListener('change', update);
  function signature() {
    if (pad) {
      if (pad.isEmpty()) return null;
      return { type: 'drawn', strokes: pad.toData().map((group) => group.points.map((p) => ({ x: p.x, y: p.y }))) };
    }
    const text = typed ? typed.value.trim() : '';
    return text ? { type: 'typed', text } : null;
  }
  function update() { submit.disabled = !(consent.checked && signature()); }
  function go(url, params) {
    const target = new URL(url);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) target.searchParams.set(k, String(v));
    window.location.assign(target.toString());
  }
  tell(cfg.load);
  submit.addEventListener('click', async () => {
    const sig = signature();
    if (!sig || !consent.checked) return;
    submit.disabled = true;
    status.textContent = cfg.text.working;
    tell(Object.assign({}, cfg.load, { action: 'signerSign' }));
    let answer;
    try {
      const res = await fetch(cfg.completeUrl, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: cfg.token, signature: sig, timeZone: Intl.DateTimeFormat().resolvedOptions().timeZone }) });
      answer = await res.json();
    } catch (e) {
      answer = { event: Object.assign({}, cfg.load, { action: 'signerError', errorType: 'unknown', error: 'Network error', message: String(e) }) };
    }
    tell(answer.event);
    if (answer.event.action === 'signerComplete') {
      document.body.classList.add('done');
      status.textContent = cfg.text.completed;
    } else {
      status.textContent = answer.event.message || answer.event.error;
      update();
    }
    if (answer.redirectURL) go(answer.redirectURL, answer.event);
  });
})();
`;
