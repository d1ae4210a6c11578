/**
 * What sits outside the content flow: the logo (top right of page 1), page
 * numbers in the margin, and the "Generated at" timestamp (bottom of the last page).
 */
import { readFile } from 'node:fs/promises';
import type { PDFDocument, PDFPage } from '@cantoo/pdf-lib';
import type { PageLayout, PageCountPosition } from '../page-options/index.js';
import type { ResourceResolver } from '../resources/index.js';
import type { LogoOption } from '../schema/index.js';
import type { TextSetter, TextStyle } from '../text/index.js';
import { embedPrepared, placeImage, prepareImage, type ImageCache, type LoadedImage } from '../images/index.js';
import { loadImages } from './images.js';
import { color } from './drawer.js';
import { DEFAULT_LOGO_PX, DEFAULTS, PX } from './style.js';
import { fieldsInZone, formatDateTime } from '../format/index.js';

export interface PlacedLogo {
  loaded: LoadedImage;
  width: number;
  height: number;
}

/** Longer side (CSS px) a smaller custom logo is enlarged to, so it is seen. */
const MIN_LOGO_PX = 24;

const DEFAULT_LOGO_FILE = new URL('../../assets/logo.png', import.meta.url);

/**
 * The logo to draw, or undefined (removed, or it failed to load: a broken logo
 * never fails the document). Sizes are CSS pixels; the image is only scaled down.
 */
export async function loadLogo(
  doc: PDFDocument,
  option: LogoOption | undefined,
  resolver: ResourceResolver | undefined,
  maxBytes: number,
  cache?: ImageCache,
): Promise<PlacedLogo | undefined> {
  if (option === false) return undefined;
  let loaded: LoadedImage | null;
  let box: { maxWidth: number; maxHeight: number };
  let upscale = false;
  if (option === undefined || option === true) {
    const read = async () => new Uint8Array(await readFile(DEFAULT_LOGO_FILE));
    const prepared = cache ? await cache.prepareNamed(DEFAULT_LOGO_FILE.href, read) : await prepareImage(await read());
    loaded = prepared && embedPrepared(doc, prepared);
    box = DEFAULT_LOGO_PX;
    upscale = true;
  } else {
    loaded = (await loadImages(doc, [option.src], resolver, maxBytes, cache)).get(option.src) ?? null;
    box = option;
  }
  if (!loaded) return undefined;
  // A custom logo is only scaled down, except a tiny one (a 2×2 px PNG drew as a 1.5 pt dot nobody
  // sees): it is enlarged until its longer side is MIN_LOGO_PX, still inside its box.
  const grow = upscale ? Infinity : Math.max(1, MIN_LOGO_PX / Math.max(loaded.widthPx, loaded.heightPx));
  const fit = Math.min(box.maxWidth / loaded.widthPx, box.maxHeight / loaded.heightPx, grow);
  return { loaded, width: loaded.widthPx * fit * PX, height: loaded.heightPx * fit * PX };
}

export function drawLogo(page: PDFPage, logo: PlacedLogo, layout: PageLayout): void {
  const x = layout.width - layout.margin.right - logo.width;
  const y = layout.height - layout.margin.top - logo.height;
  placeImage(page, logo.loaded.image, { x, y, width: logo.width, height: logo.height });
}

/** "Generated at 2026-11-22 14:03 UTC" in the given IANA zone (UTC by default), written by the one date formatter (src/format). */
export function formatTimestamp(now: Date, timeZone = 'UTC'): string {
  let fields;
  try {
    fields = fieldsInZone(now, timeZone);
  } catch {
    return formatTimestamp(now, 'UTC');
  }
  // The zone's short name (EST, GMT+1) has no moment token without a zone database: Intl names it.
  const zone =
    timeZone === 'UTC' || timeZone === 'Etc/UTC'
      ? 'UTC'
      : (new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
          .formatToParts(now)
          .find((p) => p.type === 'timeZoneName')?.value ?? '');
  return `Generated at ${formatDateTime(fields, 'YYYY-MM-DD HH:mm')} ${zone}`;
}

export function pageNumberText(page: number, total: number): string {
  return `Page ${page} of ${total}`;
}

/** Draws one line of small grey text in a margin slot. */
export function drawMarginText(
  setter: TextSetter,
  page: PDFPage,
  layout: PageLayout,
  position: PageCountPosition,
  text: string,
  fontFamily: string,
): void {
  const style: TextStyle = { fontFamily, fontWeight: 'normal', fontSize: DEFAULTS.furnitureFontSize };
  const [line] = setter.layout([{ text, style }]);
  if (!line) return;
  const size = style.fontSize;
  const top = position.startsWith('top');
  const margin = top ? layout.margin.top : layout.margin.bottom;
  // Centred in the margin, but never closer to the paper's edge than about one text height.
  const baseline = top
    ? layout.height - Math.max(size * 1.2, margin / 2 + size * 0.35)
    : Math.max(size * 0.8, margin / 2 - size * 0.35);
  const left = layout.margin.left;
  const right = layout.width - layout.margin.right;
  const x = position.endsWith('Left')
    ? left
    : position.endsWith('Right')
      ? right - line.width
      : (left + right - line.width) / 2;
  setter.drawLine(page, line, x, baseline, color(DEFAULTS.furnitureColor));
}
