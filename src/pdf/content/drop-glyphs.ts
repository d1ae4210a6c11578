/**
 * Glyphs taken out of a page's content while every other glyph keeps its place: a text-showing
 * operator (`Tj`, `TJ`, `'`, `"`) that shows a dropped glyph becomes a `TJ` whose dropped codes are
 * replaced by a numeric adjustment equal to their advance (the caller's reader measured it with the
 * font's width, `Tc`, `Tw` and the font size; `Tz` scales glyphs and adjustments alike). The page
 * gets one new content stream, written as an incremental update.
 *
 * Operators are named by their place among the page's text-showing operators in content order
 * (the page's streams joined, form XObjects not entered), the order a reader such as pdf.js meets
 * them. A page whose operators or codes do not match what the caller counted is left as it is and
 * named in `skipped`: an edit at the wrong place would move or remove other text.
 */
import { PDFArray, PDFDict, PDFName, PDFRawStream, PDFRef, type PDFObject } from '@cantoo/pdf-lib';
import { contentTokens, type ContentToken } from './tokens.js';
import { decodeCapped } from '../parse/decode.js';
import { UpdateSession } from '../document/update.js';

export interface DroppedGlyph {
  /** The glyph's index among the codes its operator shows (TJ numbers not counted). */
  index: number;
  /** Its advance as a TJ adjustment: thousandths of text space, negative moves right (−advance·1000/size). */
  adjustment: number;
}

export interface TextOperatorDrops {
  /** The operator's index among the page's text-showing operators (0-based). */
  op: number;
  /** How many codes the operator shows, as the caller read them: checked before anything is cut. */
  glyphCount: number;
  drop: DroppedGlyph[];
}

export interface PageGlyphDrops {
  /** 0-based. */
  pageIndex: number;
  /** How many text-showing operators the caller read on the page: checked before anything is cut. */
  textOperators: number;
  operators: TextOperatorDrops[];
}

export interface DroppedGlyphs {
  pdf: Uint8Array;
  /** Pages left as they were, with why. */
  skipped: Array<{ pageIndex: number; reason: string }>;
}

const MAX_CONTENT = 64 << 20;
const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);

/** `pdf` with the given glyphs removed from its pages' content (an incremental update; the same bytes when none is). */
export async function dropTextGlyphs(
  pdf: Uint8Array,
  pages: ReadonlyArray<PageGlyphDrops>,
  property = 'pdf',
): Promise<DroppedGlyphs> {
  const wanted = pages.filter((p) => p.operators.some((o) => o.drop.length > 0));
  if (wanted.length === 0) return { pdf, skipped: [] };
  const session = await UpdateSession.open(pdf, property);
  const docPages = session.doc.getPages();
  const skipped: DroppedGlyphs['skipped'] = [];
  let changed = false;
  for (const want of wanted) {
    const page = docPages[want.pageIndex];
    if (!page) {
      skipped.push({ pageIndex: want.pageIndex, reason: 'no such page' });
      continue;
    }
    const content = pageContent(page.node.Contents(), session.doc.context.lookup.bind(session.doc.context));
    if (typeof content === 'string') {
      skipped.push({ pageIndex: want.pageIndex, reason: content });
      continue;
    }
    const resources = page.node.Resources();
    const fonts = resources?.lookup(PDFName.of('Font'));
    const edited = rewriteContent(content, want, (name) =>
      codeLength(fonts instanceof PDFDict ? fonts : undefined, name),
    );
    if (typeof edited === 'string') {
      skipped.push({ pageIndex: want.pageIndex, reason: edited });
      continue;
    }
    const stream = session.doc.context.flateStream(edited);
    page.node.set(PDFName.of('Contents'), session.doc.context.register(stream));
    changed = true;
  }
  return { pdf: changed ? await session.commit() : pdf, skipped };
}

/** The page's content streams decoded and joined (a stream boundary is a token boundary), or why not. */
export function pageContent(
  contents: PDFObject | undefined,
  lookup: (o: PDFObject) => PDFObject | undefined,
): Uint8Array | string {
  const list = contents instanceof PDFArray ? contents.asArray() : contents ? [contents] : [];
  const parts: Uint8Array[] = [];
  for (const item of list) {
    const stream = item instanceof PDFRef ? lookup(item) : item;
    if (!(stream instanceof PDFRawStream)) return 'a content stream pdf-lib cannot read as raw bytes';
    try {
      parts.push(decodeCapped(stream, MAX_CONTENT), Uint8Array.of(0x0a));
    } catch (e) {
      return `a content stream does not decode (${e instanceof Error ? e.message : String(e)})`;
    }
  }
  return Buffer.concat(parts);
}

/**
 * Bytes per character code of the font named `name` in the page's resources: 2 for a composite (Type0)
 * font (a CMap mixing lengths shows up as a code count the reader does not match). Undefined for a font
 * that is not there, and for vertical writing, where an adjustment moves down, not along.
 */
function codeLength(fonts: PDFDict | undefined, name: string): number | undefined {
  const font = fonts?.lookup(PDFName.of(name));
  if (!(font instanceof PDFDict)) return undefined;
  if (font.lookup(PDFName.of('Subtype')) !== PDFName.of('Type0')) return 1;
  const encoding = font.lookup(PDFName.of('Encoding'));
  return encoding instanceof PDFName && encoding.decodeText().endsWith('-V') ? undefined : 2;
}

