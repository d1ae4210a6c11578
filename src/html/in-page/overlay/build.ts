/**
 * The overlay: one page per body page, appended after the body, carrying the margin boxes that use
 * element() or string() (laid out with castpress's css-page-3 approximation); render.ts draws each
 * onto its body page and removes it.
 */
import type { LayoutState } from '../contract.js';
import { helper } from '../dom.js';
import { overlayForms } from '../forms.js';
import { resolvePage } from '../page-cascade.js';
import { newId, type PageState } from '../state.js';
import { inheritedFromPage } from '../page-context.js';
import { buildArea } from '../footnotes/area.js';
import { pageNumbers } from '../footnotes/plan.js';
import { boxGeometry, buildBand, buildBox, place, SIDES, CORNERS, NO_BOXES, HOST_CSS } from './boxes.js';

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
