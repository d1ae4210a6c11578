/**
 * The footnote layout: which notes go on which page, and where each page ends to leave their area room.
 * Planned on the screen layout (cut.ts), page after page from a page whose top is known, and checked
 * against each print: a note's call has a destination, whose page and offset say where that page really
 * starts. Pages whose notes and top the print confirms are kept; from the first that differs (or that
 * holds notes the plan does not), the plan is made again. The first plan starts at the top of the
 * document, before anything prints.
 *
 * A note goes on the page of its call with every note before it there, when the call's line still ends
 * above the area; otherwise its call's line (`footnote-policy: auto | line`) or block (`block`) moves to
 * the next page, and the note with it. A note that cannot fit even on a page of its own is placed with its
 * call anyway, and overflows its area.
 *
 * The same plan makes the room page rules only castpress matches add to the bottom margin (`:nth()`, a
 * later group's `name:first`): through the whole document then, checked by the spacers' destinations.
 * Their added top margin goes on the named element that starts the page (a forced break keeps it).
 */
import type { LayoutState } from '../contract.js';
import { linkMarker } from '../dom.js';
import { resolvePage, type ResolvedPage } from '../page-cascade.js';
import { newId, type Footnote, type FootnotePage, type PageState } from '../state.js';
import { measureArea, newMeasurer, type Measurer } from './area.js';
import { contentBetween, cutAt, cutBefore, insertSpacer, lineOf, top, type Cut } from './cut.js';
import { setCallNumber } from './notes.js';

/** Pages planned at most, past which the rest of the notes share the last page (a guard, never reached by a document that makes progress). */
const MAX_PAGES = 100000;

/** Screen y of a page's content top, from a call the print put on it. */
function anchored(f: Footnote, state: LayoutState): number | null {
  const t = state.tops?.[f.id];
  return t === undefined ? null : top(f.call) - t / 0.75;
}

/** Screen y of a page's content top, from a spacer the print put on it. */
function spacerAnchor(p: FootnotePage | undefined, k: number, state: LayoutState): number | null {
  const sp = p && p.spacer;
  const t = sp ? state.tops?.[sp.id] : undefined;
  return sp && t !== undefined && state.pages[sp.id] === k ? top(sp) - t / 0.75 : null;
}

/** The first planned page the print `state` does not bear out, and its top; null when the plan holds. */
function firstWrong(S: PageState, state: LayoutState): { page: number; start: number } | null {
  const onPage = (k: number) => S.footnotes.flatMap((f, i) => (state.pages[f.id] === k ? [i] : []));
  const planned = S.footnotePages.reduce((n, p) => n + p.notes.length, 0);
  let wrong = -1;
  for (let k = 0; k < S.footnotePages.length && wrong < 0; k++) {
    const p = S.footnotePages[k] as FootnotePage;
    const got = onPage(k);
    if (got.join() !== p.notes.join()) wrong = k;
    else if (got.length) {
      const at = anchored(S.footnotes[got[0] as number] as Footnote, state);
      if (at === null || Math.abs(at - p.start) > 1.5) wrong = k;
    }
    if (wrong < 0 && p.spacer) {
      const at = spacerAnchor(p, k, state);
      if (at === null || Math.abs(at - p.start) > 1.5) wrong = k;
    }
  }
  if (wrong < 0 && planned === S.footnotes.length) return null;
  if (wrong < 0) wrong = S.footnotePages.length;
  // Replan from the last page at or before it whose top the print gives (a call or spacer on it), else from the start.
  for (let k = Math.min(wrong, state.total - 1); k > 0; k--) {
    const first = onPage(k)[0];
    const at =
      first === undefined
        ? spacerAnchor(S.footnotePages[k], k, state)
        : anchored(S.footnotes[first] as Footnote, state);
    if (at !== null) return { page: k, start: at };
  }
  return { page: 0, start: 0 };
}

/** Whether the plan holds for the print `state` (nothing to plan: it does). */
export function planHolds(S: PageState, state: LayoutState): boolean {
  return (!S.footnotes.length && !S.marginExtras) || !S.footnotePages.length || firstWrong(S, state) === null;
}

/**
 * The top margin rules only castpress matches add, on the named elements that start a page (a group's
 * first): their margin-top grows by it, kept after the forced break before them.
 */
export function widenTops(S: PageState, state: LayoutState): void {
  S.topApplied = new Set();
  if (!S.marginExtras) return;
  for (const n of S.named) {
    const p = state.pages[n.start];
    const starts = p !== undefined && (p === 0 || n.forced || state.names[p - 1] !== n.name);
    const extra = starts ? resolvePage(S, p, n.name).extraTop : 0;
    if (extra > 0) {
      (n.el as HTMLElement).style.setProperty('margin-top', 'calc(' + n.marginTop + ' + ' + extra + 'px)', 'important');
      S.topApplied.add(p);
    } else (n.el as HTMLElement).style.removeProperty('margin-top');
  }
}

/**
 * Checks the plan against the print `state` (null: nothing printed yet) and plans again from the first
 * page it gets wrong; numbers the calls (per page when the page context resets the counter).
 */