type Edit = { start: number; end: number; text: string };

/** The content with the drops applied, or why it cannot be. */
function rewriteContent(
  content: Uint8Array,
  want: PageGlyphDrops,
  codeLengthOf: (font: string) => number | undefined,
): Uint8Array | string {
  const tokens = contentTokens(content);
  if (!tokens) return 'the page content does not lex';
  const byOp = new Map(want.operators.map((o) => [o.op, o]));
  const edits: Edit[] = [];
  // The font is part of the graphics state: q/Q save and restore it.
  const fontStack: Array<number | undefined> = [];
  let codeLen: number | undefined;
  let fontSet = false;
  const fontSetStack: boolean[] = [];
  let textOp = 0;
  let operandsFrom = 0;
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t]!;
    if (tok.kind !== 'op') continue;
    const operands = tokens.slice(operandsFrom, t);
    operandsFrom = t + 1;
    if (tok.op === 'q') {
      fontStack.push(codeLen);
      fontSetStack.push(fontSet);
    } else if (tok.op === 'Q') {
      if (fontStack.length > 0) {
        codeLen = fontStack.pop();
        fontSet = fontSetStack.pop() ?? false;
      }
    } else if (tok.op === 'Tf') {
      const name = operands.at(-2);
      codeLen = name?.kind === 'name' ? codeLengthOf(name.name) : undefined;
      fontSet = true;
    } else if (TEXT_SHOWING.has(tok.op)) {
      // A reader shows nothing for text before any font is set: it does not count it either.
      if (!fontSet) continue;
      const drops = byOp.get(textOp++);
      if (!drops || drops.drop.length === 0) continue;
      if (codeLen === undefined) return `text operator ${textOp - 1}: its font is not in the page's resources`;
      const edit = rewriteOperator(content, tok, operands, drops, codeLen);
      if (typeof edit === 'string') return `text operator ${textOp - 1}: ${edit}`;
      edits.push(edit);
    }
  }
  if (textOp !== want.textOperators)
    return `the page shows text with ${textOp} operators, the reader counted ${want.textOperators}`;
  if (edits.length !== new Set(want.operators.filter((o) => o.drop.length > 0).map((o) => o.op)).size)
    return 'a text operator to edit was not found';
  const out: Uint8Array[] = [];
  let at = 0;
  for (const e of edits) {
    out.push(content.subarray(at, e.start), Buffer.from(e.text, 'latin1'));
    at = e.end;
  }
  out.push(content.subarray(at));
  return Buffer.concat(out);
}

/** One operator and its operands as a `TJ` without the dropped codes (after `T*`, and `Tw`/`Tc` for `"`). */
function rewriteOperator(
  content: Uint8Array,
  op: Extract<ContentToken, { kind: 'op' }>,
  operands: ContentToken[],
  drops: TextOperatorDrops,
  codeLen: number,
): Edit | string {
  let elements: ContentToken[];
  let start: number;
  let prefix = '';
  if (op.op === 'TJ') {
    const open = operands.findLastIndex((o) => o.kind === 'open');
    const close = operands.at(-1);
    if (open < 0 || close?.kind !== 'close') return 'TJ without an array';
    elements = operands.slice(open + 1, -1);
    start = operands[open]!.start;
  } else {
    const str = operands.at(-1);
    if (str?.kind !== 'string') return `${op.op} without a string`;
    elements = [str];
    start = str.start;
    if (op.op === "'") prefix = 'T* ';
    if (op.op === '"') {
      const [aw, ac] = operands.slice(-3, -1);
      if (aw?.kind !== 'number' || ac?.kind !== 'number') return '" without its spacings';
      prefix = `${written(content, aw)} Tw ${written(content, ac)} Tc T* `;
      start = aw.start;
    }
  }
  const dropAt = new Map(drops.drop.map((d) => [d.index, d.adjustment]));
  const parts: string[] = [];
  let run: number[] = [];
  const flush = () => {
    if (run.length > 0) parts.push(`<${Buffer.from(run).toString('hex')}>`);
    run = [];
  };
  let glyph = 0;
  for (const el of elements) {
    if (el.kind === 'number') {
      flush();
      parts.push(written(content, el));
      continue;
    }
    if (el.kind !== 'string') return 'a TJ element that is neither a string nor a number';
    for (let k = 0; k + codeLen <= el.bytes.length; k += codeLen) {
      const adjustment = dropAt.get(glyph++);
      if (adjustment === undefined) {
        run.push(...el.bytes.subarray(k, k + codeLen));
        continue;
      }
      if (!Number.isFinite(adjustment)) return 'a glyph without a finite advance';
      flush();
      parts.push(num(adjustment));
    }
  }
  flush();
  if (glyph !== drops.glyphCount) return `it shows ${glyph} codes, the reader counted ${drops.glyphCount}`;
  return { start, end: op.end, text: `${prefix}[${parts.join(' ')}] TJ` };
}

/** A token as the content wrote it. */
function written(content: Uint8Array, token: ContentToken): string {
  return Buffer.from(content.subarray(token.start, token.end)).toString('latin1');
}

/** A number as content streams write it: no exponent, at most 4 decimals. */
function num(n: number): string {
  const s = n.toFixed(4).replace(/\.?0+$/, '');
  return s === '-0' ? '0' : s;
}
