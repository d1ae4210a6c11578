/**
 * The overlay: one page per body page, appended after the body, carrying the margin boxes that use
 * element() or string() (laid out with castpress's css-page-3 approximation); render.ts draws each
 * onto its body page and removes it.
 */
import type { LayoutState } from './contract.js';
import { cssString, tokens } from './css-text.js';
import { helper } from './dom.js';
import { overlayForms } from './forms.js';
import { resolvePage, type ResolvedPage } from './page-cascade.js';
import { newId, type PageState } from './state.js';
import { inheritedFromPage } from './page-context.js';
import { formatCounter, PAGE_MARK, PAGES_MARK } from './generated-content/string-values.js';
import { buildArea } from './footnotes/area.js';
import { pageNumbers } from './footnotes/plan.js';

interface Positioned {
  id: string;
  slack: number;
}

/**
 * GCPM's page policies, for running elements and named strings alike. items are in document
 * order with an id whose page (and offset from the content top, in pt) the state knows.
 * - first: the first one on the page, else the last one before the page (the entry value);
 * - start: the first one on the page if nothing precedes it there (it starts the page), else the entry value;
 * - last: the last one on the page, else the entry value;
 * - first-except: nothing on a page that has one, else the entry value.
 */
export function choose<T extends Positioned>(items: T[], policy: string, i: number, state: LayoutState): T | null {
  let entry: T | null = null;
  const on: T[] = [];
  for (const it of items) {
    const p = state.pages[it.id];
    if (p === undefined) continue;
    if (p < i) entry = it;
    else if (p === i) on.push(it);
  }
  const head = on[0];
  if (policy === 'last') return on.length ? (on[on.length - 1] as T) : entry;
  if (policy === 'first-except') return on.length ? null : entry;
  if (policy === 'start') {
    const top = state.tops && state.tops[head ? head.id : ''];
    return head && top !== undefined && top <= head.slack * 0.75 + 1 ? head : entry;
  }
  return head ? head : entry;
}

/** The named string `name` on page i by `policy`; null when none is set yet. */
function stringOn(S: PageState, name: string, policy: string, i: number, state: LayoutState): string | null {
  const a = choose(
    S.strings.filter((x) => x.name === name),
    policy,
    i,
    state,
  );
  // counter(page) in a string-set value is the page of the assignment (string-values.ts marks).
  return a
    ? a.value
        .split(PAGE_MARK)
        .join(String((state.pages[a.id] ?? i) + 1))
        .split(PAGES_MARK)
        .join(String(state.total))
    : null;
}

/**
 * string() inside a running element's copy shows the named string of the page the copy is drawn on, as a
 * margin box's own string() does (its `first` value): the copy's pseudo-elements get rules of their own
 * for page i. Pseudo-elements that also show counters or target pages keep the element's rule.
 */
function pageStrings(S: PageState, copy: Element, i: number, state: LayoutState): string {
  let css = '';
  for (const el of [copy, ...copy.querySelectorAll('[data-castpress-t]')]) {
    const key = el.getAttribute('data-castpress-t');
    const rules = key === null ? [] : S.targets.filter((t) => t.key === key);
    if (!rules.some((t) => t.parts.some((p) => p.string !== undefined))) continue;
    if (!rules.every((t) => t.parts.every((p) => p.raw !== undefined))) continue;
    const own = key + '-p' + i;
    el.setAttribute('data-castpress-t', own);
    for (const t of rules) {
      const content = t.parts
        .map((p) => (p.string !== undefined ? cssString(stringOn(S, p.string, 'first', i, state) ?? '') : p.raw))
        .join(' ');
      css += '[data-castpress-t="' + own + '"]' + t.pseudo + '{content:' + (content || '""') + '!important}';
    }
  }
  return css;
}

export interface BoxGeometry {
  x: number;
  y: number;
  w: number;
  h: number;
  row?: boolean;
}

