import sharp from 'sharp';
import { loadResource, type ResourceResolver } from '../../resources/index.js';
import type { Content, FillPlan, PreparedImage } from './types.js';

/** Raster formats accepted; SVG is refused because librsvg may read files it references. */
const RASTER = new Set(['jpeg', 'png', 'webp', 'gif', 'tiff', 'heif', 'avif']);
/** Images are stored at up to this resolution for their box: enough for print, small files. */
const DPI = 300;
const MAX_INPUT_PIXELS = 100_000_000;

export interface ImageOptions {
  resolver?: ResourceResolver;
  maxBytes: number;
}

type ImageContent = Extract<Content, { kind: 'image' }>;

/**
 * Loads every image of the plan once per distinct source and stores the
 * result on each image content; a source that cannot be loaded or decoded
 * gives `null` (the field stays empty, the fill goes on).
 */
export async function loadImages(plan: FillPlan, options: ImageOptions): Promise<void> {
  const bySource = new Map<string, ImageContent[]>();
  for (const page of plan.pages) {
    for (const f of page.fields) {
      for (const c of f.contents) {
        if (c.kind !== 'image') continue;
        const list = bySource.get(c.source) ?? [];
        list.push(c);
        bySource.set(c.source, list);
      }
    }
  }
  await Promise.all(
    [...bySource].map(async ([source, uses]) => {
      const width = Math.max(...uses.map((u) => u.box.width));
      const height = Math.max(...uses.map((u) => u.box.height));
      const image = await prepareImage(source, width, height, options);
      for (const u of uses) u.image = image;
    }),
  );
}

async function prepareImage(source: string, boxWidth: number, boxHeight: number, options: ImageOptions): Promise<PreparedImage | null> {
  const resource = await loadResource(source, 'image', options.resolver, { maxBytes: options.maxBytes });
  if (!resource) return null;
  try {
    const input = sharp(resource.body, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'error' });
    const meta = await input.metadata();
    if (!meta.format || !RASTER.has(meta.format)) return null;
    const opaqueJpeg = meta.format === 'jpeg' && !meta.hasAlpha;
    const pipeline = input
      .rotate() // applies the EXIF orientation, then drops it
      .resize({
        width: Math.max(1, Math.ceil((boxWidth * DPI) / 72)),
        height: Math.max(1, Math.ceil((boxHeight * DPI) / 72)),
        fit: 'inside',
        withoutEnlargement: true,
      })
      .toColourspace('srgb');
    const { data, info } = opaqueJpeg
      ? await pipeline.jpeg({ quality: 90 }).toBuffer({ resolveWithObject: true })
      : await pipeline.png().toBuffer({ resolveWithObject: true });
    return { format: opaqueJpeg ? 'jpg' : 'png', bytes: new Uint8Array(data), width: info.width, height: info.height };
  } catch {
    return null;
  }
}
