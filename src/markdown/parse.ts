/**
 * markdown-it tokens → the block model. Block and inline tokens are handled by
 * small rules looked up by token type, so a construct is added by adding a rule.
 */
import markdownit, { type MarkdownIt, type Token } from 'markdown-it';
import { fillSlots, holdsSlot, slotLiterals, type TextPiece } from '../format/index.js';
import type { Align, Block, Inline, InlineMarks, TableCell } from './model.js';
import { htmlToText } from './html-text.js';

/** One parser per document: markdown-it keeps no global state, but its options are ours. */
export function createParser(): MarkdownIt {
  // html: raw HTML is recognised (so it never shows as tag soup); we keep only its text.
  const md = markdownit('default', { html: true, linkify: false, typographer: false });
  // markdown-it refuses data: URLs other than gif/png/jpeg/webp, which would drop SVG images. Nothing here
  // runs a URL: images go through the resource loader (data: and http(s) only), links through a scheme allow-list.
  md.validateLink = (url) => !/^\s*(javascript|vbscript|file):/i.test(url);
  return md;
}

/** Blocks of a Markdown string; its literal spans (src/format literal-text.ts) come back as text, never as Markdown. */
export function parseMarkdown(md: MarkdownIt, text: string): Block[] {
  const { source, values } = slotLiterals(text);
  const tokens = md.parse(source, {});
  const cursor = { tokens, i: 0, values };
  return readBlocks(cursor, undefined);
}

/**
 * How many of a Markdown string's literal spans would not be shown as text: in a link's address, an
 * image's source or an HTML tag (they are dropped there). Workflows refuse such a place when loaded.
 */
export function unplacedLiterals(md: MarkdownIt, text: string): number {
  const { source, values } = slotLiterals(text);
  const shown = new Set<number>();
  const visit = (tokens: Token[]) => {
    for (const t of tokens) {
      const content =
        t.type === 'html_block'
          ? htmlToText(t.content)
          : ['text', 'text_special', 'code_inline', 'fence', 'code_block'].includes(t.type)
            ? t.content
            : '';
      for (const p of fillSlots(
        content,
        values.map((_, k) => String(k)),
      ))
        if (p.value) shown.add(Number(p.text));
      if (t.children) visit(t.children);
    }
  };
  visit(md.parse(source, {}));
  return values.length - shown.size;
}

interface Cursor {
  tokens: Token[];
  i: number;
  /** The literal spans put aside before parsing, by slot. */
  values: readonly string[];
}

type BlockRule = (c: Cursor, open: Token) => Block | Block[] | null;

/** Reads blocks until the token of type `until` (consumed) or the end. */
function readBlocks(c: Cursor, until: string | undefined): Block[] {
  const out: Block[] = [];
  while (c.i < c.tokens.length) {
    const t = c.tokens[c.i++];
    if (until !== undefined && t.type === until) break;
    const rule = BLOCK_RULES[t.type];
    if (!rule) continue;
    const b = rule(c, t);
    if (Array.isArray(b)) out.push(...b);
    else if (b) out.push(b);
  }
  return out;
}

/** Consumes the inline token after an *_open token and its matching close. */
function readInlineUntil(c: Cursor, close: string): Inline[] {
  let inlines: Inline[] = [];
  while (c.i < c.tokens.length) {
    const t = c.tokens[c.i++];
    if (t.type === close) break;
    if (t.type === 'inline') inlines = inlines.concat(convertInline(t.children ?? [], c.values));
  }
  return inlines;
}

const BLOCK_RULES: Record<string, BlockRule> = {
  paragraph_open: (c) => {
    const inlines = readInlineUntil(c, 'paragraph_close');
    return inlines.length > 0 ? { kind: 'paragraph', inlines } : null;
  },
  heading_open: (c, t) => ({
    kind: 'heading',
    level: Number(t.tag.slice(1)) || 1,
    inlines: readInlineUntil(c, 'heading_close'),
  }),
  fence: (c, t) => codeBlock(t.content, c.values),
  code_block: (c, t) => codeBlock(t.content, c.values),
  hr: () => ({ kind: 'rule' }),
  blockquote_open: (c) => ({ kind: 'quote', children: readBlocks(c, 'blockquote_close') }),
  bullet_list_open: (c) => readList(c, false, 1),
  ordered_list_open: (c, t) => readList(c, true, Number(t.attrGet('start') ?? 1)),
  html_block: (c, t) => {
    const inlines = piecesToInlines(fillSlots(htmlToText(t.content), c.values), PLAIN_MARKS);
    return inlines.length > 0 ? { kind: 'paragraph', inlines } : null;
  },
  table_open: (c) => readTable(c),
};

const PLAIN_MARKS: InlineMarks = { bold: false, italic: false, strike: false, code: false };

function piecesToInlines(pieces: TextPiece[], marks: InlineMarks): Inline[] {
  return pieces.map((p) => ({ kind: 'text', text: p.text, marks: p.value ? { ...marks, value: true } : marks }));
}

/** A code block's text; the characters of literal spans are listed so they are drawn as values. */
function codeBlock(content: string, values: readonly string[]): Block {
  const pieces = fillSlots(content.replace(/\n$/, ''), values);
  const ranges: Array<[number, number]> = [];
  let text = '';
  for (const p of pieces) {
    if (p.value) ranges.push([text.length, text.length + p.text.length]);
    text += p.text;
  }
  return { kind: 'code', text, ...(ranges.length > 0 ? { values: ranges } : {}) };
}

