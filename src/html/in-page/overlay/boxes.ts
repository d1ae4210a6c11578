/** The margin boxes of one overlay page: their geometry (castpress's css-page-3 approximation), cells and bands. */
import type { LayoutState } from '../contract.js';
import { tokens, type ContentToken } from '../css-text.js';
import { type ResolvedPage } from '../page-cascade.js';
import { type PageState, type RunningElement } from '../state.js';
import { formatCounter } from '../generated-content/string-values.js';
import { rootDirection } from '../page-context.js';
import { choose, pageStrings, stringOn } from './policies.js';

export interface BoxGeometry {
  x: number;
  y: number;
  w: number;
  h: number;
  row?: boolean;
}

export function boxGeometry(name: string, P: ResolvedPage): BoxGeometry {
  const { w, h, top, right, bottom, left } = P;
  const cw = w - left - right,
    ch = h - top - bottom;
  const [side] = name.split('-');
  if (name.endsWith('-corner'))
    return {
      x: name.includes('left') ? 0 : w - right,
      y: side === 'top' ? 0 : h - bottom,
      w: name.includes('left') ? left : right,
      h: side === 'top' ? top : bottom,
    };
  if (side === 'top' || side === 'bottom')
    return { x: left, y: side === 'top' ? 0 : h - bottom, w: cw, h: side === 'top' ? top : bottom, row: true };
  return { x: side === 'left' ? 0 : w - right, y: top, w: side === 'left' ? left : right, h: ch, row: false };
}

/** A margin box's cell, whether it has its own width/height, and whether it holds a floated running element. */
export interface BoxCell {
  el: HTMLElement;
  size: { w: boolean; h: boolean };
  float: boolean;
}

/** A margin box's own style (its declarations on its area, the root's direction) and whether it sets its size. */
export interface BoxStyle {
  css: string;
  size: { w: boolean; h: boolean };
}

/** What a margin box shows on one page: its content's parts and the running element each element() picks there. */
export interface BoxContent {
  tokens: ContentToken[];
  picks: Array<RunningElement | null>;
  float: boolean;
}

/**
 * What the pages of one overlay share, made once per build: each distinct box's style, each content's parts
 * and each running element's parsed copy. A 96-page report's boxes differ from page to page only in their
 * text and the header they slot.
 */
export interface OverlayWork {
  styles: Map<string, BoxStyle | null>;
  tokens: Map<string, ContentToken[]>;
  copies: Map<RunningElement, { wrap: HTMLElement; node: Element | null }>;
}

export function overlayWork(): OverlayWork {
  return { styles: new Map(), tokens: new Map(), copies: new Map() };
}

/** The style of margin box `name` with `decls` (null when it shows nothing), cached by what it depends on. */
export function boxStyle(
  S: PageState,
  work: OverlayWork,
  name: string,
  decls: Record<string, string>,
  area?: BoxGeometry,
): { key: string; style: BoxStyle } | null {
  const content = decls.content;
  if (!content || content === 'none' || content === 'normal') return null;
  const key = name + '|' + (area ? area.w + ',' + area.h : '') + '|' + JSON.stringify(decls);
  let style = work.styles.get(key);
  if (style === undefined) {
    style = makeStyle(S, name, decls, area);
    work.styles.set(key, style);
  }
  return style && { key, style };
}

function makeStyle(S: PageState, name: string, decls: Record<string, string>, area?: BoxGeometry): BoxStyle {
  const pos = name.split('-')[1];
  const align = pos === 'left' ? 'left' : pos === 'right' ? 'right' : 'center';
  // css-page-3's default alignment (Chromium's UA sheet too): the side boxes' outer ones at their end.
  const side = name.startsWith('left-') || name.startsWith('right-');
  let valign = side && (pos === 'top' || pos === 'bottom') ? pos : 'middle';
  let css =
    'box-sizing:border-box;display:flex;flex-direction:column;overflow:visible;min-width:0;text-align:' +
    (side ? 'center' : name.endsWith('corner') ? (name.includes('left') ? 'right' : 'left') : align) +
    ';';
  const size = { w: false, h: false };
  for (const [n, v] of Object.entries(decls)) {
    if (n === 'content') continue;
    if (n === 'vertical-align') {
      valign = v;
      continue;
    }
    // Percentages are of the margin area (css-page-3): in the band's grid track they would resolve against
    // the track, which is sized by them (the report's `@top-center { width: 100% }` rule came out 0 wide).
    const axis = /^(min-|max-)?width$/.test(n) ? 'w' : /^(min-|max-)?height$/.test(n) ? 'h' : null;
    const pct = axis && area ? /^\s*(-?[\d.]+)%\s*$/.exec(v) : null;
    if ((n === 'width' || n === 'height') && v.trim() !== 'auto' && axis) size[axis] = true;
    css += n + ':' + (pct && axis && area ? (parseFloat(pct[1]) / 100) * area[axis] + 'px' : v) + ';';
  }
  css += 'justify-content:' + (valign === 'top' ? 'flex-start' : valign === 'bottom' ? 'flex-end' : 'center') + ';';
  return { css: 'direction:' + rootDirection(S) + ';' + css, size };
}

