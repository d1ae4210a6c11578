/**
 * The printed sheet, when it is larger than the page (docs/reference/html-css.md, "Sheets wider than the page"): a bleed around every page, and
 * room on the right for content wider than the page area, which would otherwise make Chromium shrink
 * every page (it scales all pages by the largest right overflow of any page area).
 */
import { resolvePage } from './page-cascade.js';
import { pageSize, px, switchToOverlay } from './page-rules.js';
import type { PageState } from './state.js';

/**
 * Every page rule's size grows by 2 × bleed + extra and its margins by the bleed; the root element gets
 * the extra as right margin while printing, so the content keeps its width; render.ts crops the extra
 * off and sets the trim and bleed boxes.
 */
export function prepareSheet(S: PageState, pageRules: CSSPageRule[]): void {
  const first = resolvePage(S, 0, '');
  // Whole px: Chromium snaps the content origin to whole px, so a fractional bleed would move the content by a fraction against the trim box.
  const bleed = Math.round(first.bleed === 'auto' ? (first.crop || first.cross ? 8 : 0) : first.bleed);
  const root = document.documentElement;
  const over = getComputedStyle(root).direction === 'rtl' ? 0 : root.scrollWidth - root.clientWidth;
  // The screen layout is only close to the print's (its width is the default page's): a tenth more, then render.ts checks.
  const extra = over > 0.5 ? Math.ceil(over + root.clientWidth * 0.1) : 0;
  if (!(bleed > 0) && !extra) return;
  const rules = pageRules.map((r) => {
    const size = r.style.getPropertyValue('size');
    const own = size ? pageSize(S, size) : null;
    const [w, h] = own || [first.w, first.h];
    const margins: Record<string, [number, string]> = {};
    for (const side of ['top', 'right', 'bottom', 'left']) {
      const v = r.style.getPropertyValue('margin-' + side);
      if (v)
        margins[side] = [
          px(S, v, side === 'top' || side === 'bottom' ? h : w),
          r.style.getPropertyPriority('margin-' + side),
        ];
    }
    return { rule: r, size: own, sizePriority: r.style.getPropertyPriority('size'), margins };
  });
  const cs = getComputedStyle(root);
  S.sheet = {
    bleed,
    extra,
    crop: first.crop,
    cross: first.cross,
    rules,
    area: first.w - first.left - first.right,
    rootMargin: [
      root.style.getPropertyValue('margin-right'),
      root.style.getPropertyPriority('margin-right'),
      parseFloat(cs.marginRight) || 0,
    ],
  };
  writeSheetRules(S);
  // Native margin boxes would be placed on the larger sheet: the overlay lays them out on the page itself.
  if (
    (!S.overlay || S.overlayOnly) &&
    S.pageRules.some((r) =>
      Object.values(r.boxes).some((d) => d.some(([n, v]) => n === 'content' && v !== 'none' && v !== 'normal')),
    )
  )
    switchToOverlay(S, pageRules);
}

export function writeSheetRules(S: PageState): void {
  if (!S.sheet) return;
  const { bleed, extra, rules } = S.sheet;
  for (const r of rules) {
    if (r.size)
      r.rule.style.setProperty(
        'size',
        r.size[0] + 2 * bleed + extra + 'px ' + (r.size[1] + 2 * bleed) + 'px',
        r.sizePriority,
      );
    for (const [side, [v, priority]] of Object.entries(r.margins))
      r.rule.style.setProperty('margin-' + side, v + bleed + 'px', priority);
  }
}

/** The root's extra right margin, only while printing: screen measurements (leaders, forms, guesses) need the page's width. */
export function sheetPrinting(S: PageState, on: boolean): void {
  if (!S.sheet || !S.sheet.extra) return;
  const root = document.documentElement;
  const [value, priority, computed] = S.sheet.rootMargin;
  if (on) root.style.setProperty('margin-right', computed + S.sheet.extra + 'px', 'important');
  else if (value) root.style.setProperty('margin-right', value, priority);
  else root.style.removeProperty('margin-right');
}