function readList(c: Cursor, ordered: boolean, start: number): Block {
  const close = ordered ? 'ordered_list_close' : 'bullet_list_close';
  const items: Block[][] = [];
  let tight = true;
  while (c.i < c.tokens.length) {
    const t = c.tokens[c.i];
    if (t.type === close) {
      c.i++;
      break;
    }
    if (t.type === 'list_item_open') {
      // markdown-it hides the paragraphs of tight lists; a visible one makes the list loose.
      for (let j = c.i + 1; j < c.tokens.length && c.tokens[j].level > t.level; j++) {
        const p = c.tokens[j];
        if (p.type === 'paragraph_open' && p.level === t.level + 1 && !p.hidden) tight = false;
      }
      c.i++;
      items.push(readBlocks(c, 'list_item_close'));
    } else {
      c.i++;
    }
  }
  return { kind: 'list', ordered, start: Number.isFinite(start) ? start : 1, tight, items };
}

function alignOf(t: Token): Align {
  const style = String(t.attrGet('style') ?? '');
  const m = /text-align:\s*(left|center|right)/.exec(style);
  return (m?.[1] as Align | undefined) ?? 'left';
}

function readTable(c: Cursor): Block {
  const rows: TableCell[][] = [];
  const aligns: Align[] = [];
  let header = false;
  let row: TableCell[] | undefined;
  while (c.i < c.tokens.length) {
    const t = c.tokens[c.i++];
    if (t.type === 'table_close') break;
    if (t.type === 'thead_open') header = true;
    else if (t.type === 'tr_open') row = [];
    else if (t.type === 'tr_close' && row) rows.push(row);
    else if ((t.type === 'th_open' || t.type === 'td_open') && row) {
      if (rows.length === 0) aligns.push(alignOf(t));
      row.push({ inlines: readInlineUntil(c, t.type === 'th_open' ? 'th_close' : 'td_close') });
    }
  }
  return {
    kind: 'table',
    table: {
      rows,
      header,
      columns: aligns.map((align) => ({ align })),
      rowGridlines: true,
      columnGridlines: true,
      verticalAlign: 'top',
    },
  };
}

type InlineRule = (t: Token, s: InlineState) => void;

interface InlineState {
  out: Inline[];
  bold: number;
  italic: number;
  strike: number;
  /** Enclosing links' targets; undefined for a link whose target held a literal span (not a link). */
  links: Array<string | undefined>;
  values: readonly string[];
}

function marksOf(s: InlineState, code = false, value = false): InlineMarks {
  const link = s.links[s.links.length - 1];
  return {
    bold: s.bold > 0,
    italic: s.italic > 0,
    strike: s.strike > 0,
    code,
    ...(link !== undefined ? { link } : {}),
    ...(value ? { value } : {}),
  };
}

function pushText(s: InlineState, text: string, code = false, value = false): void {
  if (text === '') return;
  const marks = marksOf(s, code, value);
  const last = s.out[s.out.length - 1];
  if (last && last.kind === 'text' && sameMarks(last.marks, marks)) last.text += text;
  else s.out.push({ kind: 'text', text, marks });
}

/** Text markdown-it read, its slots filled with the literal spans they stand for. */
function pushSlotted(s: InlineState, text: string, code = false): void {
  for (const p of fillSlots(text, s.values)) pushText(s, p.text, code, p.value);
}

function sameMarks(a: InlineMarks, b: InlineMarks): boolean {
  return (
    a.bold === b.bold &&
    a.italic === b.italic &&
    a.strike === b.strike &&
    a.code === b.code &&
    a.link === b.link &&
    a.value === b.value
  );
}

const INLINE_RULES: Record<string, InlineRule> = {
  text: (t, s) => pushSlotted(s, t.content),
  text_special: (t, s) => pushSlotted(s, t.content),
  softbreak: (_t, s) => pushText(s, ' '),
  hardbreak: (_t, s) => pushText(s, '\n'),
  code_inline: (t, s) => pushSlotted(s, t.content, true),
  strong_open: (_t, s) => void s.bold++,
  strong_close: (_t, s) => void s.bold--,
  em_open: (_t, s) => void s.italic++,
  em_close: (_t, s) => void s.italic--,
  s_open: (_t, s) => void s.strike++,
  s_close: (_t, s) => void s.strike--,
  // A value never becomes an address: a link whose target holds one is its text only.
  link_open: (t, s) => {
    const href = String(t.attrGet('href') ?? '');
    s.links.push(holdsSlot(href) ? undefined : href);
  },
  link_close: (_t, s) => void s.links.pop(),
  image: (t, s) => {
    const link = s.links[s.links.length - 1];
    const src = String(t.attrGet('src') ?? '');
    const alt = fillSlots(altText(t.children ?? []), s.values);
    // An image whose source holds a value is not loaded: its description is shown as text.
    if (holdsSlot(src)) {
      for (const p of alt) pushText(s, p.text, false, p.value);
      return;
    }
    s.out.push({
      kind: 'image',
      src,
      alt: alt.map((p) => p.text).join(''),
      ...(alt.some((p) => p.value) ? { altValue: true } : {}),
      ...(link !== undefined ? { link } : {}),
    });
  },
  html_inline: (t, s) => {
    if (/^<br\s*\/?>$/i.test(t.content)) pushText(s, '\n');
  },
};

/** The alt text of an image: the plain text of its description (marks and nested links dropped). */
function altText(children: Token[]): string {
  return children
    .map((c) => {
      if (c.type === 'image') return altText(c.children ?? []);
      if (c.type === 'softbreak' || c.type === 'hardbreak') return ' ';
      if (c.type === 'text' || c.type === 'text_special' || c.type === 'code_inline') return c.content;
      return '';
    })
    .join('');
}

function convertInline(children: Token[], values: readonly string[] = []): Inline[] {
  const s: InlineState = { out: [], bold: 0, italic: 0, strike: 0, links: [], values };
  for (const t of children) INLINE_RULES[t.type]?.(t, s);
  return s.out;
}
