import { readFile } from 'node:fs/promises';
import { createCanvas } from '@napi-rs/canvas';
import sharp from 'sharp';
import { openPdf } from './pdf.js';
import { tool } from './signing.js';

export interface RenderedPage {
  width: number;
  height: number;
  /** RGBA pixels, white background. */
  rgba: Uint8ClampedArray;
  png: Buffer;
}

/** Renders every page with pdfjs at `scale` pixels per point; `annotations: false` draws page content only. */
export async function renderPages(
  bytes: Uint8Array,
  scale = 1,
  options: { annotations?: boolean } = {},
): Promise<RenderedPage[]> {
  const doc = await openPdf(bytes);
  try {
    const out: RenderedPage[] = [];
    for (let i = 1; i <= doc.numPages; i++) {
      const page = await doc.getPage(i);
      const viewport = page.getViewport({ scale });
      const width = Math.ceil(viewport.width);
      const height = Math.ceil(viewport.height);
      const canvas = createCanvas(width, height);
      const ctx = canvas.getContext('2d');
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      await page.render({
        canvasContext: ctx as unknown as CanvasRenderingContext2D,
        canvas: canvas as unknown as HTMLCanvasElement,
        viewport,
        // ENABLE (1) draws every annotation's appearance stream, form widgets included; ENABLE_FORMS (2)
        // leaves widgets to an HTML layer and draws none of them.
        annotationMode: options.annotations === false ? 0 : 1,
      } as unknown as Parameters<typeof page.render>[0]).promise;
      const rgba = new Uint8ClampedArray(ctx.getImageData(0, 0, width, height).data);
      out.push({ width, height, rgba, png: canvas.toBuffer('image/png') });
      page.cleanup();
    }
    return out;
  } finally {
    await doc.destroy();
  }
}

/**
 * Dark pixels (grey below 128) inside a rect (points from the top-left corner) of page 1 of the PDF
 * file `pdfFile`, as poppler renders it at 72 dpi (annotation appearances included); the image is
 * written beside the file.
 */
export async function popplerInkIn(
  pdfFile: string,
  rect: { x: number; y: number; width: number; height: number },
): Promise<number> {
  const prefix = `${pdfFile}-ink`;
  await tool('pdftoppm', ['-r', '72', '-f', '1', '-l', '1', '-gray', '-png', '-singlefile', pdfFile, prefix]);
  const { data } = await sharp(await readFile(`${prefix}.png`))
    .extract({
      left: Math.round(rect.x),
      top: Math.round(rect.y),
      width: Math.round(rect.width),
      height: Math.round(rect.height),
    })
    .raw()
    .toBuffer({ resolveWithObject: true });
  let dark = 0;
  for (const v of data) if (v < 128) dark++;
  return dark;
}
