/** Content images and custom logos: fetched through the resource layer, prepared through the engine's cache. */
import type { PDFDocument } from '@cantoo/pdf-lib';
import { embedPrepared, prepareImage, type ImageCache, type LoadedImage } from '../images/index.js';
import { loadResource, UNDECODABLE_IMAGE, type ResourceResolver } from '../resources/index.js';

export type { EmbeddedImage, LoadedImage } from '../images/index.js';

/** Decodes and adds one image to `doc` (through the cache when there is one); null when it cannot be read. */
async function decodeImage(doc: PDFDocument, bytes: Uint8Array, cache?: ImageCache): Promise<LoadedImage | null> {
  const prepared = cache ? await cache.prepare(bytes) : await prepareImage(bytes);
  return prepared ? embedPrepared(doc, prepared) : null;
}

/** Loads every distinct URL once, concurrently; the map holds null for failures. */
export async function loadImages(
  doc: PDFDocument,
  urls: Iterable<string>,
  resolver: ResourceResolver | undefined,
  maxBytes: number,
  cache?: ImageCache,
): Promise<Map<string, LoadedImage | null>> {
  const unique = [...new Set(urls)];
  const results = await Promise.all(
    unique.map(async (url) => {
      const res = url ? await loadResource(url, 'image', resolver, { maxBytes }) : null;
      const image = res ? await decodeImage(doc, res.body, cache) : null;
      // Loaded but not drawable (junk bytes, a format the decoder refuses): reported, never silently missing.
      if (res && !image) resolver?.reportUnusable?.(url, 'image', UNDECODABLE_IMAGE);
      return [url, image] as const;
    }),
  );
  return new Map(results);
}
