import type { PDFDict } from '@cantoo/pdf-lib';
import { PDF } from '../pdf/index.js';
import { acroFormOf, inherited, numberOf, textOf } from './tree.js';
import type { PDFDocument } from '@cantoo/pdf-lib';

/** What a field's default appearance string (/DA) and quadding (/Q) say about its text style. */
export interface DefaultAppearance {
  fontName?: string;
  /** 0 means "auto size" in PDF; undefined when /DA names none. */
  fontSize?: number;
  /** `#RRGGBB`. */
  color?: string;
  alignment?: 'left' | 'center' | 'right';
}

export function defaultAppearanceOf(doc: PDFDocument, field: PDFDict, widget?: PDFDict): DefaultAppearance {
  const da =
    textOf(widget?.lookup(PDF.DA)) ?? textOf(inherited(field, PDF.DA)) ?? textOf(acroFormOf(doc)?.lookup(PDF.DA)) ?? '';
  const parsed = parseDa(da);
  const q =
    numberOf(widget?.lookup(PDF.Q)) ?? numberOf(inherited(field, PDF.Q)) ?? numberOf(acroFormOf(doc)?.lookup(PDF.Q));
  if (q === 1) parsed.alignment = 'center';
  else if (q === 2) parsed.alignment = 'right';
  else if (q === 0) parsed.alignment = 'left';
  return parsed;
}

const hex = (v: number): string =>
  Math.round(Math.max(0, Math.min(1, v)) * 255)
    .toString(16)
    .padStart(2, '0')
    .toUpperCase();

/** Reads the last Tf and colour operators of a /DA string; anything unparsable is skipped. */
function parseDa(da: string): DefaultAppearance {
  const out: DefaultAppearance = {};
  const tokens = da.match(/\/[^\s/\[\]()<>]+|[-+]?(?:\d+\.?\d*|\.\d+)|[A-Za-z*']+/g) ?? [];
  const stack: string[] = [];
  for (const t of tokens) {
    if (/^[A-Za-z*']+$/.test(t)) {
      const nums = stack.map(Number);
      if (t === 'Tf' && stack.length >= 2) {
        out.fontName = stack[stack.length - 2].replace(/^\//, '');
        out.fontSize = Math.abs(nums[nums.length - 1]);
      } else if (t === 'g' && nums.length >= 1) {
        const g = nums[nums.length - 1];
        out.color = `#${hex(g)}${hex(g)}${hex(g)}`;
      } else if (t === 'rg' && nums.length >= 3) {
        const [r, g, b] = nums.slice(-3);
        out.color = `#${hex(r)}${hex(g)}${hex(b)}`;
      } else if (t === 'k' && nums.length >= 4) {
        const [c, m, y, k] = nums.slice(-4);
        out.color = `#${hex((1 - c) * (1 - k))}${hex((1 - m) * (1 - k))}${hex((1 - y) * (1 - k))}`;
      }
      stack.length = 0;
    } else {
      stack.push(t);
    }
  }
  return out;
}
