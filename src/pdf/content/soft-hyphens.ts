/**
 * Chromium draws a soft hyphen it did not break at as a space glyph inside a marked-content span
 * whose /ActualText is U+00AD, so text extraction reads "Hy­phen­ation" (pdftotext) or splits the
 * word (pdf.js). Taking those spans out leaves the page as drawn: Chromium places every glyph with
 * its own `Td` from the line's start, so the space's advance moves nothing. A span is removed only
 * when the next text after it is placed that way; otherwise it stays. The page gets one new
 * content stream, as an incremental update.
 */
import { PDFName } from '@cantoo/pdf-lib';
import { contentTokens, type ContentToken } from './tokens.js';
import { pageContent } from './drop-glyphs.js';
import { UpdateSession } from '../document/update.js';

const TEXT_SHOWING = new Set(['Tj', 'TJ', "'", '"']);
/** Operators after which the next glyph's place does not depend on the previous glyph's advance. */
const PLACING = new Set(['Td', 'TD', 'Tm', 'T*', 'BT', 'ET']);
const SOFT_HYPHEN_UTF16 = [0xfe, 0xff, 0x00, 0xad];

const isSoftHyphen = (t: ContentToken | undefined): boolean =>
  t?.kind === 'string' &&
  ((t.bytes.length === 4 && t.bytes.every((b, i) => b === SOFT_HYPHEN_UTF16[i])) ||
    (t.bytes.length === 1 && t.bytes[0] === 0xad));

type Cut = { start: number; end: number };

/** The byte ranges to cut from one page's content: each soft-hyphen span's BDC, text and EMC. */
function softHyphenCuts(tokens: ContentToken[], content: Uint8Array): Cut[] {
  const is = (t: ContentToken | undefined, text: string): boolean =>
    t?.kind === 'other' && Buffer.from(content.subarray(t.start, t.end)).toString('latin1') === text;
  const cuts: Cut[] = [];
  let operandsFrom = 0;
  for (let t = 0; t < tokens.length; t++) {
    const tok = tokens[t]!;
    if (tok.kind !== 'op') continue;
    const operands = tokens.slice(operandsFrom, t);
    operandsFrom = t + 1;
    // `/Span << /ActualText <FEFF00AD> >> BDC`
    const [tag, open, key, value, close] = operands.slice(-5);
    if (
      tok.op !== 'BDC' ||
      tag?.kind !== 'name' ||
      tag.name !== 'Span' ||
      !is(open, '<<') ||
      key?.kind !== 'name' ||
      key.name !== 'ActualText' ||
      !isSoftHyphen(value) ||
      !is(close, '>>')
    )
      continue;
    const span: Cut[] = [{ start: tag.start, end: tok.end }];
    let depth = 1;
    let from = t + 1;
    let u = t + 1;
    for (; u < tokens.length && depth > 0; u++) {
      const inner = tokens[u]!;
      if (inner.kind !== 'op') continue;
      if (inner.op === 'BDC' || inner.op === 'BMC') depth++;
      else if (inner.op === 'EMC') depth--;
      if (depth === 0) span.push({ start: inner.start, end: inner.end });
      else if (TEXT_SHOWING.has(inner.op)) span.push({ start: tokens[from]!.start, end: inner.end });
      from = u + 1;
    }
    if (depth !== 0 || !placedAfter(tokens, u)) continue;
    cuts.push(...span);
    operandsFrom = u;
    t = u - 1;
  }
  return cuts;
}

/** Whether the first text shown from token `from` on is placed by its own operator (or none follows). */
function placedAfter(tokens: ContentToken[], from: number): boolean {
  for (let u = from; u < tokens.length; u++) {
    const tok = tokens[u]!;
    if (tok.kind !== 'op') continue;
    if (PLACING.has(tok.op)) return true;
    if (TEXT_SHOWING.has(tok.op)) return false;
  }
  return true;
}

/** `pdf` without the soft-hyphen spans of Chromium's output (the same bytes when it has none). */
export async function dropSoftHyphenSpans(pdf: Uint8Array, property = 'pdf'): Promise<Uint8Array> {
  const session = await UpdateSession.open(pdf, property);
  const lookup = session.doc.context.lookup.bind(session.doc.context);
  let changed = false;
  for (const page of session.doc.getPages()) {
    const content = pageContent(page.node.Contents(), lookup);
    if (typeof content === 'string') continue;
    const tokens = contentTokens(content);
    const cuts = tokens ? softHyphenCuts(tokens, content) : [];
    if (cuts.length === 0) continue;
    const out: Uint8Array[] = [];
    let at = 0;
    for (const c of cuts) {
      out.push(content.subarray(at, c.start));
      at = c.end;
    }
    out.push(content.subarray(at));
    page.node.set(
      PDFName.of('Contents'),
      session.doc.context.register(session.doc.context.flateStream(Buffer.concat(out))),
    );
    changed = true;
  }
  return changed ? session.commit() : pdf;
}
