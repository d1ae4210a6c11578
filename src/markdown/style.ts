/**
 * Defaults for everything the spec leaves open. docs/reference/markdown.md lists
 * them; test/markdown-defaults.test.ts checks them in rendered PDFs.
 */
import type { FontWeight } from '../fonts/index.js';

export const DEFAULTS = {
  fontFamily: 'Noto Sans',
  /** Points. 12pt is the 16px body text of the hosted API's examples. */
  fontSize: 12,
  textColor: '#000000',
  linkColor: '#1A5FB4',
  codeBackground: '#F2F2F4',
  quoteBar: '#C8C8D0',
  ruleColor: '#B0B0BA',
  gridColor: '#8C8C99',
  /** Grey of the timestamp and the page numbers. */
  furnitureColor: '#6B6B7B',
  furnitureFontSize: 8,
  /** Monospace families tried in order for code; the body family when none is installed. */
  codeFamilies: ['Noto Sans Mono', 'Courier'],
  /** Line advance as a multiple of the font size. */
  lineHeight: 1.35,
} as const;

/** Heading size as a multiple of the block's font size; index = level (0 = the block's `heading` key). */
export const HEADING_SCALE = [1.6, 1.75, 1.5, 1.25, 1.1, 1, 0.9] as const;

/** Vertical spacing, in multiples of the block's font size. */
export const SPACING = {
  betweenBlocks: 0.9,
  paragraph: 0.6,
  headingBefore: 0.9,
  headingAfter: 0.35,
  labelAfter: 0.2,
  looseItem: 0.4,
  codePadding: 0.4,
  rule: 0.6,
  tableCellPadding: 0.3,
} as const;

/** Default logo box, CSS pixels (the request's `maxWidth`/`maxHeight` defaults are 200). */
export const DEFAULT_LOGO_PX = { maxWidth: 140, maxHeight: 48 } as const;
export const PX = 0.75;

/** Style of one request block after document defaults and block overrides. */
export interface BlockStyle {
  fontFamily: string;
  fontSize: number;
  color: string;
  codeFamily: string;
}

export function weightOf(bold: boolean, italic: boolean): FontWeight {
  return bold ? (italic ? 'boldItalic' : 'bold') : italic ? 'italic' : 'normal';
}

export function hexToRgb01(hex: string): [number, number, number] {
  const n = parseInt(hex.replace('#', ''), 16);
  return [((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255];
}