/** What box content `content` shows on page i: the running element each element() picks (GCPM policies). */
export function boxContent(
  S: PageState,
  work: OverlayWork,
  content: string,
  i: number,
  state: LayoutState,
): BoxContent {
  let parts = work.tokens.get(content);
  if (!parts) {
    parts = tokens(content);
    work.tokens.set(content, parts);
  }
  let float = false;
  const picks = parts.map((t) => {
    const ref = t.element;
    if (!ref) return null;
    const r = choose(
      S.running.filter((x) => x.name === ref.name),
      ref.policy,
      i,
      state,
    );
    if (r && (r.float === 'left' || r.float === 'right')) float = true;
    return r;
  });
  return { tokens: parts, picks, float };
}

/** An empty margin box: its cell and the line its content goes in (the cell's only child). */
export function boxCell(style: BoxStyle, float: boolean): BoxCell {
  const cell = document.createElement('div');
  cell.style.cssText = style.css;
  const line = document.createElement('div');
  line.style.cssText = 'min-width:0;';
  cell.appendChild(line);
  return { el: cell, size: style.size, float };
}

/**
 * A margin box's content on page i, into its line. Its own structure lives in the overlay's shadow tree
 * (no author rule can match it); a running element is a light-DOM copy slotted into it, so it keeps the
 * author's rules.
 */
export function fillBox(
  S: PageState,
  work: OverlayWork,
  line: Element,
  content: BoxContent,
  i: number,
  state: LayoutState,
  host: HTMLElement,
  extraRules: string[],
): void {
  content.tokens.forEach((t, k) => {
    if (t.text !== undefined) line.appendChild(document.createTextNode(t.text));
    else if (t.counter === 'page' || t.counter === 'pages')
      line.appendChild(
        document.createTextNode(formatCounter(t.counter === 'page' ? i + 1 : state.total, t.style || 'decimal')),
      );
    else if (t.string) {
      const value = stringOn(S, t.string.name, t.string.policy, i, state);
      if (value !== null) line.appendChild(document.createTextNode(value));
    } else if (t.element) {
      const r = content.picks[k];
      if (!r) return;
      const copy = runningCopy(work, r);
      const wrap = copy.wrap.cloneNode(true) as HTMLElement;
      let inner: Element = wrap;
      while (inner.firstElementChild) inner = inner.firstElementChild;
      if (copy.node) {
        const node = copy.node.cloneNode(true) as Element;
        // Unique within the host: each copy goes in right after it is named.
        const slotName = 'fs' + host.childElementCount;
        node.setAttribute('slot', slotName);
        host.appendChild(node);
        extraRules.push(pageStrings(S, node, i, state));
        const slot = document.createElement('slot');
        slot.name = slotName;
        inner.appendChild(slot);
      }
      line.appendChild(wrap);
    }
  });
}

