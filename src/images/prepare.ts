/**
 * Images as PDF streams, prepared once and added to any number of documents.
 * sharp normalises them (EXIF orientation applied, optionally scaled down to a
 * pixel box; JPEG stays JPEG, anything else becomes 8-bit sRGB pixels with an
 * alpha mask) and the streams are compressed once. The prepared bytes belong to
 * no document, so an engine's `ImageCache` reuses them: the Markdown default
 * logo cost 33 ms of a 35 ms document when every document decoded, re-encoded
 * and deflated it again.
 */
import { createHash } from 'node:crypto';
import { deflateSync } from 'node:zlib';
import { degrees, drawImage, type PDFContext, type PDFDocument, type PDFPage, type PDFRef } from '@cantoo/pdf-lib';

/** An image added to a document: its XObject, drawn with `placeImage`. */
export interface EmbeddedImage {
  ref: PDFRef;
}

export interface LoadedImage {
  image: EmbeddedImage;
  /** Pixel size after orientation (and scaling). */
  widthPx: number;
  heightPx: number;
}

export interface PrepareOptions {
  /** Scaled down (never up) to fit inside this many pixels, keeping the aspect ratio. */
  fit?: { width: number; height: number };
  /** Only raster formats (SVG refused: librsvg may read files it references). */
  rasterOnly?: boolean;
  /** Quality of JPEGs that have to be re-encoded (default 92). */
  jpegQuality?: number;
}

const RASTER = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);

/** Largest decoded image accepted (pixels), so a tiny file cannot expand into gigabytes. */
const MAX_PIXELS = 40_000_000;

/** An image as PDF streams, ready to add to any document. */
export interface PreparedImage {
  widthPx: number;
  heightPx: number;
  /** DCTDecode (JPEG as is) or FlateDecode (RGB pixels) data. */
  data: Uint8Array;
  filter: 'DCTDecode' | 'FlateDecode';
  colorSpace: 'DeviceRGB' | 'DeviceGray';
  /** Flate-compressed 8-bit alpha, absent when every pixel is opaque. */
  alpha?: Uint8Array;
  /** Bytes kept, for the cache's budget. */
  size: number;
}

