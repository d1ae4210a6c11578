/**
 * Pixel comparison of two page images for reports (scripts/weasyprint-compare.ts), not a pass/fail
 * golden check (that is golden.ts). Pure: RGBA arrays in, scores and a diff image out.
 *
 * Pages are mostly background, so a share of all pixels says little (a blank page is "90 % the same" as
 * a page of text): the main score counts only inked pixels, those that differ from the reference's
 * background in either image. The background is the reference's most frequent colour, not white: the
 * ticket sample's page is light blue all over, and counted as ink it made any two tickets look alike.
 */

export interface Rgba {
  width: number;
  height: number;
  /** width × height × 4 bytes, row by row. */
  data: Uint8Array | Uint8ClampedArray;
}

export interface CompareOptions {
  /** Largest per-channel difference (0..255) at which two pixels still count as the same colour (default 48). */
  tolerance?: number;
  /**
   * How far (pixels) inkScore looks in the other image for a matching pixel (default 1): at report
   * resolutions one pixel is a rounding of the glyph origin, not a layout difference.
   */
  radius?: number;
  /** A pixel whose channels are all within this of the background (0..255) is background, not ink (default 10). */
  inkThreshold?: number;
}

export interface Comparison {
  /** Size the images were compared at: the larger of the two in each direction (the smaller is padded with white at the right and bottom). */
  width: number;
  height: number;
  sameSize: boolean;
  /** The reference's background: its most frequent colour (RGB). */
  background: [number, number, number];
  /**
   * Of the pixels inked in either image, the share that the other image matches (ink of the same colour
   * within `tolerance`, within `radius`): 1 for identical images, 1 when neither has ink, 0 against a blank page.
   */
  inkScore: number;
  /** Share of all pixels whose colours are within `tolerance` at the same place. */
  pixelScore: number;
  /** Mean absolute difference of the R, G, B channels over all pixels, 0 (same) .. 1 (black against white). */
  meanAbsDiff: number;
  /** Matching ink pale grey, ink only `a` has red, ink only `b` has blue, white elsewhere (background). */
  diff: Rgba;
}

/** Compares `a` (the reference) with `b`. */
export function compareImages(a: Rgba, b: Rgba, options: CompareOptions = {}): Comparison {
  const { tolerance = 48, radius = 1, inkThreshold = 10 } = options;
  const width = Math.max(a.width, b.width);
  const height = Math.max(a.height, b.height);
  const pa = padWhite(a, width, height);
  const pb = padWhite(b, width, height);
  const diff = new Uint8ClampedArray(width * height * 4).fill(255);

  const bg = mostFrequent(pa);
  const isInk = (d: Uint8ClampedArray, i: number) =>
    Math.abs(d[i]! - bg[0]) > inkThreshold ||
    Math.abs(d[i + 1]! - bg[1]) > inkThreshold ||
    Math.abs(d[i + 2]! - bg[2]) > inkThreshold;
  const close = (d: Uint8ClampedArray, i: number, e: Uint8ClampedArray, j: number) =>
    Math.abs(d[i]! - e[j]!) <= tolerance &&
    Math.abs(d[i + 1]! - e[j + 1]!) <= tolerance &&
    Math.abs(d[i + 2]! - e[j + 2]!) <= tolerance;
  /**
   * Whether `other` has ink near (x, y) of the colour `own` has there. Ink only matches ink: a white card
   * where the reference has its light-blue ground (the ticket) is within any colour tolerance, yet a mark.
   */
  const matched = (own: Uint8ClampedArray, other: Uint8ClampedArray, x: number, y: number) => {
    const i = (y * width + x) * 4;
    for (let dy = -radius; dy <= radius; dy++) {
      const yy = y + dy;
      if (yy < 0 || yy >= height) continue;
      for (let dx = -radius; dx <= radius; dx++) {
        const xx = x + dx;
        if (xx < 0 || xx >= width) continue;
        const j = (yy * width + xx) * 4;
        if (isInk(other, j) && close(own, i, other, j)) return true;
      }
    }
    return false;
  };

  let ink = 0;
  let inkMatched = 0;
  let same = 0;
  let absSum = 0;
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4;
      if (close(pa, i, pb, i)) same++;
      absSum += Math.abs(pa[i]! - pb[i]!) + Math.abs(pa[i + 1]! - pb[i + 1]!) + Math.abs(pa[i + 2]! - pb[i + 2]!);
      const inkA = isInk(pa, i);
      const inkB = isInk(pb, i);
      const okA = inkA && matched(pa, pb, x, y);
      const okB = inkB && matched(pb, pa, x, y);
      ink += Number(inkA) + Number(inkB);
      inkMatched += Number(okA) + Number(okB);
      if (inkA && !okA) paint(diff, i, 220, 30, 30);
      else if (inkB && !okB) paint(diff, i, 30, 60, 220);
      else if (inkA || inkB) paint(diff, i, 200, 200, 200);
    }
  }
  const pixels = width * height;
  return {
    width,
    height,
    sameSize: a.width === b.width && a.height === b.height,
    background: bg,
    inkScore: ink === 0 ? 1 : inkMatched / ink,
    pixelScore: pixels === 0 ? 1 : same / pixels,
    meanAbsDiff: pixels === 0 ? 0 : absSum / (pixels * 3 * 255),
    diff: { width, height, data: diff },
  };
}

/** The images next to each other, top-aligned, on a grey ground with `gap` pixels between them. */
export function sideBySide(images: Rgba[], gap = 6): Rgba {
  const width = images.reduce((w, im) => w + im.width, 0) + gap * Math.max(0, images.length - 1);
  const height = Math.max(0, ...images.map((im) => im.height));
  const data = new Uint8ClampedArray(width * height * 4);
  for (let i = 0; i < data.length; i += 4) paint(data, i, 128, 128, 128);
  let left = 0;
  for (const im of images) {
    for (let y = 0; y < im.height; y++) {
      data.set(im.data.subarray(y * im.width * 4, (y + 1) * im.width * 4), (y * width + left) * 4);
    }
    left += im.width + gap;
  }
  return { width, height, data };
}

/** The most frequent RGB colour (white for an empty image). */
function mostFrequent(d: Uint8ClampedArray): [number, number, number] {
  const counts = new Map<number, number>();
  let best = 0xffffff;
  let bestCount = 0;
  for (let i = 0; i < d.length; i += 4) {
    const key = (d[i]! << 16) | (d[i + 1]! << 8) | d[i + 2]!;
    const n = (counts.get(key) ?? 0) + 1;
    counts.set(key, n);
    if (n > bestCount) [best, bestCount] = [key, n];
  }
  return [best >> 16, (best >> 8) & 255, best & 255];
}

function padWhite(im: Rgba, width: number, height: number): Uint8ClampedArray {
  if (im.data.length !== im.width * im.height * 4)
    throw new Error(
      `image data has ${im.data.length} bytes, ${im.width}×${im.height} RGBA needs ${im.width * im.height * 4}`,
    );
  if (im.width === width && im.height === height)
    return new Uint8ClampedArray(im.data.buffer, im.data.byteOffset, im.data.length);
  const out = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let y = 0; y < im.height; y++)
    out.set(im.data.subarray(y * im.width * 4, (y + 1) * im.width * 4), y * width * 4);
  return out;
}

function paint(d: Uint8ClampedArray, i: number, r: number, g: number, b: number): void {
  d[i] = r;
  d[i + 1] = g;
  d[i + 2] = b;
  d[i + 3] = 255;
}
