/**
 * Leaders measured at a page's content width lay the document out at that width: the content after the
 * last leader is skipped for that layout (`content-visibility: hidden`, then put back), where nothing it
 * holds can move a leader's line. A table of contents then costs a layout of itself, not of the
 * document, and the screen layout of the skipped content is still valid afterwards.
 */

/** Displays whose box is a block in its parent's block flow. */
const BLOCK_LEVEL = new Set(['block', 'flow-root', 'list-item', 'table', 'flex', 'grid']);
/** Displays of a block container that lays its block children out one under another. */
const BLOCK_CONTAINER = new Set(['block', 'flow-root', 'list-item']);

/** In its parent's flow: not floated, not taken out of it. */
function inFlow(cs: CSSStyleDeclaration): boolean {
  return cs.float === 'none' && (cs.position === 'static' || cs.position === 'relative');
}

/**
 * Whether el's width comes from its containing block alone and its children stack in one column: what
 * follows a child can change el's height only. Shrink-to-fit and intrinsic widths, flex, grid, tables,
 * columns and vertical writing modes lay a child out by its siblings' content too; a scroll container
 * could gain or lose a scrollbar.
 */
function stacksBlocks(el: Element, scrolls: boolean): boolean {
  const cs = getComputedStyle(el);
  if (!BLOCK_CONTAINER.has(cs.display) || !inFlow(cs) || cs.writingMode !== 'horizontal-tb') return false;
  if (cs.columnCount !== 'auto' || cs.columnWidth !== 'auto') return false;
  if (scrolls && cs.overflowY !== 'visible' && cs.overflowY !== 'clip') return false;
  // Computed values, not the used widths getComputedStyle gives: `fit-content` and the like show here.
  const map = el.computedStyleMap();
  return ['width', 'min-width', 'max-width'].every((p) => !/content/.test(String(map.get(p))));
}

/**
 * The elements after `last` that can be skipped while leaders are measured: the following siblings of
 * each block-level ancestor of `last` (or itself) whose parent, and every element above it, stacks blocks.
 * None when a reversed counter is in use: its values count the increments after it as well.
 */
function followingBlocks(last: Element, reversedCounters: boolean): Element[] {
  const html = document.documentElement;
  const body = document.body;
  if (reversedCounters || !body || !body.contains(last) || document.querySelector('ol[reversed]')) return [];
  // The viewport takes the root's overflow, or the body's when the root's is visible.
  if (!stacksBlocks(html, false) || !stacksBlocks(body, getComputedStyle(html).overflowY !== 'visible')) return [];
  const chain: Element[] = [];
  for (let e: Element | null = last; e && e !== body; e = e.parentElement) chain.push(e);
  const out: Element[] = [];
  for (let i = chain.length - 1; i >= 0; i--) {
    const a = chain[i] as Element;
    const cs = getComputedStyle(a);
    if (!BLOCK_LEVEL.has(cs.display) || !inFlow(cs)) break;
    for (let e = a.nextElementSibling; e; e = e.nextElementSibling) out.push(e);
    if (i === 0 || !stacksBlocks(a, true)) break;
  }
  return out;
}

/**
 * Runs measure() with the content after the last leader skipped (see followingBlocks), then puts each
 * skipped element's own style back as it was (no `style` attribute if it had none).
 */
export function withFollowingSkipped<T>(last: Element, reversedCounters: boolean, measure: () => T): T {
  const skipped = followingBlocks(last, reversedCounters).filter(
    (e): e is HTMLElement | SVGElement => e instanceof HTMLElement || e instanceof SVGElement,
  );
  const saved = skipped.map(
    (e) =>
      [
        e.getAttribute('style'),
        e.style.getPropertyValue('content-visibility'),
        e.style.getPropertyPriority('content-visibility'),
      ] as const,
  );
  for (const e of skipped) e.style.setProperty('content-visibility', 'hidden', 'important');
  try {
    return measure();
  } finally {
    skipped.forEach((e, k) => {
      const [attribute, value, priority] = saved[k] as (typeof saved)[number];
      if (attribute === null) e.removeAttribute('style');
      else if (value) e.style.setProperty('content-visibility', value, priority);
      else e.style.removeProperty('content-visibility');
    });
  }
}