export function planFootnotes(S: PageState, state: LayoutState | null): void {
  if (!S.footnotes.length && !S.marginExtras) return;
  const from = !S.footnotePages.length ? { page: 0, start: 0 } : state ? firstWrong(S, state) : null;
  if (!from) return;
  for (const p of S.footnotePages.slice(from.page)) if (p.spacer) p.spacer.remove();
  S.footnotePages.length = from.page;
  const m = newMeasurer();
  try {
    simulate(S, state, m, from.page, from.start);
  } finally {
    m.host.remove();
  }
  for (const p of S.footnotePages)
    p.notes.forEach((i, k) => {
      const f = S.footnotes[i] as Footnote;
      setCallNumber(f, S.footnotesPerPage ? k + 1 : f.value);
    });
}

/**
 * The plan's pages and offsets of the calls, written into the first guess: the first print is then
 * compared with the plan (render.ts prints again while a call is elsewhere than the plan put it).
 */
export function guessFootnotes(S: PageState, guess: LayoutState): void {
  S.footnotePages.forEach((p, k) => {
    for (const i of p.notes) {
      const f = S.footnotes[i] as Footnote;
      guess.pages[f.id] = k;
      if (guess.tops) guess.tops[f.id] = (top(f.call) - p.start) * 0.75;
    }
  });
  while (guess.total < S.footnotePages.length) {
    const k = guess.total++;
    const P = pageAt(S, guess, k);
    guess.names.push(guess.names[k - 1] ?? '');
    guess.sizes.push([P.w * 0.75, P.h * 0.75]);
  }
}

/** The numbers the notes of a page show. */
export function pageNumbers(S: PageState, notes: number[]): number[] {
  return notes.map((i, k) => (S.footnotesPerPage ? k + 1 : (S.footnotes[i] as Footnote).value));
}

function pageAt(S: PageState, state: LayoutState | null, k: number): ResolvedPage {
  const names = state ? state.names : [];
  return resolvePage(S, k, names[k] ?? names[names.length - 1] ?? '');
}

/** Screen y of the forced breaks (and page-name changes), in order. */
function forcedBreaks(S: PageState): number[] {
  return S.breaks
    .map((b) => {
      const r = b.el.getBoundingClientRect();
      const cs = getComputedStyle(b.el);
      return (
        (b.before ? r.top - (parseFloat(cs.marginTop) || 0) : r.bottom + (parseFloat(cs.marginBottom) || 0)) +
        window.scrollY
      );
    })
    .filter((y) => y > 1)
    .sort((a, b) => a - b);
}

function simulate(S: PageState, state: LayoutState | null, m: Measurer, first: number, firstStart: number): void {
  const notes = S.footnotes;
  let next = notes.findIndex((f) => top(f.call) >= firstStart - 0.5);
  if (next < 0) next = notes.length;
  let start = firstStart;
  for (let k = first; next < notes.length || S.marginExtras; k++) {
    const P = pageAt(S, state, k);
    const full = start + Math.max(1, P.h - P.top - P.bottom);
    const end = full - P.extraBottom;
    const forced = forcedBreaks(S).find((y) => y > start + 1 && contentBetween(start, y)) ?? Infinity;
    const accepted: number[] = [];
    const numbering = (j: number) => (S.footnotesPerPage ? j + 1 : (notes[next + j] as Footnote).value);
    let blocked: Footnote | null = null;
    let height = 0;
    for (let i = next; i < notes.length; i++) {
      const f = notes[i] as Footnote;
      const line = lineOf(f.call);
      if (line.top >= Math.min(end, forced) - 0.5) break;
      const area = measureArea(S, m, P, next, accepted.length + 1, numbering);
      const fits = line.bottom <= end - area.height + 0.5 && !area.overflows;
      // A call on the page's first line stays with its note even when the note does not fit: nothing is gained by moving it on.
      if (fits || (!accepted.length && line.top <= start + 1)) {
        accepted.push(i);
        height = area.height;
      } else {
        blocked = f;
        break;
      }
    }
    // Orphans, widows and `break-*: avoid` may end the page before a call whose note was counted in: that
    // call moves on as if its note had not fitted, and the area shrinks; until nothing more moves.
    let cut: Cut | null = null;
    for (;;) {
      cut = cutAt(start, end - height);
      if (blocked) {
        const before = cutBefore(blocked.call, start, blocked.policy === 'block');
        if (before && (!cut || before.top < cut.top)) cut = before;
      }
      const limit = cut ? cut.top - 0.5 : Infinity;
      const kept = accepted.filter((i) => lineOf((notes[i] as Footnote).call).top < limit);
      if (kept.length === accepted.length) break;
      blocked = notes[kept.length + next] as Footnote;
      accepted.length = kept.length;
      height = measureArea(S, m, P, next, accepted.length, numbering).height;
    }
    const natural = cutAt(start, full);
    const page: FootnotePage = { start, notes: accepted, spacer: null };
    S.footnotePages[k] = page;
    let nextStart: number;
    if (forced < Infinity && forced <= (cut ? cut.top : Infinity) + 0.5) nextStart = forced;
    else if (!cut) break;
    else if (natural && cut.top >= natural.top - 0.5) nextStart = natural.next;
    else {
      const made = insertSpacer(cut, full);
      page.spacer = made.spacer;
      made.spacer.id = newId(S, 'p');
      linkMarker(S, made.spacer.id);
      nextStart = made.next;
    }
    next += accepted.length;
    if (nextStart <= start + 1 || k >= MAX_PAGES) {
      // No progress (a box taller than the page): the rest share this page rather than loop.
      for (let i = next; i < notes.length; i++) page.notes.push(i);
      break;
    }
    start = nextStart;
  }
}
