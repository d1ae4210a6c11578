/**
 * Accept each field: the documents drawn by pdf.js with the signer's boxes over them; each
 * signature/initials box is clicked (or reached with "Next field" and Enter); the first of a kind
 * asks for the mark (drawn or typed) in a dialog, later ones reuse it.
 */
import type { MarkInput } from './contract.js';
import { askOnLoad } from './details.js';
import { loadPdfJs, renderDocuments, type FieldBox, type MarkKind } from './documents.js';
import { words } from './i18n.js';
import { submit } from './submit.js';
import { $, initialsOf, post, say, type Client } from './ui.js';

/** An adopted mark: what is sent, and what the accepted boxes show (the drawing as an image, or the text). */
interface Adopted {
  input: MarkInput;
  image?: string;
  text?: string;
}

/** An adopted mark as shown: the drawing as an image (decorative: the box's name says it is signed), or the text. */
function markNode(mark: Adopted): HTMLElement {
  if (mark.image) {
    const img = document.createElement('img');
    img.src = mark.image;
    img.alt = '';
    return img;
  }
  const span = document.createElement('span');
  span.className = 'typed-mark';
  span.textContent = mark.text ?? '';
  return span;
}

export function acceptEachField(client: Client): void {
  const { cfg, pad } = client;
  const adopted: Record<MarkKind, Adopted | null> = { signature: null, initial: null };
  const boxes: FieldBox[] = [];
  const progress = $('progress'),
    next = $<HTMLButtonElement>('next'),
    finish = $<HTMLButtonElement>('finish');
  const needed = () => boxes.filter((b) => b.clickable);
  const pending = () => needed().filter((b) => !b.accepted);
  const showProgress = () => {
    const n = needed().length,
      done = n - pending().length;
    progress.textContent = n === 0 ? words.nothing : words.progress(done, n);
    next.disabled = pending().length === 0;
  };

  // The mark dialog: the first signature (or initials) box asks for it; later boxes reuse it.
  const dialog = $<HTMLDialogElement>('adopt');
  // What the error asked for is done once there is a stroke or text: the request would go stale.
  const clearError = () => ($('adopt-error').textContent = '');
  pad.onStroke(clearError);
  $('typed').addEventListener('input', clearError);
  // Enter in the typed field adopts it, as a form's submit would.
  $('typed').addEventListener('keydown', (e) => {
    if (e.key === 'Enter' && dialog.open && !e.isComposing) {
      e.preventDefault();
      $('adopt-ok').click();
    }
  });
  function adopt(kind: MarkKind): Promise<boolean> {
    const t = cfg.texts[kind];
    $('adopt-h').textContent = t.title;
    $('adopt-desc').textContent = t.description;
    $('adopt-ok').textContent = t.button;
    $('adopt-error').textContent = '';
    $('typed-label').textContent = kind === 'initial' ? words.typeInitials : words.typeSignature;
    $<HTMLInputElement>('typed').value = kind === 'initial' ? initialsOf(cfg.name) : cfg.name || '';
    pad.clear();
    pad.typedMode = cfg.typed;
    pad.showMode();
    return new Promise((resolve) => {
      const ok = () => {
        const d = pad.drawn(),
          text = $<HTMLInputElement>('typed').value.trim();
        if (!pad.typedMode && d.length === 0) {
          $('adopt-error').textContent = words.pleaseDraw;
          return;
        }
        if (pad.typedMode && !text) {
          $('adopt-error').textContent = words.pleaseType;
          return;
        }
        adopted[kind] = pad.typedMode
          ? { input: { type: 'typed', text }, text }
          : { input: { type: 'drawn', strokes: d }, image: pad.canvas.toDataURL('image/png') };
        done(true);
      };
      const cancel = () => done(false);
      // 'close' is fired from a queued task: the one of the previous mark's dialog can arrive after
      // this one opened. Only a close that left the dialog closed (Escape) cancels.
      const onClose = () => {
        if (!dialog.open) done(false);
      };
      function done(result: boolean) {
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
      (pad.typedMode ? $('typed') : $('adopt-ok')).focus();
    });
  }

  function show(box: FieldBox, mark: Adopted): void {
    box.mark.textContent = '';
    box.mark.append(markNode(mark));
    box.el.classList.add('accepted');
    // A name that contains the visible text (the typed mark), so voice control finds the box by what it shows.
    box.el.setAttribute('aria-label', box.label + ': signed' + (mark.text ? ', ' + mark.text : ''));
  }

  let signPosted = false;
  async function accept(box: FieldBox): Promise<void> {
    if (box.accepted || client.finished) return;
    if (!adopted[box.kind] && !(await adopt(box.kind))) {
      box.el.focus();
      return;
    }
    box.accepted = true;
    show(box, adopted[box.kind] as Adopted);
    showProgress();
    box.el.focus();
    if (pending().length > 0) return;
    if (!signPosted) {
      signPosted = true;
      post(cfg, { ...cfg.event, action: 'signerSign' });
    }
    if (cfg.showFinish) {
      finish.disabled = false;
      finish.focus();
    } else void finishNow();
  }

  function finishNow(): Promise<void> {
    return submit(client, {
      signature: adopted.signature ? adopted.signature.input : undefined,
      initials: adopted.initial ? adopted.initial.input : undefined,
      accepted: needed().map((b) => ({ document: b.spec.document, fieldId: b.spec.fieldId })),
    });
  }
  // The review before the final submit: every mark with its box and page, then Confirm (the Finish
  // button's text) or Back. Only on the Finish button: without it, the spec ends signing at the last box.
  const confirmDialog = $<HTMLDialogElement>('confirm');
  function review(): void {
    const list = $('confirm-list');
    list.textContent = '';
    for (const b of needed()) {
      const li = document.createElement('li');
      li.textContent = b.label;
      const mark = adopted[b.kind];
      if (mark) li.append(markNode(mark));
      list.append(li);
    }
    confirmDialog.showModal();
    $('confirm-ok').focus();
  }
  $('confirm-ok').addEventListener('click', () => {
    confirmDialog.close();
    void finishNow();
  });
  $('confirm-back').addEventListener('click', () => {
    confirmDialog.close();
    finish.focus();
  });
  finish.addEventListener('click', () => {
    if (pending().length > 0 || client.finished) return;
    if (cfg.showFinish) review();
    else void finishNow();
  });
  // On a narrow screen a small field is drawn a few pixels high: its page is widened (its document
  // scrolls sideways, the window does not) until the box is READABLE px high, then the box is centred.
  const READABLE = 16;
  let zoomed: HTMLElement | null = null;
  function zoomTo(box: FieldBox): void {
    const wrap = box.el.closest<HTMLElement>('.page');
    if (zoomed && zoomed !== wrap) {
      zoomed.style.removeProperty('width');
      zoomed.parentElement?.classList.remove('zoomed');
      zoomed = null;
    }
    const height = box.mark.getBoundingClientRect().height;
    if (!wrap || height === 0 || height >= READABLE) return;
    const width = wrap.getBoundingClientRect().width * Math.min(READABLE / height, 4);
    wrap.style.width = Math.ceil(width) + 'px';
    wrap.parentElement?.classList.add('zoomed');
    zoomed = wrap;
  }
  next.addEventListener('click', () => {
    const b = pending()[0];
    if (!b) return;
    zoomTo(b);
    b.el.scrollIntoView({ block: 'center', inline: 'center' });
    b.el.focus({ preventScroll: true });
  });

  void (async () => {
    try {
      await askOnLoad(client);
      $('review').hidden = false;
      const pdfjs = await loadPdfJs(cfg.assets);
      await renderDocuments(cfg, pdfjs, (box) => {
        if (box.clickable) box.el.addEventListener('click', () => void accept(box));
        boxes.push(box);
      });
      if (needed().length === 0 || cfg.showFinish) finish.hidden = false;
      finish.disabled = pending().length > 0;
      showProgress();
      document.body.classList.add('loaded');
      post(cfg, cfg.event);
    } catch (e) {
      const message = (e as { message?: unknown } | null)?.message;
      say(
        cfg.errorText + ' the documents could not be shown: ' + (e && message ? String(message) : String(e)),
        'error',
      );
      post(cfg, {
        action: 'signerError',
        signerEid: cfg.event.signerEid,
        errorType: 'unknown',
        error: 'Error',
        message: 'The documents could not be shown',
      });
    }
  })();
}