export async function prepareImage(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage | null> {
  // Loaded on the first image, not at import: a fill or document without images never pays for it.
  const { default: sharp } = await import('sharp');
  try {
    const input = sharp(bytes, { limitInputPixels: MAX_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    if (options.rasterOnly && (!meta.format || !RASTER.has(meta.format))) return null;
    const fit = options.fit;
    const fits = !fit || ((meta.width ?? Infinity) <= fit.width && (meta.height ?? Infinity) <= fit.height);
    if (
      fits &&
      meta.format === 'jpeg' &&
      (meta.orientation ?? 1) === 1 &&
      meta.space !== 'cmyk' &&
      (meta.channels === 3 || meta.channels === 1) &&
      meta.width &&
      meta.height
    ) {
      return jpeg(bytes, meta.width, meta.height, meta.channels === 1 ? 'DeviceGray' : 'DeviceRGB');
    }
    let oriented = input.rotate();
    if (fit)
      oriented = oriented.resize({
        width: Math.max(1, Math.ceil(fit.width)),
        height: Math.max(1, Math.ceil(fit.height)),
        fit: 'inside',
        withoutEnlargement: true,
      });
    if (meta.format === 'jpeg' && !meta.hasAlpha) {
      const { data, info } = await oriented
        .toColourspace('srgb')
        .jpeg({ quality: options.jpegQuality ?? 92 })
        .toBuffer({ resolveWithObject: true });
      return jpeg(new Uint8Array(data), info.width, info.height, 'DeviceRGB');
    }
    const { data, info } = await oriented
      .toColourspace('srgb')
      .ensureAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    const pixels = info.width * info.height;
    const rgb = new Uint8Array(pixels * 3);
    const alpha = new Uint8Array(pixels);
    let opaque = true;
    for (let i = 0; i < pixels; i++) {
      rgb[i * 3] = data[i * 4]!;
      rgb[i * 3 + 1] = data[i * 4 + 1]!;
      rgb[i * 3 + 2] = data[i * 4 + 2]!;
      const a = data[i * 4 + 3]!;
      alpha[i] = a;
      if (a !== 255) opaque = false;
    }
    const flateRgb = new Uint8Array(deflateSync(rgb));
    const flateAlpha = opaque ? undefined : new Uint8Array(deflateSync(alpha));
    return {
      widthPx: info.width,
      heightPx: info.height,
      data: flateRgb,
      filter: 'FlateDecode',
      colorSpace: 'DeviceRGB',
      ...(flateAlpha ? { alpha: flateAlpha } : {}),
      size: flateRgb.byteLength + (flateAlpha?.byteLength ?? 0),
    };
  } catch {
    return null;
  }
}

function jpeg(
  data: Uint8Array,
  widthPx: number,
  heightPx: number,
  colorSpace: PreparedImage['colorSpace'],
): PreparedImage {
  return { widthPx, heightPx, data, filter: 'DCTDecode', colorSpace, size: data.byteLength };
}

/** Adds a prepared image's streams to `doc` (the bytes are shared with other documents, never changed). */
export function embedPrepared(doc: PDFDocument, img: PreparedImage): LoadedImage {
  const context = doc.context;
  const common = { Type: 'XObject', Subtype: 'Image', Width: img.widthPx, Height: img.heightPx, BitsPerComponent: 8 };
  const dict: Record<string, unknown> = { ...common, ColorSpace: img.colorSpace, Filter: img.filter };
  if (img.alpha)
    dict.SMask = context.register(
      context.stream(img.alpha, { ...common, ColorSpace: 'DeviceGray', Filter: 'FlateDecode' }),
    );
  const ref = context.register(context.stream(img.data, dict as Parameters<PDFContext['stream']>[1]));
  return { image: { ref }, widthPx: img.widthPx, heightPx: img.heightPx };
}

/** Draws an embedded image in the box (points, bottom-left corner at x, y). */
export function placeImage(
  page: PDFPage,
  image: EmbeddedImage,
  box: { x: number; y: number; width: number; height: number },
): void {
  const name = page.node.newXObject('Image', image.ref);
  page.pushOperators(...drawImage(name, { ...box, rotate: degrees(0), xSkew: degrees(0), ySkew: degrees(0) }));
}

/**
 * Prepared images by content (SHA-256), kept across documents up to a byte
 * budget, least recently used first out. One per engine.
 */
export class ImageCache {
  readonly #entries = new Map<string, Promise<PreparedImage | null>>();
  readonly #sizes = new Map<string, number>();
  readonly #maxBytes: number;
  #bytes = 0;

  constructor(maxBytes = 64 * 1024 * 1024) {
    this.#maxBytes = maxBytes;
  }

  prepare(bytes: Uint8Array, options: PrepareOptions = {}): Promise<PreparedImage | null> {
    const key = `${createHash('sha256').update(bytes).digest('base64')}|${JSON.stringify(options)}`;
    return this.#get(key, () => prepareImage(bytes, options));
  }

  /** An image known by name (a bundled file): not even read again while it is kept. */
  prepareNamed(name: string, load: () => Promise<Uint8Array>): Promise<PreparedImage | null> {
    return this.#get(`name:${name}`, async () => prepareImage(await load()));
  }

  #get(key: string, make: () => Promise<PreparedImage | null>): Promise<PreparedImage | null> {
    const hit = this.#entries.get(key);
    if (hit) {
      this.#entries.delete(key);
      this.#entries.set(key, hit);
      return hit;
    }
    const pending = make().catch(() => null);
    this.#entries.set(key, pending);
    void pending.then((image) => this.#admit(key, image));
    return pending;
  }

  #admit(key: string, image: PreparedImage | null): void {
    const size = image?.size ?? 0;
    if (!this.#entries.has(key)) return;
    if (size > this.#maxBytes / 4) {
      // Too big to be worth keeping: used this once.
      this.#entries.delete(key);
      return;
    }
    this.#sizes.set(key, size);
    this.#bytes += size;
    for (const oldest of this.#entries.keys()) {
      if (this.#bytes <= this.#maxBytes) break;
      if (oldest === key) continue;
      this.#entries.delete(oldest);
      this.#bytes -= this.#sizes.get(oldest) ?? 0;
      this.#sizes.delete(oldest);
    }
  }
}
