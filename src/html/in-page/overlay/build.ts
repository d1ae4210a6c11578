/**
 * The overlay: the margin boxes that use element() or string() (laid out with castpress's css-page-3
 * approximation), one page-sized tile per body page, printed as tiles of a few large sheets after the body
 * (each printed page costs Chromium about as much as its content); render.ts cuts each tile out of its
 * sheet, draws it onto its body page and removes the sheets.
 */
import type { LayoutState, OverlaySheet } from '../contract.js';
import { helper } from '../dom.js';
import { overlayForms } from '../forms.js';
import { resolvePage } from '../page-cascade.js';
import { newId, type PageState } from '../state.js';
import { inheritedFromPage } from '../page-context.js';
import { buildArea } from '../footnotes/area.js';
import { pageNumbers } from '../footnotes/plan.js';
import type { ResolvedPage } from '../page-cascade.js';
import {
  boxCell,
  boxContent,
  boxGeometry,
  boxStyle,
  buildBand,
  fillBox,
  overlayWork,
  place,
  SIDES,
  CORNERS,
  NO_BOXES,
  HOST_CSS,
  type BoxContent,
  type BoxGeometry,
  type BoxStyle,
  type OverlayWork,
} from './boxes.js';

/** A sheet's side at most, in CSS px: PDF's 14,400 units (ISO 32000-1 annex C; Chromium itself prints larger). */
const MAX_SHEET_PX = 14400 / 0.75;

export function buildOverlay(S: PageState, state: LayoutState): void {
  const old = document.getElementById('__fs_overlay');
  if (old) old.remove();
  const oldStyle = document.getElementById('__fs_overlay_style');
  if (oldStyle) oldStyle.remove();
  S.overlayPages = [];
  S.overlayGrid = { sheets: [], tiles: [] };
  if (!S.overlay) return;
  const host = helper('overlay', HOST_CSS);
  host.id = '__fs_overlay';
  // Out of the accessibility tree Chromium tags from: the overlay pages' text makes no structure elements
  // (~10 a page, parsed and dropped after the print), and their content is stripped of marks anyway.
  host.setAttribute('aria-hidden', 'true');
  const root = host.attachShadow({ mode: 'open' });
  // The tiles of each page size, in order: each size gets sheets of its own.
  const bySize: BySize = new Map();
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
  let first: { pg: HTMLElement; key: string; tile: [number, number] } | null = null;
  const work = overlayWork();
  const skeletons = new Map<string, Skeleton>();
  for (let i = 0; i < state.total; i++) {
    const [wPt, hPt] = state.sizes[i] as [number, number];
    const size = wPt.toFixed(2) + 'x' + hPt.toFixed(2);
    // On a wider sheet the root's extra right margin is there too: the overlay page is as much wider (cropped off).
    const wide = wPt + (S.sheet ? S.sheet.extra * 0.75 : 0);
    const P = resolvePage(S, i, state.names[i] || '');
    P.w = wPt / 0.75;
    P.h = hPt / 0.75;
    // The margins castpress widened: the plan's room at the bottom, a named element's margin at the top.
    if (i < S.footnotePages.length) P.bottom += P.extraBottom;
    if (S.topApplied.has(i)) P.top += P.extraTop;
    // Boxes the overlay does not draw are Chromium's (S.overlayOnly).
    const ours = (n: string) => (!S.overlayOnly || S.overlayOnly.has(n) ? P.boxes[n] : undefined);
    const corners = CORNERS.map((n) => plan(S, work, n, ours(n), i, state));
    const sides = SIDES.map(([, names]) => {
      const area = boxGeometry(names[0], P);
      return names.map((n) => plan(S, work, n, ours(n), i, state, area));
    });
    const inherited = inheritedFromPage(S, P.context);
    // Pages whose boxes have the same style share one skeleton, cloned: their text is filled in per page.
    let key = P.w + ',' + P.h + ',' + P.top + ',' + P.right + ',' + P.bottom + ',' + P.left + '|' + inherited;
    for (const b of [...corners, ...sides.flat()]) key += '|' + (b ? b.key + (b.content.float ? '+' : '-') : '');
    let sk = skeletons.get(key);
    if (!sk) {
      sk = skeleton(P, inherited, corners, sides);
      skeletons.set(key, sk);
    }
    const pg = sk.pg.cloneNode(true) as HTMLElement;
    pg.style.setProperty('counter-reset', 'page ' + (i + 1) + ' pages ' + state.total);
    pg.setAttribute('data-fs-overlay-page', String(i));
    [...corners, ...sides.flat()]
      .filter((b) => b !== null)
      .forEach((b, k) => {
        let line: Element = pg;
        for (const at of sk.lines[k] as number[]) line = line.children[at] as Element;
        fillBox(S, work, line, b.content, i, state, host, extra);
      });
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
    if (i === 0) first = { pg, key: size, tile: [wide, hPt] };
    // A page with no box and no notes would print blank: it gets no tile (each costs Chromium layout and
    // printing, and the merge a form XObject).
    if (pg.firstChild) addTile(bySize, size, [wide, hPt], pg, i);
  }
  // The overlay's first sheet carries the marker that tells where the body ends: with nothing to draw
  // anywhere, the first page is printed empty for it.
  if (bySize.size === 0 && first) addTile(bySize, first.key, first.tile, first.pg, 0);
  const sheets = layoutSheets(S, bySize);
  for (const sheet of sheets) {
    rules +=
      '@page ' +
      sheet.name +
      '{size:' +
      sheet.size[0] +
      'pt ' +
      sheet.size[1] +
      'pt!important;margin:0!important;background:none!important;' +
      (S.overlayOnly ? NO_BOXES : '') +
      '}';
    root.appendChild(sheet.el);
  }
  const slot = document.createElement('slot');
  slot.name = 'fs-start';
  const firstSheet = sheets[0]?.el;
  if (firstSheet) firstSheet.insertBefore(slot, firstSheet.firstChild);
  const st = document.createElement('style');
  st.id = '__fs_overlay_style';
  st.textContent = rules + extra.join('');
  document.head.appendChild(st);
  document.documentElement.appendChild(host);
  overlayForms(S, root);
}

