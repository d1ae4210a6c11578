/**
 * A page's glyphs as phrases: runs of characters on one baseline with no wide gap, the pieces a
 * label is made of. Runs of underscores and of packed dots (`Name: ______`, `NOM ..........`) are
 * lines to write on, not text: they come out as leaders, which the shapes read as underlines.
 * Spaced dots (`Wages . . . . .`) lead the eye to a box and are dropped.
 */
import type { Glyph } from '../packets/index.js';

/** Display frame, y down: x0/y0 the top-left corner, x1/y1 the bottom-right (y1 is the baseline). */
export interface Phrase {
  text: string;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  /** Font size as shown (the glyphs' height). */
  size: number;
}

/** A run of `_` or packed `.` drawn as text: a line at `y` from `x0` to `x1`. */
export interface Leader {
  x0: number;
  x1: number;
  y: number;
}

interface Piece {
  glyphs: Glyph[];
}

const LINE_RUN = /_{3,}|\.{8,}|…{3,}/gu;
const SPACED_DOTS = /(?:\.\s*){4,}/gu;

/** Upright glyphs only: vertical text (a margin's "Print or type") names nothing beside it. */
const upright = (g: Glyph) => g.height > 0 && g.width < g.height * 3 && Number.isFinite(g.x + g.y);

/**
 * Glyphs in content order cut where the baseline changes or a gap opens wider than most spaces
 * (measured between visible glyphs: spaces that fill a gap, as a tab made of spaces, still cut).
 */
function pieces(glyphs: Glyph[]): Piece[] {
  const out: Piece[] = [];
  let current: Piece | undefined;
  let last: Glyph | undefined;
  for (const g of glyphs) {
    if (!upright(g) || g.text === '') continue;
    if (!g.text.trim()) {
      if (current) current.glyphs.push(g);
      continue;
    }
    const size = Math.max(g.height, last?.height ?? 0);
    const joins =
      last !== undefined &&
      Math.abs(g.y + g.height - (last.y + last.height)) <= size * 0.3 &&
      g.x >= last.x + last.width - size * 0.5 &&
      g.x - (last.x + last.width) <= size * 0.8;
    if (!joins || !current) out.push((current = { glyphs: [] }));
    current.glyphs.push(g);
    last = g;
  }
  return out;
}

/** The piece's text with a space where glyphs stand apart, and the glyph of each character. */
function spelled(piece: Piece): { text: string; owner: number[] } {
  let text = '';
  const owner: number[] = [];
  piece.glyphs.forEach((g, i) => {
    const prev = piece.glyphs[i - 1];
    if (prev && g.x - (prev.x + prev.width) > g.height * 0.15 && !/\s$/u.test(text) && !/^\s/u.test(g.text)) {
      text += ' ';
      owner.push(i);
    }
    for (const ch of g.text) {
      text += ch;
      for (let k = 0; k < ch.length; k++) owner.push(i);
    }
  });
  return { text, owner };
}

function phraseOf(glyphs: Glyph[], text: string): Phrase | undefined {
  const trimmed = text.replace(/\s+/gu, ' ').trim();
  if (!trimmed || glyphs.length === 0) return undefined;
  let x0 = Infinity;
  let y0 = Infinity;
  let x1 = -Infinity;
  let y1 = -Infinity;
  let size = 0;
  for (const g of glyphs) {
    if (!g.text.trim()) continue;
    x0 = Math.min(x0, g.x);
    y0 = Math.min(y0, g.y);
    x1 = Math.max(x1, g.x + g.width);
    y1 = Math.max(y1, g.y + g.height);
    size = Math.max(size, g.height);
  }
  return Number.isFinite(x0) ? { text: trimmed, x0, y0, x1, y1, size } : undefined;
}

/** The phrases and leaders of a page's glyphs. */
export function phrasesOf(glyphs: Glyph[]): { phrases: Phrase[]; leaders: Leader[] } {
  const phrases: Phrase[] = [];
  const leaders: Leader[] = [];
  for (const piece of pieces(glyphs)) {
    const { text, owner } = spelled(piece);
    // Cut at every leader; what lies between leaders is a phrase of its own.
    const cuts: Array<{ start: number; end: number; line: boolean }> = [];
    for (const m of text.matchAll(LINE_RUN)) cuts.push({ start: m.index, end: m.index + m[0].length, line: true });
    for (const m of text.matchAll(SPACED_DOTS)) {
      if (!cuts.some((c) => m.index < c.end && m.index + m[0].length > c.start))
        cuts.push({ start: m.index, end: m.index + m[0].length, line: false });
    }
    cuts.sort((a, b) => a.start - b.start);
    let from = 0;
    const emit = (start: number, end: number) => {
      if (end <= start) return;
      const used = piece.glyphs.slice(owner[start]!, owner[end - 1]! + 1);
      const p = phraseOf(used, text.slice(start, end));
      if (p) phrases.push(p);
    };
    for (const cut of cuts) {
      emit(from, cut.start);
      if (cut.line) {
        const first = piece.glyphs[owner[cut.start]!]!;
        const lastGlyph = piece.glyphs[owner[cut.end - 1]!]!;
        leaders.push({ x0: first.x, x1: lastGlyph.x + lastGlyph.width, y: first.y + first.height });
      }
      from = cut.end;
    }
    emit(from, text.length);
  }
  return { phrases, leaders };
}
