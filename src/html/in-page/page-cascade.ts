/**
 * The css-page-3 cascade for one page: which page rules match page i (by :first, :left/:right, :blank,
 * names, :nth() and page groups) and, by specificity, the page's size, margins, margin boxes, bleed and marks.
 */
import { BLANK_PAGE, BLEED_SENTINEL, MARKS_SENTINEL } from './contract.js';
import { pageGroups, pageSize, px } from './page-rules.js';
import type { Declaration, PageSelector, PageState } from './state.js';

/** A page index's resolved page: size, margins (px), margin boxes (name → property → value), bleed and marks. */
export interface ResolvedPage {
  w: number;
  h: number;
  top: number;
  right: number;
  bottom: number;
  left: number;
  /** Room (px) rules only castpress matches (`:nth()`, a later group's `name:first`) add to Chromium's top and bottom margins. */
  extraTop: number;
  extraBottom: number;
  boxes: Record<string, Record<string, string>>;
  /** The page context's declarations (property → value), which margin boxes inherit from (page-context.ts). */
  context: Record<string, string>;
  bleed: number | 'auto';
  crop: boolean;
  cross: boolean;
}

interface Winner {
  v: string;
  imp: boolean;
  spec: number;
  order: number;
}

/** Whether page `n` (from 1) is the An+B-th (css-syntax-3 §6). */
function anb(a: number, b: number, n: number): boolean {
  if (a === 0) return n === b;
  const k = (n - b) / a;
  return Number.isInteger(k) && k >= 0;
}

/**
 * Whether selector `s` matches page i named `name`, and whether Chromium matches it too (then it also lays
 * the page out by it). `:first` with a page name is the first page of each page group of that name (as
 * Prince and css-gcpm-3's page groups have it), which Chromium matches on the document's first page only.
 */
function matches(S: PageState, s: PageSelector, i: number, name: string): { ok: boolean; native: boolean } {
  if (s.name && s.name !== name) return { ok: false, native: false };
  const group = S.pageGroups[i];
  let native = !s.nth;
  for (const p of s.pseudos) {
    const ok =
      p === 'first'
        ? s.name
          ? i === 0 || (!!group && group.index === 1)
          : i === 0
        : p === 'left'
          ? i % 2 === (S.rtl ? 0 : 1)
          : p === 'right'
            ? i % 2 === (S.rtl ? 1 : 0)
            : p === 'blank'
              ? name === BLANK_PAGE
              : false;
    if (!ok) return { ok: false, native: false };
    if (p === 'first' && i > 0) native = false;
  }
  if (s.nth) {
    const n = s.nth.group === null ? i + 1 : group && group.name === s.nth.group ? group.index : 0;
    if (!n || !anb(s.nth.a, s.nth.b, n)) return { ok: false, native: false };
  }
  return { ok: true, native };
}

/** The descriptors that lay the page out (Chromium's alone: castpress does not move the page area). */
const GEOMETRY = /^(size|margin(-[a-z]+)?|page-orientation)$/;

/**
 * css-page-3 cascade for page index i with page name; later rules win ties, !important wins over all.
 * Size and margins come from the rules Chromium applies as well (it lays the page out); rules only
 * castpress matches (`:nth()`, the first page of a later page group) give margin boxes and the page
 * context's other properties.
 */
export function resolvePage(S: PageState, i: number, name: string): ResolvedPage {
  const matching: Array<{ r: (typeof S.pageRules)[number]; spec: number; native: boolean }> = [];
  for (const r of S.pageRules) {
    let best = -1;
    let native = false;
    for (const s of r.selectors) {
      const m = matches(S, s, i, name);
      if (!m.ok) continue;
      best = Math.max(best, s.spec);
      native = native || m.native;
    }
    if (best >= 0) matching.push({ r, spec: best, native });
  }
  const win = (map: Record<string, Winner>, [n, v, imp]: Declaration, spec: number, order: number) => {
    const cur = map[n];
    if (
      !cur ||
      Number(imp) > Number(cur.imp) ||
      (imp === cur.imp && (spec > cur.spec || (spec === cur.spec && order >= cur.order)))
    )
      map[n] = { v, imp, spec, order };
  };
  const page: Record<string, Winner> = {},
    wanted: Record<string, Winner> = {},
    boxes: Record<string, Record<string, Winner>> = {};
  for (const { r, spec, native } of matching) {
    for (const d of r.decls) {
      if (native || !GEOMETRY.test(d[0])) win(page, d, spec, r.order);
      if (d[0] === 'margin-top' || d[0] === 'margin-bottom') win(wanted, d, spec, r.order);
    }
    for (const [box, decls] of Object.entries(r.boxes)) {
      const into = (boxes[box] = boxes[box] || {});
      for (const d of decls) win(into, d, spec, r.order);
    }
  }
  const [w, h] = pageSize(S, page.size && page.size.v);
  const m = (side: string) => {
    const d = page['margin-' + side];
    return d ? px(S, d.v, side === 'top' || side === 'bottom' ? h : w) : 0;
  };
  // What rules only castpress matches ask above Chromium's margins: plan.ts adds it at the bottom, and at
  // the top of a page a forced break starts.
  const extra = (side: 'top' | 'bottom') => {
    const d = wanted['margin-' + side];
    return d && d !== page['margin-' + side] ? Math.max(0, px(S, d.v, h) - m(side)) : 0;
  };
  const flat: Record<string, Record<string, string>> = {};
  for (const [box, decls] of Object.entries(boxes)) {
    const into: Record<string, string> = (flat[box] = {});
    for (const [n, d] of Object.entries(decls)) into[n] = d.v;
  }
  // bleed and marks arrive renamed (css-rewrite.ts): quotes: "__fs_bleed__" "3mm", content: "__fs_marks__crop cross".
  const bleedDecl = page.quotes && new RegExp(BLEED_SENTINEL + '"\\s*"([^"]*)"').exec(page.quotes.v);
  const bleed = bleedDecl
    ? bleedDecl[1].trim().toLowerCase() === 'auto'
      ? 'auto'
      : Math.max(0, px(S, bleedDecl[1], 0))
    : 'auto';
  const marksDecl = page.content && new RegExp(MARKS_SENTINEL + '([^"]*)"').exec(page.content.v);
  const marks = marksDecl ? marksDecl[1].toLowerCase().split(/\s+/) : [];
  return {
    w,
    h,
    top: m('top'),
    right: m('right'),
    bottom: m('bottom'),
    left: m('left'),
    extraTop: extra('top'),
    extraBottom: extra('bottom'),
    boxes: flat,
    context: Object.fromEntries(Object.entries(page).map(([n, d]) => [n, d.v])),
    bleed,
    crop: marks.includes('crop'),
    cross: marks.includes('cross'),
  };
}
