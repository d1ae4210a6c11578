/**
 * Naming a field from the page: the phrase a person would read as its label. Forms put it in the
 * same cell above the box (IRS), to the left on the same line (`Legal name: ____`), just below a
 * line (`LAST`), or, for a check box, to its right. Each side has its own reach and weight; the
 * nearest phrase by weighted distance wins. Phrases without a word (line numbers such as `7`,
 * `8a`, arrows) name nothing.
 */
import type { TopLeftRect } from '../geometry/index.js';
import type { Phrase } from './phrases.js';

export type LabelKind = 'text' | 'check';

const HAS_WORD = /\p{L}{2,}/u;

/** Weighted distance of `p` as a label of `r`, or undefined when it is out of reach. */
function distance(r: TopLeftRect, p: Phrase, kind: LabelKind): number | undefined {
  const right = r.x + r.width;
  const bottom = r.y + r.height;
  const middle = (p.y0 + p.y1) / 2;
  const sameRow = middle >= r.y - 3 && middle <= bottom + 3;
  const startsOver = p.x0 >= r.x - 6 && p.x0 < right - 2;
  const overlaps = p.x0 < right && p.x1 > r.x;
  const best: number[] = [];
  // To the left on the same row: labels aligned in a column stand far from their lines; a long
  // phrase there is the end of a paragraph's line, rarely a label.
  if (sameRow && p.x1 <= r.x + 3) {
    const gap = Math.max(0, r.x - p.x1) + (p.text.length > 40 ? 12 : 0);
    if (gap <= 220) best.push(kind === 'check' ? gap * 0.8 + 4 : gap * 0.25);
  }
  // To the right on the same row: a check box's caption.
  if (sameRow && p.x0 >= right - 3) {
    const gap = Math.max(0, p.x0 - right);
    if (gap <= 40) best.push(kind === 'check' ? gap * 0.3 : gap * 2 + 20);
  }
  // Above, starting over the field (a cell's label, a caption over a line).
  if (p.y1 <= r.y + 3 && (startsOver || (overlaps && kind === 'text'))) {
    const gap = Math.max(0, r.y - p.y1);
    if (gap <= 24) best.push(gap + (startsOver ? 0 : 6) + (kind === 'check' ? 10 : 0));
  }
  // Below a line, small and close.
  if (p.y0 >= bottom - 3 && startsOver) {
    const gap = Math.max(0, p.y0 - bottom);
    if (gap <= 10) best.push(gap * 1.5 + 4 + (kind === 'check' ? 10 : 0));
  }
  return best.length > 0 ? Math.min(...best) : undefined;
}

/** What a phrase already chosen by another field costs more: one caption rarely names two fields. */
const REUSE = 8;

/**
 * The label of each field of one page: every field's candidates by weighted distance, the
 * nearest pairs first; a phrase already given to a field goes to another only at a cost (a
 * caption between two lines names the nearer one).
 */
export function labelsFor(
  fields: Array<{ rect: TopLeftRect; kind: LabelKind }>,
  phrases: Phrase[],
): Array<string | undefined> {
  const texts = phrases.map((p) => cleanLabel(p.text));
  const queue: Array<{ field: number; phrase: number; d: number; again?: boolean }> = [];
  fields.forEach(({ rect: r, kind }, field) => {
    phrases.forEach((p, phrase) => {
      if (!texts[phrase]) return;
      // A phrase inside the field is a value or a watermark, not its label.
      if (p.x0 >= r.x - 1 && p.x1 <= r.x + r.width + 1 && p.y0 >= r.y - 1 && p.y1 <= r.y + r.height + 1) return;
      const d = distance(r, p, kind);
      if (d !== undefined) queue.push({ field, phrase, d });
    });
  });
  const order = (a: (typeof queue)[number], b: (typeof queue)[number]) =>
    a.d - b.d || a.field - b.field || a.phrase - b.phrase;
  queue.sort(order);
  const out: Array<string | undefined> = fields.map(() => undefined);
  const done = new Set<number>();
  const used = new Set<number>();
  // Costed candidates come in the order of the originals, so they form a second sorted queue.
  const later: typeof queue = [];
  for (let i = 0, j = 0; i < queue.length || j < later.length;) {
    const fromLater = j < later.length && (i >= queue.length || order(later[j]!, queue[i]!) <= 0);
    const c = fromLater ? later[j++]! : queue[i++]!;
    if (done.has(c.field)) continue;
    if (used.has(c.phrase) && !c.again) {
      later.push({ ...c, d: c.d + REUSE, again: true });
      continue;
    }
    out[c.field] = texts[c.phrase];
    done.add(c.field);
    used.add(c.phrase);
  }
  return out;
}

/**
 * A label as a person would name the field: no line number or bullet before it, no colon, arrow
 * or leader after it, at most one sentence of about 60 characters.
 */
export function cleanLabel(raw: string): string | undefined {
  let text = raw
    .normalize('NFC')
    .replace(/\s+/gu, ' ')
    .replace(/[▶►▸➤→⇒•]/gu, ' ')
    .trim();
  text = text.replace(/^(?:\(?(?:\d{1,2}[a-z]?|[a-zA-Z]|[ivx]{1,4})[.)]\s+|\d{1,2}[a-z]?\s+(?=\p{L}))/u, '');
  text = text.replace(/[\s:;,*.\-–—]+$/u, '').trim();
  if (text.length > 60) {
    const sentence = text.search(/[.;!?](?:\s|$)/u);
    if (sentence >= 12 && sentence < 60) text = text.slice(0, sentence);
    else {
      const cut = text.lastIndexOf(' ', 60);
      text = text.slice(0, cut > 20 ? cut : 60);
    }
  }
  text = text.replace(/[\s:;,*\-–—]+$/u, '').trim();
  return HAS_WORD.test(text) ? text : undefined;
}

/** A data key made of a label: its words in camelCase (letters and digits of any script), at most 40 characters. */
export function aliasOf(label: string): string {
  const words = label
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  let alias = '';
  for (const [i, w] of words.entries()) {
    const word = i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase();
    if ((alias + word).length > 40) break;
    alias += word;
  }
  return alias;
}