function boxGeometry(name: string, P: ResolvedPage): BoxGeometry {
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
interface BoxCell {
  el: HTMLElement;
  size: { w: boolean; h: boolean };
  float: boolean;
}

/**
 * One margin box. Its own structure lives in the overlay's shadow tree (no author rule can match
 * it); a running element is a light-DOM clone slotted into it, so it keeps the author's rules.
 */
function buildBox(
  S: PageState,
  name: string,
  decls: Record<string, string>,
  i: number,
  state: LayoutState,
  host: HTMLElement,
  extraRules: string[],
  area?: BoxGeometry,
): BoxCell | null {
  const content = decls.content;
  if (!content || content === 'none' || content === 'normal') return null;
  const cell = document.createElement('div');
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
  cell.style.cssText = 'direction:' + getComputedStyle(document.documentElement).direction + ';' + css;
  const box: BoxCell = { el: cell, size, float: false };
  const line = document.createElement('div');
  line.style.cssText = 'min-width:0;';
  for (const t of tokens(content)) {
    if (t.text !== undefined) line.appendChild(document.createTextNode(t.text));
    else if (t.counter === 'page' || t.counter === 'pages')
      line.appendChild(
        document.createTextNode(formatCounter(t.counter === 'page' ? i + 1 : state.total, t.style || 'decimal')),
      );
    else if (t.string) {
      const value = stringOn(S, t.string.name, t.string.policy, i, state);
      if (value !== null) line.appendChild(document.createTextNode(value));
    } else if (t.element) {
      const ref = t.element;
      const r = choose(
        S.running.filter((x) => x.name === ref.name),
        ref.policy,
        i,
        state,
      );
      if (!r) continue;
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
      const tpl = document.createElement('template');
      tpl.innerHTML = r.html;
      const node = tpl.content.firstElementChild as HTMLElement | null;
      if (node) {
        // Unique within the host: each copy goes in right after it is named.
        const slotName = 'fs' + host.childElementCount;
        node.setAttribute('slot', slotName);
        host.appendChild(node);
        extraRules.push(pageStrings(S, node, i, state));
        const slot = document.createElement('slot');
        slot.name = slotName;
        inner.appendChild(slot);
      }
      // Its controls are fields when the running element sat in a form (overlayForms).
      if (r.el.closest('form')) wrap.setAttribute('data-fs-in-form', '');
      line.appendChild(wrap);
      if (r.float === 'left' || r.float === 'right') box.float = true;
    }
  }
  cell.appendChild(line);
  return box;
}

const SIDES: Array<[string, [string, string, string]]> = [
  ['top', ['top-left', 'top-center', 'top-right']],
  ['bottom', ['bottom-left', 'bottom-center', 'bottom-right']],
  ['left', ['left-top', 'left-middle', 'left-bottom']],
  ['right', ['right-top', 'right-middle', 'right-bottom']],
];
const CORNERS = ['top-left-corner', 'top-right-corner', 'bottom-left-corner', 'bottom-right-corner'];

const NO_BOXES = [...CORNERS, ...SIDES.flatMap(([, names]) => names)]
  .map((n) => '@' + n + '{content:none!important}')
  .join('');

function place(el: HTMLElement, g: BoxGeometry): void {
  el.style.position = 'absolute';
  el.style.left = g.x + 'px';
  el.style.top = g.y + 'px';
  el.style.width = g.w + 'px';
  el.style.height = g.h + 'px';
}

const HOST_CSS =
  'display:block!important;margin:0!important;padding:0!important;border:0!important;position:static!important;background:transparent!important;' +
  'float:none!important;width:auto!important;height:auto!important;columns:auto!important;visibility:visible!important;transform:none!important;' +
  // Pages and bands are placed by physical sides: a right-to-left root must not mirror them (its
  // direction comes back inside each box, buildBox).
  'direction:ltr!important;';

/** A side's band: a grid of its three boxes (css-page-3 in short, see below). */
function buildBand(side: string, cells: Array<BoxCell | null>, g: BoxGeometry): HTMLElement {
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

export function buildOverlay(S: PageState, state: LayoutState): void {
  const old = document.getElementById('__fs_overlay');
  if (old) old.remove();
  const oldStyle = document.getElementById('__fs_overlay_style');
  if (oldStyle) oldStyle.remove();
  S.overlayPages = [];
  if (!S.overlay) return;
  const host = helper('overlay', HOST_CSS);
  host.id = '__fs_overlay';
  // Out of the accessibility tree Chromium tags from: the overlay pages' text makes no structure elements
  // (~10 a page, parsed and dropped after the print), and their content is stripped of marks anyway.
  host.setAttribute('aria-hidden', 'true');
  const root = host.attachShadow({ mode: 'open' });
  const sizeNames = new Map<string, string>();
  let rules = '';
  const extra: string[] = [];
  // The overlay's first page is found by a destination, so its marker is a light-DOM child (ids inside
  // a shadow tree get none), slotted into the overlay's first page.
  const start = helper('mark', 'display:block!important');
  if (!S.overlayStart) {
    S.overlayStart = newId(S, 'o');
    S.markers.push(S.overlayStart);
  }
  start.id = S.overlayStart;
  start.setAttribute('slot', 'fs-start');
  host.appendChild(start);
  const pages: HTMLElement[] = [];
  let first: HTMLElement | null = null;
  for (let i = 0; i < state.total; i++) {
    const [wPt, hPt] = state.sizes[i] as [number, number];
    const key = wPt.toFixed(2) + 'x' + hPt.toFixed(2);
    if (!sizeNames.has(key)) {
      const nm = '__fs_ov' + sizeNames.size;
      sizeNames.set(key, nm);
      // On a wider sheet the root's extra right margin is there too: the overlay page is as much wider (cropped off).
      const wide = wPt + (S.sheet ? S.sheet.extra * 0.75 : 0);
      // Chromium's own boxes (those the overlay leaves to it) must not show on the overlay pages too.
      rules +=
        '@page ' +
        nm +
        '{size:' +
        wide +
        'pt ' +
        hPt +
        'pt!important;margin:0!important;background:none!important;' +
        (S.overlayOnly ? NO_BOXES : '') +
        '}';
    }
    const P = resolvePage(S, i, state.names[i] || '');
    P.w = wPt / 0.75;
    P.h = hPt / 0.75;
    // The margins castpress widened: the plan's room at the bottom, a named element's margin at the top.
    if (i < S.footnotePages.length) P.bottom += P.extraBottom;
    if (S.topApplied.has(i)) P.top += P.extraTop;
    const pg = document.createElement('div');
    pg.style.cssText =
      'page:' +
      sizeNames.get(key) +
      ';break-before:page;break-after:avoid;break-inside:avoid;position:relative;overflow:hidden;margin:0;padding:0;border:0;background:transparent;display:block;box-sizing:border-box;' +
      'width:' +
      P.w +
      'px;height:' +
      (P.h - 0.5) +
      'px;counter-reset:page ' +
      (i + 1) +
      ' pages ' +
      state.total +
      ';' +
      inheritedFromPage(S, P.context);
    pg.setAttribute('data-fs-overlay-page', String(i));
    if (i === 0) first = pg;
    // Boxes the overlay does not draw are Chromium's (S.overlayOnly).
    const ours = (n: string) => (!S.overlayOnly || S.overlayOnly.has(n) ? P.boxes[n] : undefined);
    for (const corner of CORNERS) {
      const decls = ours(corner);
      const cell = decls && buildBox(S, corner, decls, i, state, host, extra);
      if (!cell) continue;
      place(cell.el, boxGeometry(corner, P));
      pg.appendChild(cell.el);
    }
    for (const [side, names] of SIDES) {
      const area = boxGeometry(names[0], P);
      const cells = names.map((n) => {
        const decls = ours(n);
        return decls ? buildBox(S, n, decls, i, state, host, extra, area) : null;
      });
      if (!cells.some(Boolean)) continue;
      pg.appendChild(buildBand(side, cells, boxGeometry(names[0], P)));
    }
    const notes = S.footnotePages[i]?.notes;
    if (notes && notes.length) {
      // At the bottom of the content box (the overlay page is half a pixel shorter than the page).
      const area = buildArea(
        P,
        notes.map((k) => S.footnotes[k]!),
        pageNumbers(S, notes),
        host,
      );
      area.style.bottom = P.bottom - 0.5 + 'px';
      pg.appendChild(area);
    }
    // A page with no box and no notes would print blank: it gets no overlay page (each costs Chromium
    // a page of layout and printing, and the merge a form XObject).
    if (pg.firstChild) {
      pages.push(pg);
      S.overlayPages.push(i);
    }
  }
  // The overlay's first page carries the marker that tells where the body ends: with nothing to draw
  // anywhere, the first page is printed empty for it.
  if (pages.length === 0 && first) {
    pages.push(first);
    S.overlayPages.push(0);
  }
  const slot = document.createElement('slot');
  slot.name = 'fs-start';
  if (pages[0]) pages[0].insertBefore(slot, pages[0].firstChild);
  for (const pg of pages) root.appendChild(pg);
  const st = document.createElement('style');
  st.id = '__fs_overlay_style';
  st.textContent = rules + extra.join('');
  document.head.appendChild(st);
  document.documentElement.appendChild(host);
  overlayForms(S, root);
}
