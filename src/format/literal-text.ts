/**
 * Literal text inside a Markdown string: a span between U+FDD0 and U+FDD1 (Unicode noncharacters,
 * set aside for a program's internal use) is text as typed, never Markdown. The Markdown renderer
 * (src/markdown parse.ts) takes its characters out of the source before markdown-it reads it, so they
 * can open no link, image, emphasis, heading, list, table cell, HTML or code; they come back as text
 * where the span stood and are drawn as marked content (`VALUE_MARKED_CONTENT`) the text-tag finder
 * (src/packets) skips. Here, on the ground floor, so the writers of such strings (workflows, the
 * certificate of completion) and the tag finder need not load the renderer.
 */

const LITERAL_OPEN = '\uFDD0';
const LITERAL_CLOSE = '\uFDD1';
/** The marked-content tag (`/CastpressValue BMC … EMC`) around text drawn from literal spans. */
export const VALUE_MARKED_CONTENT = 'CastpressValue';

/** Stand-ins for spans while markdown-it reads the rest: noncharacters and digits, plain text to it. */
const SLOT_OPEN = '\uFDD2';
const SLOT_CLOSE = '\uFDD3';
const MARKS = /[\uFDD0-\uFDD3]/g;
const SLOT = /\uFDD2(\d+)\uFDD3/g;

/** `text` as a literal span (the marks it may itself carry removed). */
export function literalText(text: string): string {
  return LITERAL_OPEN + text.replace(MARKS, '') + LITERAL_CLOSE;
}

/** `text` without literal marks, for places that show it outside the Markdown renderer (metadata). */
export function withoutLiteralMarks(text: string): string {
  return text.replace(MARKS, '');
}

/** One piece of text: `value` when it came from a literal span. */
export interface TextPiece {
  text: string;
  value: boolean;
}

/** `text` split into its literal spans and the rest; an unclosed span runs to the end. */
export function literalPieces(text: string): TextPiece[] {
  const out: TextPiece[] = [];
  let at = 0;
  while (at < text.length) {
    const open = text.indexOf(LITERAL_OPEN, at);
    if (open < 0) {
      out.push({ text: text.slice(at), value: false });
      break;
    }
    if (open > at) out.push({ text: text.slice(at, open), value: false });
    const close = text.indexOf(LITERAL_CLOSE, open + 1);
    const end = close < 0 ? text.length : close;
    out.push({ text: text.slice(open + 1, end), value: true });
    at = end + 1;
  }
  return out.map((p) => ({ ...p, text: p.text.replace(MARKS, '') })).filter((p) => p.text !== '');
}

/** A Markdown source with its literal spans put aside: `source` holds a slot where each stood. */
export interface SlottedSource {
  source: string;
  values: string[];
}

export function slotLiterals(text: string): SlottedSource {
  const values: string[] = [];
  const source = literalPieces(text)
    .map((p) => {
      if (!p.value) return p.text;
      values.push(p.text);
      return `${SLOT_OPEN}${values.length - 1}${SLOT_CLOSE}`;
    })
    .join('');
  return { source, values };
}

/** Text markdown-it gave back, its slots replaced by the values they stand for (as `value` pieces). */
export function fillSlots(text: string, values: readonly string[]): TextPiece[] {
  if (!text.includes(SLOT_OPEN)) return text === '' ? [] : [{ text, value: false }];
  const out: TextPiece[] = [];
  let at = 0;
  for (const m of text.matchAll(SLOT)) {
    if (m.index > at) out.push({ text: text.slice(at, m.index), value: false });
    out.push({ text: values[Number(m[1])] ?? '', value: true });
    at = m.index + m[0].length;
  }
  if (at < text.length) out.push({ text: text.slice(at), value: false });
  return out.map((p) => ({ ...p, text: p.text.replace(MARKS, '') })).filter((p) => p.text !== '');
}

/** Whether a URL markdown-it read holds a slot (raw or percent-encoded): a value in a link's address or an image's source. */
export function holdsSlot(url: string): boolean {
  return url.includes(SLOT_OPEN) || /%EF%B7%92/i.test(url);
}

/**
 * `text` for a Markdown renderer that knows no literal spans (the signing page's description): every
 * ASCII punctuation character backslash-escaped, which CommonMark reads as that character; line
 * breaks become spaces, so no line can start a block.
 */
export function escapeMarkdown(text: string): string {
  return text.replace(/\r\n?|\n/g, ' ').replace(/[!-/:-@[-`{-~]/g, (c) => `\\${c}`);
}
