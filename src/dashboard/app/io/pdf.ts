/**
 * pdf.js in the page: loaded on first use from the server's copy of the installed package
 * (DASHBOARD-API.md: /dashboard/assets/pdf.mjs and its worker), so the app's own bundle stays small
 * and a list or sign-in screen never loads it. Pages are drawn into canvases at the editor's zoom.
 */
import type * as PdfJs from 'pdfjs-dist';

type PdfLib = typeof PdfJs;
export type PdfDocument = Awaited<ReturnType<PdfLib['getDocument']>['promise']>;

const ASSETS = '/dashboard/assets';
const LIB_URL = `${ASSETS}/pdf.mjs`;
const WORKER_URL = `${ASSETS}/pdf.worker.mjs`;

let lib: Promise<PdfLib> | undefined;

function loadLib(): Promise<PdfLib> {
  lib ??= (import(/* @vite-ignore */ LIB_URL) as Promise<PdfLib>).then((m) => {
    m.GlobalWorkerOptions.workerSrc = WORKER_URL;
    return m;
  });
  return lib;
}

/** Opens PDF bytes (a copy: pdf.js hands the buffer to its worker). */
export async function openPdf(bytes: Uint8Array): Promise<PdfDocument> {
  const m = await loadLib();
  // No eval (the dashboard's CSP has no 'unsafe-eval'). The server serves pdf.js's data folders beside it:
  // the standard 14 fonts a PDF names without embedding, CMaps of CJK text, the image decoders, ICC profiles.
  return m.getDocument({
    data: bytes.slice(),
    isEvalSupported: false,
    standardFontDataUrl: `${ASSETS}/standard_fonts/`,
    cMapUrl: `${ASSETS}/cmaps/`,
    cMapPacked: true,
    wasmUrl: `${ASSETS}/wasm/`,
    iccUrl: `${ASSETS}/iccs/`,
  }).promise;
}

/**
 * Draws page `index` (0-based) into `canvas` at `zoom` CSS px per point, sharp on high-density screens.
 * `cancelled` stops a drawing a newer one replaces (the zoom changed while it ran).
 */
export async function drawPage(
  doc: PdfDocument,
  index: number,
  canvas: HTMLCanvasElement,
  zoom: number,
  cancelled: () => boolean,
): Promise<void> {
  const page = await doc.getPage(index + 1);
  if (cancelled()) return;
  const ratio = window.devicePixelRatio || 1;
  const viewport = page.getViewport({ scale: zoom * ratio });
  // Drawn off screen, then copied: the canvas shown never goes blank between two zooms.
  const scratch = document.createElement('canvas');
  scratch.width = Math.floor(viewport.width);
  scratch.height = Math.floor(viewport.height);
  const task = page.render({ canvas: scratch, viewport });
  try {
    await task.promise;
  } catch (e) {
    if (cancelled()) return;
    throw e;
  }
  if (cancelled()) return;
  canvas.width = scratch.width;
  canvas.height = scratch.height;
  canvas.getContext('2d')?.drawImage(scratch, 0, 0);
}

/** Each page's size in points as shown (rotation applied), for a PDF the server did not measure (previews). */
export async function pageSizes(doc: PdfDocument): Promise<Array<{ width: number; height: number }>> {
  const sizes = [];
  for (let i = 1; i <= doc.numPages; i++) {
    const vp = (await doc.getPage(i)).getViewport({ scale: 1 });
    sizes.push({ width: vp.width, height: vp.height });
  }
  return sizes;
}