/**
 * The tiles of each page size on as few sheets as fit PDF's page size limit: a grid of cells a whole
 * number of CSS px apart (a tile's content lays out and snaps to pixels as on a page of its own), each tile
 * at its cell's top-left. Fills `S.overlayPages` and `S.overlayGrid` in sheet order.
 */
function layoutSheets(S: PageState, bySize: BySize): Array<{ el: HTMLElement; name: string; size: [number, number] }> {
  const out: Array<{ el: HTMLElement; name: string; size: [number, number] }> = [];
  S.overlayPages = [];
  S.overlayGrid = { sheets: [], tiles: [] };
  for (const { tile, tiles } of bySize.values()) {
    const pitchX = Math.ceil(tile[0] / 0.75);
    const pitchY = Math.ceil(tile[1] / 0.75);
    const cols = Math.max(1, Math.min(tiles.length, Math.floor(MAX_SHEET_PX / pitchX)));
    const perSheet = cols * Math.max(1, Math.floor(MAX_SHEET_PX / pitchY));
    for (let at = 0; at < tiles.length; at += perSheet) {
      const part = tiles.slice(at, at + perSheet);
      const rows = Math.ceil(part.length / cols);
      const grid: OverlaySheet = { cols, rows, pitch: [pitchX * 0.75, pitchY * 0.75], tile };
      const size: [number, number] = [cols * pitchX * 0.75, rows * pitchY * 0.75];
      const name = '__fs_ov' + out.length;
      const el = document.createElement('div');
      el.style.cssText =
        'page:' +
        name +
        ';break-before:page;break-after:avoid;break-inside:avoid;position:relative;overflow:hidden;margin:0;padding:0;border:0;background:transparent;display:block;box-sizing:border-box;' +
        'width:' +
        cols * pitchX +
        'px;height:' +
        (rows * pitchY - 0.5) +
        'px;';
      const sheet = S.overlayGrid.sheets.push(grid) - 1;
      part.forEach(({ pg, page }, k) => {
        pg.style.left = (k % cols) * pitchX + 'px';
        pg.style.top = Math.floor(k / cols) * pitchY + 'px';
        el.appendChild(pg);
        S.overlayPages.push(page);
        S.overlayGrid.tiles.push({ sheet, index: k });
      });
      out.push({ el, name, size });
    }
  }
  return out;
}

type BySize = Map<string, { tile: [number, number]; tiles: Array<{ pg: HTMLElement; page: number }> }>;

function addTile(bySize: BySize, key: string, tile: [number, number], pg: HTMLElement, page: number): void {
  const group = bySize.get(key) ?? { tile, tiles: [] };
  bySize.set(key, group);
  group.tiles.push({ pg, page });
}

/** One margin box on one page: its style (and the key it is cached by) and what it shows there. */
interface Planned {
  key: string;
  style: BoxStyle;
  content: BoxContent;
}

function plan(
  S: PageState,
  work: OverlayWork,
  name: string,
  decls: Record<string, string> | undefined,
  i: number,
  state: LayoutState,
  area?: BoxGeometry,
): Planned | null {
  const got = decls && boxStyle(S, work, name, decls, area);
  return got ? { ...got, content: boxContent(S, work, decls.content as string, i, state) } : null;
}

/** An overlay page's structure without its text: its boxes placed, and the path to each box's line. */
interface Skeleton {
  pg: HTMLElement;
  lines: number[][];
}

function skeleton(
  P: ResolvedPage,
  inherited: string,
  corners: Array<Planned | null>,
  sides: Array<Array<Planned | null>>,
): Skeleton {
  const pg = document.createElement('div');
  // Its counters are the page's own, set on each copy.
  pg.style.cssText =
    'position:absolute;overflow:hidden;margin:0;padding:0;border:0;background:transparent;display:block;box-sizing:border-box;' +
    'width:' +
    P.w +
    'px;height:' +
    (P.h - 0.5) +
    'px;counter-reset:page 0;' +
    inherited;
  const lines: number[][] = [];
  corners.forEach((b, k) => {
    if (!b) return;
    const cell = boxCell(b.style, b.content.float);
    place(cell.el, boxGeometry(CORNERS[k] as string, P));
    lines.push([pg.children.length, 0]);
    pg.appendChild(cell.el);
  });
  sides.forEach((boxes, k) => {
    const [side, names] = SIDES[k] as [string, [string, string, string]];
    const cells = boxes.map((b) => (b ? boxCell(b.style, b.content.float) : null));
    if (!cells.some(Boolean)) return;
    const band = buildBand(side, cells, boxGeometry(names[0], P));
    for (const cell of cells)
      if (cell) lines.push([pg.children.length, Array.prototype.indexOf.call(band.children, cell.el), 0]);
    pg.appendChild(band);
  });
  return { pg, lines };
}
