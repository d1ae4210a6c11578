import type { PDFDocument, PDFPage } from '@cantoo/pdf-lib';
import { embedPrepared, placeImage, type EmbeddedImage, type PreparedImage } from '../../images/index.js';
import type { DisplayRect } from '../../geometry/index.js';

/** Adds each prepared image once per output document. */
export class ImageEmbedder {
  readonly #doc: PDFDocument;
  readonly #embedded = new Map<PreparedImage, EmbeddedImage>();

  constructor(doc: PDFDocument) {
    this.#doc = doc;
  }

  embed(image: PreparedImage): EmbeddedImage {
    let e = this.#embedded.get(image);
    if (!e) {
      e = embedPrepared(this.#doc, image).image;
      this.#embedded.set(image, e);
    }
    return e;
  }
}

/** Fitted inside the box keeping its aspect ratio, centred. */
export function drawImage(page: PDFPage, embedder: ImageEmbedder, box: DisplayRect, image: PreparedImage): void {
  const embedded = embedder.embed(image);
  const ratio = image.widthPx / image.heightPx;
  const width = Math.min(box.width, box.height * ratio);
  const height = width / ratio;
  placeImage(page, embedded, {
    x: box.x + (box.width - width) / 2,
    y: box.y + (box.height - height) / 2,
    width,
    height,
  });
}
