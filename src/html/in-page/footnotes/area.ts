/**
 * The footnote area of a page (css-gcpm-3 §2.3): a box at the bottom of the page's content box with the
 * page's `@footnote` declarations (cascaded like a margin box's, page-rules.ts), holding the copies of the
 * page's notes. The overlay draws it (overlay.ts); plan.ts measures it with the same code, in a hidden host.
 */
import { FOOTNOTE_MARKER } from '../contract.js';
import { beforeHead, helper } from '../dom.js';
import { inheritedFromPage } from '../page-context.js';
import type { ResolvedPage } from '../page-cascade.js';
import type { Footnote, PageState } from '../state.js';

/** Properties of `@footnote` that castpress places itself (the area is always at the bottom, in the page's width). */
const PLACED = /^(float|position|top|right|bottom|left|inset.*|width|min-width|max-width|content|display)$/;

/**
 * The area of page `P` with `notes` numbered `numbers`, as an absolutely positioned wrapper in the page's
 * content width (the caller sets its vertical place); the copies are light-DOM children of `host`
 * slotted into it, so the author's rules reach them.
 */
export function buildArea(P: ResolvedPage, notes: Footnote[], numbers: number[], host: HTMLElement): HTMLElement {
  const wrap = document.createElement('div');
  // flow-root: the area's own margins count in the wrapper's height, the room the page leaves.
  wrap.style.cssText =
    'position:absolute;display:flow-root;box-sizing:border-box;margin:0;padding:0;border:0;left:' +
    P.left +
    'px;width:' +
    Math.max(0, P.w - P.left - P.right) +
    'px;';
  const area = document.createElement('div');
  const decls = P.boxes.footnote || {};
  // WeasyPrint's user-agent `@footnote { margin-top: 1em }`, then the author's.
  let css = 'display:block;margin-top:1em;';
  if (decls['max-height']) css += 'overflow:hidden;';
  for (const [n, v] of Object.entries(decls)) if (!PLACED.test(n)) css += n + ':' + v + ';';
  area.style.cssText = css;
  area.setAttribute('data-fs-footnote-area', '');
  notes.forEach((f, k) => {
    const block = f.display === 'block';
    const cell = document.createElement(block ? 'div' : 'span');
    cell.style.cssText = f.inherited + ';display:' + (block ? 'block' : 'inline');
    const tpl = document.createElement('template');
    tpl.innerHTML = f.html;
    const copy = tpl.content.firstElementChild as HTMLElement | null;
    if (copy) {
      const marker = copy.querySelector(FOOTNOTE_MARKER) as HTMLElement | null;
      if (marker) marker.style.setProperty('counter-reset', 'footnote ' + (numbers[k] ?? 0), 'important');
      const name = 'fn' + host.childElementCount;
      copy.setAttribute('slot', name);
      host.appendChild(copy);
      const slot = document.createElement('slot');
      slot.name = name;
      cell.appendChild(slot);
    }
    if (!block && k > 0) area.appendChild(document.createTextNode(' '));
    area.appendChild(cell);
  });
  wrap.appendChild(area);
  return wrap;
}

/** The hidden host areas are measured in (removed before anything prints, plan.ts), and the run of notes laid out in it. */
export interface Measurer {
  host: HTMLElement;
  root: ShadowRoot;
  run: {
    key: string;
    first: number;
    area: HTMLElement;
    wrap: HTMLElement;
    cells: HTMLElement[];
    /** Block notes: each cell's bottom, the area's top and what follows the last cell, the area's inner bottom and full height (screen px). */
    bottoms: number[];
    top: number;
    tail: number;
    inner: number;
    full: number;
  } | null;
  cache: Map<string, { height: number; overflows: boolean }>;
}

export function newMeasurer(): Measurer {
  const host = beforeHead(
    helper(
      'fn-measure',
      'display:block!important;position:absolute!important;left:0!important;top:0!important;width:0!important;height:0!important;margin:0!important;padding:0!important;border:0!important;visibility:hidden!important;overflow:visible!important',
    ),
  );
  return { host, root: host.attachShadow({ mode: 'open' }), run: null, cache: new Map() };
}

/**
 * The room (CSS px) the area of page `P` takes with `count` notes from `first` (numbered `numbers(k)`),
 * and whether they overflow its max-height. The notes from `first` on are laid out once for the page and
 * the ones past `count` hidden, rather than an area built for every count.
 */
export function measureArea(
  S: PageState,
  m: Measurer,
  P: ResolvedPage,
  first: number,
  count: number,
  numbers: (k: number) => number,
): { height: number; overflows: boolean } {
  if (count <= 0) return { height: 0, overflows: false };
  const key = JSON.stringify([P.w - P.left - P.right, P.boxes.footnote || null, P.context, first]);
  const known = m.cache.get(key + count);
  if (known) return known;
  if (!m.run || m.run.key !== key || m.run.cells.length < count) {
    const n = Math.min(
      S.footnotes.length - first,
      Math.max(count, 2 * (m.run && m.run.key === key ? m.run.cells.length : 4)),
    );
    const notes = S.footnotes.slice(first, first + n);
    m.root.replaceChildren();
    m.host.replaceChildren();
    const wrap = buildArea(
      P,
      notes,
      notes.map((_, k) => numbers(k)),
      m.host,
    );
    wrap.style.top = '0';
    wrap.style.cssText += inheritedFromPage(S, P.context);
    m.root.appendChild(wrap);
    const area = wrap.firstElementChild as HTMLElement;
    const cells = [...area.children] as HTMLElement[];
    // Block notes stack: every count is read off one layout (a note's end is where the next begins).
    const stacked = notes.every((f) => f.display === 'block');
    const w = wrap.getBoundingClientRect();
    const a = area.getBoundingClientRect();
    const acs = getComputedStyle(area);
    const bottoms = stacked ? cells.map((c) => c.getBoundingClientRect().bottom) : [];
    m.run = {
      key,
      first,
      area,
      wrap,
      cells,
      bottoms,
      top: w.top,
      tail: stacked ? w.bottom - (bottoms[bottoms.length - 1] ?? w.top) : 0,
      inner: a.bottom - (parseFloat(acs.paddingBottom) || 0) - (parseFloat(acs.borderBottomWidth) || 0),
      full: w.height,
    };
  }
  const run = m.run;
  let got: { height: number; overflows: boolean };
  if (run.bottoms.length) {
    const end = run.bottoms[count - 1] as number;
    got = { height: Math.min(end - run.top + run.tail, run.full), overflows: end > run.inner + 0.5 };
  } else {
    // A cell's own display is its element's default (div: block, span: inline).
    run.cells.forEach((c, k) =>
      k < count ? c.style.removeProperty('display') : c.style.setProperty('display', 'none'),
    );
    got = {
      height: run.wrap.getBoundingClientRect().height,
      overflows: run.area.scrollHeight > run.area.clientHeight + 0.5,
    };
  }
  m.cache.set(key + count, got);
  return got;
}
