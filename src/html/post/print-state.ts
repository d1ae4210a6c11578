/**
 * What a print shows and whether it bears out what was written before it: render.ts's layout passes read
 * each print (destinations, page sizes) into a `LayoutState` and print again while it differs from the
 * state the page wrote its numbers for.
 */
import type { PDFDocument } from '@cantoo/pdf-lib';
import {
  BLANK_PAGE,
  wrongSide,
  type LayoutState,
  type Margins,
  type PrepareResult,
  type Side,
  type SheetInfo as Sheet,
} from '../in-page/contract.js';
import type { DestPoint } from './dests.js';

/** The layout a print shows: each marker's page and offset, page names and sizes, the body's page count. */
export function observe(
  doc: PDFDocument,
  dests: Map<string, DestPoint>,
  info: PrepareResult,
  sheet: Sheet | null = null,
): LayoutState {
  const count = doc.getPageCount();
  const overlayAt = info.overlayStart ? dests.get(info.overlayStart)?.page : undefined;
  const total = info.overlay && overlayAt !== undefined ? overlayAt : count;
  const pages: Record<string, number> = {};
  const tops: Record<string, number> = {};
  const all = doc.getPages();
  for (const [name, d] of dests) {
    pages[name] = d.page;
    // Chromium 156 writes destinations relative to the content box, y up from the page's height.
    tops[name] = (all[d.page]?.getHeight() ?? 0) - d.y;
  }
  const names: string[] = Array.from({ length: total }, () => '');
  for (const n of info.named) {
    const start = pages[n.start];
    if (start === undefined) continue;
    const next = n.next === null ? undefined : pages[n.next];
    // No following element: to the end; following element without a destination: its start page only.
    const end =
      n.next === null ? total - 1 : next === undefined ? start : Math.max(start, Math.min(next - 1, total - 1));
    for (let i = start; i <= end; i++) names[i] = n.name;
  }
  for (const id of info.sides.flatMap((e) => e.blanks)) {
    const p = pages[id];
    if (p !== undefined && p < total) names[p] = BLANK_PAGE;
  }
  // Page sizes, not sheet sizes: the overlay lays out margin boxes on the page.
  const trimW = sheet ? (2 * sheet.bleed + sheet.extra) * 0.75 : 0;
  const trimH = sheet ? 2 * sheet.bleed * 0.75 : 0;
  const sizes = doc
    .getPages()
    .slice(0, total)
    .map((p) => {
      const { width, height } = p.getSize();
      return [width - trimW, height - trimH] as [number, number];
    });
  return { total, pages, names, sizes, tops, ...(sheet ? { extra: sheet.extra } : {}) };
}

/**
 * The printed pages' margins as `begin` answered them for the guessed pages, when the print's page names are
 * the guess's: until a `layout` call, the page groups they were resolved by are the guess's too. Else null
 * (the page is asked).
 */
export function guessedMargins(info: PrepareResult, names: string[]): Margins[] | null {
  const guessed = info.margins;
  const same = guessed && names.length === guessed.length && names.every((n, i) => n === info.guess.names[i]);
  return same ? guessed : null;
}

/** Some `break-before/after: left|right` landed on the wrong side in `state`. */
export function sidesWrong(state: LayoutState, info: PrepareResult): boolean {
  const wrong = (index: number | undefined, want: Side | null): boolean =>
    want !== null && index !== undefined && wrongSide(index, want);
  return info.sides.some(
    (e) => wrong(state.pages[e.start], e.before) || wrong(e.next === null ? undefined : state.pages[e.next], e.after),
  );
}

/** Whether the numbers written into the document (counters, overlay) match the printed layout. */
export function sameLayout(a: LayoutState, b: LayoutState, info: PrepareResult): boolean {
  if (a.extra !== b.extra) return false;
  if (!info.overlay && info.counters.length === 0 && info.targets.length === 0) return true;
  if (a.total !== b.total) return false;
  const ids = [
    ...info.running.map((r) => r.id),
    ...info.strings,
    ...info.targets,
    ...info.counters,
    ...info.footnotes,
    ...info.named.flatMap((n) => (n.next === null ? [n.start] : [n.start, n.next])),
  ];
  if (ids.some((id) => a.pages[id] !== b.pages[id])) return false;
  if (a.names.join('\u0000') !== b.names.join('\u0000')) return false;
  // A footnote plan holds when its calls print where it put them (footnotes/plan.ts checks the same).
  if (info.footnotes.some((id) => Math.abs((a.tops?.[id] ?? 0) - (b.tops?.[id] ?? 0)) > 1)) return false;
  if (
    info.usesStart &&
    [...info.running.map((r) => r.id), ...info.strings].some(
      (id) => Math.abs((a.tops?.[id] ?? 0) - (b.tops?.[id] ?? 0)) > 1,
    )
  )
    return false;
  if (info.overlay) {
    for (let i = 0; i < a.total; i++) {
      const [aw, ah] = a.sizes[i] ?? [0, 0];
      const [bw, bh] = b.sizes[i] ?? [0, 0];
      if (Math.abs(aw - bw) > 0.5 || Math.abs(ah - bh) > 0.5) return false;
    }
  }
  return true;
}
