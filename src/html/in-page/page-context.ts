/**
 * What the overlay's margin boxes inherit. css-page-3: margin boxes inherit from the page context, the
 * page context from the root element (Chromium's own margin boxes do both: `html { font-family }` and
 * `@page { font-family }` reach them). The overlay's boxes sit in a host that is a child of the root, so
 * the root's part comes by itself; the page context's part is its declarations of inherited properties,
 * written on the overlay page that holds the boxes (the invoice sample's `@page { font-family: Pacifico }`
 * came out in the root's Source Sans without it).
 */
import { BLEED_SENTINEL, MARKS_SENTINEL } from './contract.js';
import { helper } from './dom.js';
import type { PageState } from './state.js';

/**
 * Left to the root: the page's writing mode and direction are the root's (css-writing-modes-3), and the
 * overlay places its bands by physical sides.
 */
const ROOTS_OWN = new Set(['direction', 'writing-mode']);

/**
 * The page context's own properties, which css-page-3 gives to the page box and none of which inherit
 * (css-page-3 `size`, css-box-4, css-backgrounds-3, css-sizing-3, css-lists-3 counters): a context made of
 * these alone is answered without a probe. Every context has `size` and margins (the request's page):
 * the probe's forced style update was ~2-3 % of the invoice's render (RecalcStyleCount 10 against 9).
 * `border-collapse` and `border-spacing` do inherit.
 */
const NEVER_INHERITED =
  /^(size|page-orientation|(margin|padding|outline)(-[-a-z]+)?|border(?!-(collapse|spacing)$)(-[-a-z]+)?|background(-[-a-z]+)?|(min-|max-)?(width|height)|counter-(reset|increment|set)|box-shadow)$/;

/** A display:none pair (outer with `css`, inner child) after <body>: computed values, no layout. */
function probePair(css: string): [HTMLElement, HTMLElement] {
  const outer = helper('probe', css + ';display:none!important');
  const inner = document.createElement('span');
  outer.appendChild(inner);
  document.documentElement.appendChild(outer);
  return [outer, inner];
}

/**
 * The page context's declarations (name → value, as resolved for one page) that its margin boxes
 * inherit, as css text. Which properties inherit is asked of the engine rather than listed: the
 * declarations go on a probe element, and a property counts when the probe's child computes it
 * otherwise than a child of a bare probe (a value the root gives anyway changes nothing either way).
 * One probe per distinct set of declarations (usually one per document).
 */
export function inheritedFromPage(S: PageState, context: Record<string, string>): string {
  const decls = Object.entries(context).filter(
    ([n, v]) =>
      !ROOTS_OWN.has(n) && !NEVER_INHERITED.test(n) && !v.includes(BLEED_SENTINEL) && !v.includes(MARKS_SENTINEL),
  );
  if (decls.length === 0) return '';
  const css = decls.map(([n, v]) => n + ':' + v).join(';');
  const known = S.contextStyles.get(css);
  if (known !== undefined) return known;
  const [withPage, child] = probePair(css);
  const [bare, bareChild] = probePair('');
  const got = getComputedStyle(child);
  const without = getComputedStyle(bareChild);
  const inherited = decls
    .filter(([n]) => got.getPropertyValue(n) !== without.getPropertyValue(n))
    .map(([n, v]) => n + ':' + v + ';')
    .join('');
  withPage.remove();
  bare.remove();
  S.contextStyles.set(css, inherited);
  return inherited;
}

const directions = new WeakMap<PageState, string>();

/**
 * The root's direction, which the overlay's boxes take back inside their left-to-right host: read once
 * per document (castpress never writes it). prepareRunning reads it first, right after the page rules
 * read the root's style, so the read forces no style update of its own; read in buildOverlay, after the
 * writes of `layout`, it cost one (~5 ms on a 96-page report).
 */
export function rootDirection(S: PageState): string {
  let dir = directions.get(S);
  if (dir === undefined) {
    dir = getComputedStyle(document.documentElement).direction;
    directions.set(S, dir);
  }
  return dir;
}
