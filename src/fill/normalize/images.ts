import { prepareImage as prepare, type ImageCache, type PreparedImage } from '../../images/index.js';
import { loadResource, UNDECODABLE_IMAGE, type ResourceResolver } from '../../resources/index.js';
import type { Content } from '../../fields/index.js';
import type { FillPlan } from './types.js';

/** Images are stored at up to this resolution for their box: enough for print, small files. */
const DPI = 300;

export interface ImageOptions {
  resolver?: ResourceResolver;
  maxBytes: number;
  /** The engine's prepared images: a source shown in many fills is decoded and compressed once. */
  cache?: ImageCache;
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

async function prepareImage(
  source: string,
  boxWidth: number,
  boxHeight: number,
  options: ImageOptions,
): Promise<PreparedImage | null> {
  const resource = await loadResource(source, 'image', options.resolver, { maxBytes: options.maxBytes });
  if (!resource) return null;
  // Raster only: SVG is refused because librsvg may read files it references.
  const how = {
    fit: { width: Math.ceil((boxWidth * DPI) / 72), height: Math.ceil((boxHeight * DPI) / 72) },
    rasterOnly: true,
    jpegQuality: 90,
  };
  const image = await (options.cache ? options.cache.prepare(resource.body, how) : prepare(resource.body, how));
  // Loaded but not drawable: reported like an image that did not load, the field stays empty.
  if (!image) options.resolver?.reportUnusable?.(source, 'image', UNDECODABLE_IMAGE);
  return image;
}
