import { describe, expect, it } from 'vitest';
import { compareImages, sideBySide, type Rgba } from './helpers/pixel-compare.js';

/** A white page with "text lines": 2-pixel-high dark bars every 8 rows, broken into words. */
function page(width = 60, height = 80, shiftY = 0, colour: [number, number, number] = [20, 20, 20]): Rgba {
  const data = new Uint8ClampedArray(width * height * 4).fill(255);
  for (let line = 4; line + 2 < height - 4; line += 8) {
    for (let x = 4; x < width - 4; x++) {
      if (x % 11 === 0) continue; // word spaces
      for (let dy = 0; dy < 2; dy++) {
        const y = line + dy + shiftY;
        if (y < 0 || y >= height) continue;
        data.set([...colour, 255], (y * width + x) * 4);
      }
    }
  }
  return { width, height, data };
}

const blank = (width = 60, height = 80): Rgba => ({
  width,
  height,
  data: new Uint8ClampedArray(width * height * 4).fill(255),
});
const pixel = (im: Rgba, x: number, y: number) => [
  ...im.data.subarray((y * im.width + x) * 4, (y * im.width + x) * 4 + 3),
];

describe('compareImages', () => {
  it('scores identical images 1 with no difference, and two blank pages 1', () => {
    const c = compareImages(page(), page());
    expect(c).toMatchObject({
      inkScore: 1,
      pixelScore: 1,
      meanAbsDiff: 0,
      sameSize: true,
      width: 60,
      height: 80,
      background: [255, 255, 255],
    });
    expect(compareImages(blank(), blank()).inkScore).toBe(1);
  });

  it('scores a page against a blank one 0 on ink, though most pixels are white in both', () => {
    for (const [a, b] of [
      [page(), blank()],
      [blank(), page()],
    ] as const) {
      const c = compareImages(a, b);
      expect(c.inkScore).toBe(0);
      expect(c.pixelScore).toBeGreaterThan(0.6);
      expect(c.meanAbsDiff).toBeGreaterThan(0.05);
    }
  });

  it('forgives a one-pixel shift (radius 1) but not a four-pixel one, nor one pixel with radius 0', () => {
    expect(compareImages(page(), page(60, 80, 1)).inkScore).toBeGreaterThan(0.95);
    expect(compareImages(page(), page(60, 80, 1), { radius: 0 }).inkScore).toBeLessThan(0.6);
    const far = compareImages(page(), page(60, 80, 4));
    expect(far.inkScore).toBeLessThan(0.05);
    expect(far.pixelScore).toBeLessThan(1);
  });

  it('counts a colour change beyond the tolerance as different, and one within it as the same', () => {
    expect(compareImages(page(), page(60, 80, 0, [60, 20, 20])).inkScore).toBe(1);
    expect(compareImages(page(), page(60, 80, 0, [200, 20, 20])).inkScore).toBe(0);
    expect(compareImages(page(), page(60, 80, 0, [200, 20, 20]), { tolerance: 200 }).inkScore).toBe(1);
  });

  it("takes the reference's most frequent colour as background: a tinted page is not all ink, white on it is", () => {
    const tint = (im: Rgba, rgb: [number, number, number]) => {
      for (let i = 0; i < im.data.length; i += 4) if (im.data[i] === 255) im.data.set(rgb, i);
      return im;
    };
    const blue = (): Rgba => tint(page(), [230, 235, 245]);
    const same = compareImages(blue(), blue());
    expect(same.background).toEqual([230, 235, 245]);
    expect(same.inkScore).toBe(1);
    // the same marks on white: the marks match, the white ground is ink the reference lacks
    const onWhite = compareImages(blue(), page()).inkScore;
    expect(onWhite).toBeGreaterThan(0.1);
    expect(onWhite).toBeLessThan(0.5);
    // a tinted ground with nothing on it against a tinted page of text
    expect(compareImages(tint(blank(), [230, 235, 245]), blue()).inkScore).toBe(0);
    // a page filled with one colour against a white one: all of the white page is ink
    const red = tint(blank(), [200, 0, 0]);
    expect(compareImages(red, blank()).inkScore).toBe(0);
    expect(compareImages(blank(), red).inkScore).toBe(0);
  });

  it('compares images of different sizes on the larger canvas, padding with white', () => {
    const wide = page(70, 80);
    const c = compareImages(page(60, 80), wide);
    expect(c).toMatchObject({ sameSize: false, width: 70, height: 80 });
    expect(c.diff.data).toHaveLength(70 * 80 * 4);
    // the extra columns of ink are the only difference
    expect(c.inkScore).toBeGreaterThan(0.8);
    expect(c.inkScore).toBeLessThan(1);
    // landscape against portrait: each side padded
    const cross = compareImages(page(80, 60), page(60, 80));
    expect(cross).toMatchObject({ width: 80, height: 80, sameSize: false });
    expect(cross.inkScore).toBeLessThan(1);
  });

  it("paints the reference's missing ink red, the other's extra ink blue and matching ink grey", () => {
    const a = blank(10, 10);
    const b = blank(10, 10);
    a.data.set([0, 0, 0, 255], (2 * 10 + 2) * 4);
    b.data.set([0, 0, 0, 255], (7 * 10 + 7) * 4);
    a.data.set([0, 0, 0, 255], (5 * 10 + 5) * 4);
    b.data.set([0, 0, 0, 255], (5 * 10 + 5) * 4);
    const { diff, inkScore } = compareImages(a, b);
    expect(pixel(diff, 2, 2)).toEqual([220, 30, 30]);
    expect(pixel(diff, 7, 7)).toEqual([30, 60, 220]);
    expect(pixel(diff, 5, 5)).toEqual([200, 200, 200]);
    expect(pixel(diff, 0, 0)).toEqual([255, 255, 255]);
    expect(inkScore).toBeCloseTo(2 / 4);
  });

  it('refuses data of the wrong length', () => {
    expect(() => compareImages({ width: 10, height: 10, data: new Uint8ClampedArray(10) }, blank(10, 10))).toThrow(
      /400/,
    );
  });
});

describe('sideBySide', () => {
  it('places the images left to right, top-aligned, with a grey gap and grey below the shorter one', () => {
    const a = page(20, 30);
    const b = blank(10, 10);
    const s = sideBySide([a, b], 4);
    expect([s.width, s.height]).toEqual([34, 30]);
    expect(pixel(s, 4, 4)).toEqual(pixel(a, 4, 4));
    expect(pixel(s, 22, 0)).toEqual([128, 128, 128]);
    expect(pixel(s, 25, 5)).toEqual([255, 255, 255]);
    expect(pixel(s, 25, 20)).toEqual([128, 128, 128]);
  });
});
