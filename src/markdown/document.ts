/**
 * Request blocks → sections of the block model, each with its resolved style.
 * Keys of one block render in the order heading, label, content, table.
 */
import type { MarkdownIt } from 'markdown-it';
import type { FontRegistry } from '../fonts/index.js';
import type { MarkdownBlock, MarkdownRequest, TableBlock } from '../schema/index.js';
import { plainPieces, type Block, type ColumnSpec, type Inline, type TableModel } from './model.js';
import { parseMarkdown } from './parse.js';
import { DEFAULTS, PX, type BlockStyle } from './style.js';

export interface Section {
  style: BlockStyle;
  blocks: Block[];
  /** The request block's `id`: where its boxes land is reported (positions.ts). */
  id?: string;
}

function codeFamily(fonts: FontRegistry, fallback: string): string {
  return DEFAULTS.codeFamilies.find((f) => fonts.hasFamily(f)) ?? fallback;
}

export function toSections(request: MarkdownRequest, md: MarkdownIt, fonts: FontRegistry): Section[] {
  const code = codeFamily(fonts, request.fontFamily ?? DEFAULTS.fontFamily);
  return request.data.map((block) => ({
    style: {
      fontFamily: block.fontFamily ?? request.fontFamily ?? DEFAULTS.fontFamily,
      fontSize: block.fontSize ?? request.fontSize ?? DEFAULTS.fontSize,
      color: block.textColor ?? request.textColor ?? DEFAULTS.textColor,
      codeFamily: code,
    },
    blocks: blockContent(block, md),
    ...(block.id !== undefined ? { id: block.id } : {}),
  }));
}

function blockContent(block: MarkdownBlock, md: MarkdownIt): Block[] {
  const out: Block[] = [];
  if (block.heading !== undefined && block.heading.trim() !== '')
    out.push({ kind: 'heading', level: 0, inlines: plainPieces(block.heading) });
  if (block.label !== undefined && block.label.trim() !== '')
    out.push({ kind: 'label', inlines: plainPieces(block.label) });
  if (block.content !== undefined) out.push(...parseMarkdown(md, block.content));
  if (block.table !== undefined) out.push({ kind: 'table', table: tableModel(block.table) });
  return out;
}

/** Request tables hold plain text: a cell's `*` or `|` is shown as typed. */
function tableModel(t: TableBlock): TableModel {
  return {
    rows: t.rows.map((row) => row.map((cell) => ({ inlines: plainPieces(cell) }))),
    header: t.firstRowHeaders && t.rows.length > 0,
    columns: t.columnOptions.map((o): ColumnSpec => ({ align: o.align ?? 'left', ...widthOf(o.width) })),
    rowGridlines: t.rowGridlines,
    columnGridlines: t.columnGridlines,
    verticalAlign: t.verticalAlign,
  };
}

function widthOf(width: string | undefined): Pick<ColumnSpec, 'width'> {
  if (width === undefined) return {};
  const value = parseFloat(width);
  if (!(value > 0)) return {};
  return { width: width.trim().endsWith('%') ? { share: value / 100 } : { points: value * PX } };
}

/** Every image URL in the sections, so they load together before layout. */
export function imageUrls(sections: Section[]): string[] {
  const urls: string[] = [];
  const inlines = (list: Inline[]) => list.forEach((i) => i.kind === 'image' && urls.push(i.src));
  const walk = (blocks: Block[]) => {
    for (const b of blocks) {
      if (b.kind === 'paragraph') inlines(b.inlines);
      else if (b.kind === 'quote') walk(b.children);
      else if (b.kind === 'list') b.items.forEach(walk);
    }
  };
  sections.forEach((s) => walk(s.blocks));
  return urls;
}
