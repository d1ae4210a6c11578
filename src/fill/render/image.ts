import type { PDFDocument, PDFImage, PDFPage } from '@cantoo/pdf-lib';
import type { PreparedImage } from '../normalize/types.js';
import type { DrawBox } from './geometry.js';

/** Embeds each prepared image once per output document. */
export class ImageEmbedder {
  readonly #doc: PDFDocument;
  readonly #embedded = new Map<PreparedImage, Promise<PDFImage>>();

  constructor(doc: PDFDocument) {
    this.#doc = doc;
  }

  embed(image: PreparedImage): Promise<PDFImage> {
    let e = this.#embedded.get(image);
    if (!e) {
      e = image.format === 'jpg' ? this.#doc.embedJpg(image.bytes) : this.#doc.embedPng(image.bytes);
      this.#embedded.set(image, e);
    }
    return e;
  }
}

/** Fitted inside the box keeping its aspect ratio, centred. */
export async function drawImage(page: PDFPage, embedder: ImageEmbedder, box: DrawBox, image: PreparedImage): Promise<void> {
  const embedded = await embedder.embed(image);
  const ratio = image.width / image.height;
  const width = Math.min(box.width, box.height * ratio);
  const height = width / ratio;
  page.drawImage(embedded, { x: box.x + (box.width - width) / 2, y: box.y + (box.height - height) / 2, width, height });
}
