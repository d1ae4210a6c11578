/**
 * Images for content and the logo: fetched through the resource layer, normalised
 * with sharp (EXIF orientation applied, anything but JPEG turned into PNG) and
 * embedded once per document. A failure yields null; the caller shows alt text.
 */
import type { PDFDocument, PDFImage } from '@cantoo/pdf-lib';
import sharp from 'sharp';
import { loadResource, type ResourceResolver } from '../resources/index.js';

export interface LoadedImage {
  image: PDFImage;
  /** Pixel size after orientation. */
  widthPx: number;
  heightPx: number;
}

/** Largest decoded image accepted (pixels), so a tiny file cannot expand into gigabytes. */
const MAX_PIXELS = 40_000_000;

export async function decodeImage(doc: PDFDocument, bytes: Uint8Array): Promise<LoadedImage | null> {
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    const oriented = input.rotate();
    if (meta.format === 'jpeg' && (meta.orientation ?? 1) === 1 && meta.space !== 'cmyk') {
      const image = await doc.embedJpg(bytes);
      return { image, widthPx: image.width, heightPx: image.height };
    }
    if (meta.format === 'jpeg') {
      const { data, info } = await oriented.toColourspace('srgb').jpeg({ quality: 92 }).toBuffer({ resolveWithObject: true });
      const image = await doc.embedJpg(data);
      return { image, widthPx: info.width, heightPx: info.height };
    }
    const { data, info } = await oriented.png().toBuffer({ resolveWithObject: true });
    const image = await doc.embedPng(data);
    return { image, widthPx: info.width, heightPx: info.height };
  } catch {
    return null;
  }
}

/** Loads every distinct URL once, concurrently; the map holds null for failures. */
export async function loadImages(
  doc: PDFDocument,
  urls: Iterable<string>,
  resolver: ResourceResolver | undefined,
  maxBytes: number,
): Promise<Map<string, LoadedImage | null>> {
  const unique = [...new Set(urls)];
  const results = await Promise.all(
    unique.map(async (url) => {
      const res = url ? await loadResource(url, 'image', resolver, { maxBytes }) : null;
      return [url, res ? await decodeImage(doc, res.body) : null] as const;
    }),
  );
  return new Map(results);
}
