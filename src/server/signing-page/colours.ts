/**
 * Colours the signing page puts text in (or white text on): darkened until they reach WCAG's 4.5:1
 * against white, so an organization's brand colour keeps its hue but stays readable. Culori would
 * do it, but is not one of castpress's dependencies; the formula is WCAG 2's relative luminance.
 */

const HEX = /^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/;

export const isHexColour = (v: string | undefined): v is string => typeof v === 'string' && HEX.test(v);

function channels(hex: string): [number, number, number] {
  const h = hex.length === 4 ? hex.replace(/[0-9a-f]/gi, (c) => c + c).slice(1) : hex.slice(1);
  return [0, 2, 4].map((i) => parseInt(h.slice(i, i + 2), 16)) as [number, number, number];
}

function luminance([r, g, b]: [number, number, number]): number {
  const lin = (c: number) => {
    const s = c / 255;
    return s <= 0.04045 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
}

/** `hex`, or a darker shade of it, with at least `ratio` against white; lowercase #rrggbb. */
export function readableOnWhite(hex: string, ratio = 4.5): string {
  let rgb = channels(hex);
  // 2 % darker per step: at most ~230 steps reach black (21:1), so this ends.
  while (1.05 / (luminance(rgb) + 0.05) < ratio) rgb = rgb.map((c) => Math.floor(c * 0.98)) as typeof rgb;
  return '#' + rgb.map((c) => c.toString(16).padStart(2, '0')).join('');
}
