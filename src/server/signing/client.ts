/**
 * The signing page's browser code, sent inline as one module script under the
 * response's CSP nonce (pdf.js is imported from this server; the nonce carries over
 * to the import). It reads its settings from the `#cfg` JSON block. Plain JS in a
 * string: tsc does not copy .js files into dist, and nothing here is interpolated.
 *
 * Two modes (page.ts renders the matching markup):
 * - accept each field: the documents are drawn with pdf.js, the signer's boxes over
 *   them; each signature/initials box is clicked (or reached with "Next field" and
 *   Enter); the first of a kind asks for the mark (drawn or typed) in a dialog.
 * - document list (acceptEachField false, or signBeforeReviewing): one signature,
 *   one set of initials, one Finish.
 */
export const CLIENT_SCRIPT = String.raw`
const cfg = JSON.parse(document.getElementById('cfg').textContent);
const $ = (id) => document.getElementById(id);
const post = (msg) => { if (cfg.withinIframe && window.parent !== window) window.parent.postMessage(msg, '*'); };
const status = $('status');
const say = (text, cls) => { status.textContent = text; status.className = cls || ''; };
const initialsOf = (name) => (name || '').split(/\s+/).filter(Boolean).map((w) => Array.from(w)[0].toUpperCase()).join('');

// ——— drawing pad: pointer events give the strokes the service takes ———
const pad = $('pad'), ctx = pad.getContext('2d');
const strokes = []; let current = null;
const at = (e) => { const r = pad.getBoundingClientRect(); return { x: (e.clientX - r.left) * pad.width / r.width, y: (e.clientY - r.top) * pad.height / r.height }; };
pad.addEventListener('pointerdown', (e) => { pad.setPointerCapture(e.pointerId); current = [at(e)]; strokes.push(current); });
pad.addEventListener('pointermove', (e) => { if (!current) return; const p = at(e), q = current[current.length - 1];
  ctx.lineWidth = 2.5; ctx.lineCap = 'round'; ctx.beginPath(); ctx.moveTo(q.x, q.y); ctx.lineTo(p.x, p.y); ctx.stroke(); current.push(p); });
const end = () => { current = null; };
pad.addEventListener('pointerup', end); pad.addEventListener('pointercancel', end);
const clearPad = () => { strokes.length = 0; ctx.clearRect(0, 0, pad.width, pad.height); };
$('clear').addEventListener('click', clearPad);
let typedMode = cfg.typed;
const showMode = () => { $('draw').hidden = typedMode; $('type').hidden = !typedMode; };
$('use-typed').addEventListener('click', () => { typedMode = true; showMode(); $('typed').focus(); });
const drawn = () => strokes.filter((s) => s.length > 1).map((s) => s.slice());

// ——— the signer's details: allowNameChange / allowEmailChange, requireNameOnLoad / requireEmailOnLoad ———
async function sendDetails(change) {
  const r = await fetch(cfg.details, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: cfg.token, ...change }), credentials: 'omit' });
  if (r.ok) {
    if (change.name) { cfg.name = change.name; for (const el of document.querySelectorAll('.signer-name')) el.textContent = change.name; }
    if (change.email) cfg.email = change.email;
    return null;
  }
  const o = await r.json().catch(() => ({}));
  return (o.event && o.event.message) || 'error';
}
async function changedDetails() {
  const nameIn = $('my-name'), emailIn = $('my-email');
  const change = {};
  if (nameIn && nameIn.value.trim() && nameIn.value.trim() !== cfg.name) change.name = nameIn.value.trim();
  if (emailIn && emailIn.value.trim() && emailIn.value.trim() !== cfg.email) change.email = emailIn.value.trim();
  if (!change.name && !change.email) return true;
  const err = await sendDetails(change);
  if (err) { say(cfg.errorText + ' could not update your details: ' + err, 'error'); return false; }
  return true;
}
function askOnLoad() {
  const dialog = $('onload');
  if (!dialog) return Promise.resolve();
  return new Promise((resolve) => {
    // Required: Escape does not close it.
    dialog.addEventListener('cancel', (e) => e.preventDefault());
    $('onload-form').addEventListener('submit', async (e) => {
      e.preventDefault();
      const change = {};
      const n = $('onload-name'), m = $('onload-email');
      if (n) change.name = n.value.trim();
      if (m) change.email = m.value.trim();
      if ((n && !change.name) || (m && !change.email)) { $('onload-error').textContent = 'Please fill in every field.'; return; }
      const err = await sendDetails(change);
      if (err) { $('onload-error').textContent = err; return; }
      dialog.close();
      resolve();
    });
    dialog.showModal();
  });
}

// ——— finishing ———
let finished = false;
async function submit(body) {
  if (finished) return;
  if (!(await changedDetails())) return;
  finished = true;
  say('Signing…');
  const res = await fetch(cfg.submit, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ token: cfg.token, ...body }), credentials: 'omit' });
  const out = await res.json().catch(() => ({}));
  if (out.event) post(out.event);
  if (out.redirect) { window.location.assign(out.redirect); return; }
  if (!res.ok) {
    finished = false;
    say(cfg.errorText + ' ' + ((out.event && out.event.message) || 'error'), 'error');
    // Signing that ended at the last box has no button yet: Finish is how to try again.
    const again = $('finish');
    again.hidden = false; again.disabled = false;
    return;
  }
  say(cfg.completed, 'done');
  for (const b of document.querySelectorAll('#finish, #next')) b.disabled = true;
  // The finish button stays, as a record of the outcome, labelled completedButtonText.
  const done = $('finish');
  if (done) { done.textContent = cfg.completedButtonText; done.hidden = false; }
  document.body.classList.add('signed');
}

if (!cfg.acceptEachField) {
  // ——— document list: one signature, initials, Finish ———
  void askOnLoad().then(() => post(cfg.event));
  $('finish').addEventListener('click', () => {
    const d = drawn(), text = $('typed').value.trim();
    if (!typedMode && d.length === 0) { say('Please draw your signature, or choose Type instead.', 'error'); return; }
    if (typedMode && !text) { say('Please type your signature.', 'error'); return; }
    const initials = $('initials').value.trim();
    post({ ...cfg.event, action: 'signerSign' });
    void submit({ signature: typedMode ? { type: 'typed', text } : { type: 'drawn', strokes: d }, initials: initials ? { type: 'typed', text: initials } : undefined });
  });
} else {
  // ——— accept each field ———
  const adopted = { signature: null, initial: null };
  const boxes = []; // {spec, el, accepted}
  const progress = $('progress'), next = $('next'), finish = $('finish');
  const needed = () => boxes.filter((b) => b.clickable);
  const pending = () => needed().filter((b) => !b.accepted);
  const showProgress = () => {
    const n = needed().length, done = n - pending().length;
    progress.textContent = n === 0 ? 'Nothing to click: review the documents, then finish.' : done + ' of ' + n + ' fields signed';
    next.disabled = pending().length === 0;
  };

  // The mark dialog: the first signature (or initials) box asks for it; later boxes reuse it.
  const dialog = $('adopt');
  function adopt(kind) {
    const t = cfg.texts[kind];
    $('adopt-h').textContent = t.title;
    $('adopt-desc').textContent = t.description;
    $('adopt-ok').textContent = t.button;
    $('adopt-error').textContent = '';
    $('typed-label').textContent = kind === 'initial' ? 'Type your initials' : 'Type your signature';
    $('typed').value = kind === 'initial' ? initialsOf(cfg.name) : (cfg.name || '');
    clearPad();
    typedMode = cfg.typed;
    showMode();
    return new Promise((resolve) => {
      const ok = () => {
        const d = drawn(), text = $('typed').value.trim();
        if (!typedMode && d.length === 0) { $('adopt-error').textContent = 'Please draw, or choose Type instead.'; return; }
        if (typedMode && !text) { $('adopt-error').textContent = 'Please type it.'; return; }
        adopted[kind] = typedMode ? { input: { type: 'typed', text }, text } : { input: { type: 'drawn', strokes: d }, image: pad.toDataURL('image/png') };
        done(true);
      };
      const cancel = () => done(false);
      // 'close' is fired from a queued task: the one of the previous mark's dialog can arrive after
      // this one opened. Only a close that left the dialog closed (Escape) cancels.
      const onClose = () => { if (!dialog.open) done(false); };
      function done(result) {
        $('adopt-ok').removeEventListener('click', ok);
        $('adopt-cancel').removeEventListener('click', cancel);
        dialog.removeEventListener('close', onClose);
        if (dialog.open) dialog.close();
        resolve(result);
      }
      $('adopt-ok').addEventListener('click', ok);
      $('adopt-cancel').addEventListener('click', cancel);
      dialog.addEventListener('close', onClose);
      dialog.showModal();
      (typedMode ? $('typed') : $('adopt-ok')).focus();
    });
  }

  function show(box) {
    const mark = adopted[box.kind];
    box.el.textContent = '';
    if (mark.image) { const img = document.createElement('img'); img.src = mark.image; img.alt = ''; box.el.append(img); }
    else { const span = document.createElement('span'); span.className = 'typed-mark'; span.textContent = mark.text; box.el.append(span); }
    box.el.classList.add('accepted');
    box.el.setAttribute('aria-label', box.label + ': signed');
  }

  let signPosted = false;
  async function accept(box) {
    if (box.accepted || finished) return;
    if (!adopted[box.kind] && !(await adopt(box.kind))) { box.el.focus(); return; }
    box.accepted = true;
    show(box);
    showProgress();
    box.el.focus();
    if (pending().length > 0) return;
    if (!signPosted) { signPosted = true; post({ ...cfg.event, action: 'signerSign' }); }
    if (cfg.showFinish) { finish.disabled = false; finish.focus(); }
    else void finishNow();
  }

  function finishNow() {
    return submit({
      signature: adopted.signature ? adopted.signature.input : undefined,
      initials: adopted.initial ? adopted.initial.input : undefined,
      accepted: needed().map((b) => ({ document: b.spec.document, fieldId: b.spec.fieldId })),
    });
  }
  finish.addEventListener('click', () => { if (pending().length === 0) void finishNow(); });
  next.addEventListener('click', () => {
    const b = pending()[0];
    if (!b) return;
    b.el.scrollIntoView({ block: 'center' });
    b.el.focus();
  });

  const LABELS = { signature: 'Signature', initial: 'Initials', signatureDate: 'Date signed', fullName: 'Full name', email: 'Email' };
  async function renderDocuments(pdfjs) {
    const holder = $('docs');
    let number = 0;
    for (const doc of cfg.documents) {
      const section = document.createElement('section');
      section.className = 'doc';
      const h = document.createElement('h3');
      h.textContent = doc.title;
      section.append(h);
      holder.append(section);
      const data = new Uint8Array(await (await fetch(doc.url, { credentials: 'omit' })).arrayBuffer());
      const pdf = await pdfjs.getDocument({ data, isEvalSupported: false, enableXfa: false, standardFontDataUrl: cfg.assets + '/standard_fonts/', cMapUrl: cfg.assets + '/cmaps/', wasmUrl: cfg.assets + '/wasm/', iccUrl: cfg.assets + '/iccs/' }).promise;
      for (let p = 1; p <= pdf.numPages; p++) {
        const page = await pdf.getPage(p);
        const vp = page.getViewport({ scale: 1 });
        const wrap = document.createElement('div');
        wrap.className = 'page';
        wrap.style.aspectRatio = vp.width + ' / ' + vp.height;
        wrap.setAttribute('role', 'group');
        wrap.setAttribute('aria-label', doc.title + ', page ' + p + ' of ' + pdf.numPages);
        const canvas = document.createElement('canvas');
        canvas.setAttribute('aria-hidden', 'true');
        wrap.append(canvas);
        for (const spec of cfg.boxes.filter((b) => b.document === doc.index && b.page === p - 1)) {
          const clickable = spec.type === 'signature' || spec.type === 'initial';
          const el = document.createElement(clickable ? 'button' : 'div');
          el.className = 'box ' + (clickable ? 'to-sign' : 'info');
          el.dataset.field = spec.fieldId;
          el.dataset.type = spec.type;
          el.style.left = (spec.rect.x / vp.width) * 100 + '%';
          el.style.top = (spec.rect.y / vp.height) * 100 + '%';
          el.style.width = (spec.rect.width / vp.width) * 100 + '%';
          el.style.height = (spec.rect.height / vp.height) * 100 + '%';
          const box = { spec, el, clickable, kind: spec.type === 'initial' ? 'initial' : 'signature', accepted: false, label: '' };
          if (clickable) {
            number++;
            el.type = 'button';
            box.label = (spec.type === 'initial' ? cfg.texts.initial.label : cfg.texts.signature.label) + ' ' + number + ', ' + doc.title + ' page ' + p;
            el.setAttribute('aria-label', box.label + ': press to sign');
            el.textContent = spec.type === 'initial' ? cfg.texts.initial.label : cfg.texts.signature.label;
            el.addEventListener('click', () => void accept(box));
          } else {
            el.textContent = LABELS[spec.type] || spec.type;
            el.setAttribute('aria-hidden', 'true');
          }
          wrap.append(el);
          boxes.push(box);
        }
        section.append(wrap);
        // Drawn when it comes near the screen, at the width it is shown and the screen's pixel density.
        let drawnOnce = false;
        const io = new IntersectionObserver(async (entries) => {
          if (drawnOnce || !entries.some((e) => e.isIntersecting)) return;
          drawnOnce = true;
          io.disconnect();
          const scale = (wrap.clientWidth / vp.width) * (window.devicePixelRatio || 1);
          const viewport = page.getViewport({ scale });
          canvas.width = Math.ceil(viewport.width);
          canvas.height = Math.ceil(viewport.height);
          await page.render({ canvas, viewport }).promise;
          wrap.classList.add('rendered');
        }, { rootMargin: '400px' });
        io.observe(wrap);
      }
    }
  }

  (async () => {
    try {
      await askOnLoad();
      $('review').hidden = false;
      const pdfjs = await import(cfg.assets + '/pdf.mjs');
      pdfjs.GlobalWorkerOptions.workerSrc = cfg.assets + '/pdf.worker.mjs';
      await renderDocuments(pdfjs);
      if (needed().length === 0 || cfg.showFinish) finish.hidden = false;
      finish.disabled = pending().length > 0;
      showProgress();
      document.body.classList.add('loaded');
      post(cfg.event);
    } catch (e) {
      say(cfg.errorText + ' the documents could not be shown: ' + (e && e.message ? e.message : String(e)), 'error');
      post({ action: 'signerError', signerEid: cfg.event.signerEid, errorType: 'unknown', error: 'Error', message: 'The documents could not be shown' });
    }
  })();
}
`;
