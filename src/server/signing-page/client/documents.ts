/** The signer's documents drawn by pdf.js (served by this server, assets.ts), their boxes over them. */
import type { PageBox, SigningPageConfig } from './contract.js';
import { $ } from './ui.js';

export type MarkKind = 'signature' | 'initial';

/** One of the signer's boxes on the page; `clickable` ones (signature, initials) are buttons. */
export interface FieldBox {
  spec: PageBox;
  el: HTMLElement;
  /** What is drawn at the field's rect: inside the button for a signature/initials box (the button is the larger touch target), else `el`. */
  mark: HTMLElement;
  clickable: boolean;
  kind: MarkKind;
  accepted: boolean;
  /** Its accessible name: kind, number, document and page. */
  label: string;
}

/** The part of pdf.js's API the page uses (its module is loaded at run time from `cfg.assets`). */
interface PdfViewport {
  width: number;
  height: number;
}
interface PdfPage {
  getViewport(options: { scale: number }): PdfViewport;
  render(options: { canvas: HTMLCanvasElement; viewport: PdfViewport }): { promise: Promise<unknown> };
}
interface PdfDocument {
  numPages: number;
  getPage(n: number): Promise<PdfPage>;
}
export interface PdfJs {
  getDocument(options: Record<string, unknown>): { promise: Promise<PdfDocument> };
  GlobalWorkerOptions: { workerSrc: string };
}

export async function loadPdfJs(assets: string): Promise<PdfJs> {
  const pdfjs = (await import(assets + '/pdf.mjs')) as PdfJs;
  pdfjs.GlobalWorkerOptions.workerSrc = assets + '/pdf.worker.mjs';
  return pdfjs;
}

const LABELS: Record<string, string> = {
  signature: 'Signature',
  initial: 'Initials',
  signatureDate: 'Date signed',
  fullName: 'Full name',
  email: 'Email',
};

/** Appends each document's pages (each drawn when it nears the screen) and hands every box to `onBox`. */
export async function renderDocuments(
  cfg: SigningPageConfig,
  pdfjs: PdfJs,
  onBox: (box: FieldBox) => void,
): Promise<void> {
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
    const pdf = await pdfjs.getDocument({
      data,
      isEvalSupported: false,
      enableXfa: false,
      standardFontDataUrl: cfg.assets + '/standard_fonts/',
      cMapUrl: cfg.assets + '/cmaps/',
      wasmUrl: cfg.assets + '/wasm/',
      iccUrl: cfg.assets + '/iccs/',
    }).promise;
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
        // In container units of the page's width (cqw, the height too: the page keeps its aspect ratio),
        // so the stylesheet can centre a touch target of at least 24 px on a smaller rect.
        const cqw = (v: number) => (v / vp.width) * 100 + 'cqw';
        el.style.setProperty('--x', cqw(spec.rect.x));
        el.style.setProperty('--y', cqw(spec.rect.y));
        el.style.setProperty('--w', cqw(spec.rect.width));
        el.style.setProperty('--h', cqw(spec.rect.height));
        let mark: HTMLElement = el;
        if (clickable) {
          mark = document.createElement('span');
          mark.className = 'mark';
          el.append(mark);
        }
        const box: FieldBox = {
          spec,
          el,
          mark,
          clickable,
          kind: spec.type === 'initial' ? 'initial' : 'signature',
          accepted: false,
          label: '',
        };
        if (clickable) {
          number++;
          (el as HTMLButtonElement).type = 'button';
          box.label =
            (spec.type === 'initial' ? cfg.texts.initial.label : cfg.texts.signature.label) +
            ' ' +
            number +
            ', ' +
            doc.title +
            ' page ' +
            p;
          el.setAttribute('aria-label', box.label + ': press to sign');
          mark.textContent = spec.type === 'initial' ? cfg.texts.initial.label : cfg.texts.signature.label;
        } else {
          el.textContent = LABELS[spec.type] || spec.type;
          el.setAttribute('aria-hidden', 'true');
        }
        wrap.append(el);
        onBox(box);
      }
      section.append(wrap);
      // Drawn when it comes near the screen, at the width it is shown and the screen's pixel density.
      let drawnOnce = false;
      const io = new IntersectionObserver(
        async (entries) => {
          if (drawnOnce || !entries.some((e) => e.isIntersecting)) return;
          drawnOnce = true;
          io.disconnect();
          const scale = (wrap.clientWidth / vp.width) * (window.devicePixelRatio || 1);
          const viewport = page.getViewport({ scale });
          canvas.width = Math.ceil(viewport.width);
          canvas.height = Math.ceil(viewport.height);
          await page.render({ canvas, viewport }).promise;
          wrap.classList.add('rendered');
        },
        { rootMargin: '400px' },
      );
      io.observe(wrap);
    }
  }
}