/** A running element's wrapper (its inherited style and counters) and its copy, parsed once per build. */
function runningCopy(work: OverlayWork, r: RunningElement): { wrap: HTMLElement; node: Element | null } {
  const known = work.copies.get(r);
  if (known) return known;
  const wrap = document.createElement('div');
  // flow-root keeps a floated running element inside its box (it would hang below it).
  wrap.style.cssText =
    r.inherited +
    ';text-align:inherit;display:flow-root' +
    (r.counterLevels && r.counterLevels[0] ? ';counter-reset:' + r.counterLevels[0] : '');
  // Nested counter instances (counters()) need one element per level.
  let inner = wrap;
  for (const level of (r.counterLevels || []).slice(1)) {
    const d = document.createElement('div');
    d.style.cssText = 'counter-reset:' + level;
    inner.appendChild(d);
    inner = d;
  }
  // Its controls are fields when the running element sat in a form (overlayForms).
  if (r.el.closest('form')) wrap.setAttribute('data-fs-in-form', '');
  const tpl = document.createElement('template');
  tpl.innerHTML = r.html;
  const copy = { wrap, node: tpl.content.firstElementChild };
  work.copies.set(r, copy);
  return copy;
}

export const SIDES: Array<[string, [string, string, string]]> = [
  ['top', ['top-left', 'top-center', 'top-right']],
  ['bottom', ['bottom-left', 'bottom-center', 'bottom-right']],
  ['left', ['left-top', 'left-middle', 'left-bottom']],
  ['right', ['right-top', 'right-middle', 'right-bottom']],
];
export const CORNERS = ['top-left-corner', 'top-right-corner', 'bottom-left-corner', 'bottom-right-corner'];

export const NO_BOXES = [...CORNERS, ...SIDES.flatMap(([, names]) => names)]
  .map((n) => '@' + n + '{content:none!important}')
  .join('');

export function place(el: HTMLElement, g: BoxGeometry): void {
  el.style.position = 'absolute';
  el.style.left = g.x + 'px';
  el.style.top = g.y + 'px';
  el.style.width = g.w + 'px';
  el.style.height = g.h + 'px';
}

export const HOST_CSS =
  'display:block!important;margin:0!important;padding:0!important;border:0!important;position:static!important;background:transparent!important;' +
  'float:none!important;width:auto!important;height:auto!important;columns:auto!important;visibility:visible!important;transform:none!important;' +
  // Pages and bands are placed by physical sides: a right-to-left root must not mirror them (its
  // direction comes back inside each box, buildBox).
  'direction:ltr!important;';

/** A side's band: a grid of its three boxes (css-page-3 in short, see below). */
export function buildBand(side: string, cells: Array<BoxCell | null>, g: BoxGeometry): HTMLElement {
  // css-page-3 in short: the middle box keeps its natural size and stays centred, the
  // outer boxes share the rest; without a middle box the outer ones split the band.
  const band = document.createElement('div');
  place(band, g);
  const tracks = cells[1]
    ? 'minmax(0,1fr) auto minmax(0,1fr)'
    : cells[0] && cells[2]
      ? 'minmax(0,1fr) minmax(0,1fr)'
      : 'minmax(0,1fr)';
  band.style.display = 'grid';
  band.style[g.row ? 'gridTemplateColumns' : 'gridTemplateRows'] = tracks;
  band.style[g.row ? 'gridTemplateRows' : 'gridTemplateColumns'] = '100%';
  const order = cells[1] ? cells : cells[0] && cells[2] ? [cells[0], cells[2]] : [cells[0] || cells[2] || null];
  order.forEach((cell, k) => {
    const el = cell ? cell.el : document.createElement('div');
    // A floated running element keeps its float side: its box spans the whole band (a shrink-wrapped,
    // centred middle box would leave it nowhere to float to).
    el.style[g.row ? 'gridColumn' : 'gridRow'] = cell && cell.float ? '1 / -1' : String(k + 1);
    el.style[g.row ? 'gridRow' : 'gridColumn'] = '1';
    // A box with its own size (css-page-3's over-constrained case): across the band it moves toward the
    // page area (its outer margin becomes auto); along the band the outer boxes keep to their ends and
    // the middle one stays centred, overlapping when they do not fit (as WeasyPrint draws them).
    if (cell) {
      const fixed = cell.size;
      const j = cells.indexOf(cell);
      const along = j === 0 ? 'start' : j === 1 ? 'center' : 'end';
      const across = side === 'top' || side === 'left' ? 'end' : 'start';
      if (fixed.w) el.style.justifySelf = g.row ? along : across;
      if (fixed.h) el.style.alignSelf = g.row ? across : along;
    }
    band.appendChild(el);
  });
  return band;
}
