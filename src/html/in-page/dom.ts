/**
 * The document side of the page code: castpress's helper elements, ids that become named
 * destinations, selecting the elements a set of style rules reaches.
 */
import { newId, type PageState, type StyleRuleInfo } from './state.js';

/** Elements in document order. */
export function documentOrder<T extends Node>(a: T, b: T): number {
  return a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1;
}

/** el's id, given one when it has none or a duplicated one, recorded as a marker (its page is read after printing). */
export function idFor(S: PageState, el: Element, prefix: string): string {
  if (!el.id || document.querySelectorAll('#' + CSS.escape(el.id)).length !== 1) el.id = newId(S, prefix);
  S.markers.push(el.id);
  return el.id;
}

/**
 * Helper elements are custom elements ('castpress-*': no author type selector matches them) and never
 * go inside <body>: they sit in <html> before <head> (rendered ones: a box after <body> would start a
 * page after a trailing break-after) or after <body> (display:none ones), so :last-child,
 * :last-of-type and sibling combinators in the author's CSS see the author's elements only.
 */
export function helper(tag: string, css: string): HTMLElement {
  const el = document.createElement('castpress-' + tag);
  el.style.cssText = css;
  return el;
}

export function beforeHead<T extends Element>(el: T): T {
  document.documentElement.insertBefore(el, document.documentElement.firstChild);
  return el;
}

/**
 * Where an element's content ends is where the next rendered element of <body> after it starts
 * (instead of a marker appended inside it, which author :last-child rules would see). Null when
 * nothing follows: the element then runs to the end of the document.
 */
export function followingId(S: PageState, el: Element): string | null {
  const after = (node: Element): Element | null => {
    for (let up: Element | null = node; up && up !== document.body; up = up.parentElement)
      if (up.nextElementSibling) return up.nextElementSibling;
    return null;
  };
  for (let n = after(el); n;) {
    const cs = getComputedStyle(n);
    if (
      n.hasAttribute('data-fs-blank') ||
      cs.display === 'none' ||
      cs.position === 'absolute' ||
      cs.position === 'fixed' ||
      n.getClientRects().length === 0
    ) {
      n = after(n);
      continue;
    }
    // Chromium writes no destination for a box left of the content edge (negative margins): try inside it.
    if (n.getBoundingClientRect().left < 0) {
      n = n.firstElementChild || after(n);
      continue;
    }
    return idFor(S, n, 'x');
  }
  return null;
}

/**
 * An id whose destination gives el's page: el itself, or — when el reaches left of the content box,
 * where Chromium writes no destination — its first descendant that does not, else the next element.
 */
export function anchorId(S: PageState, el: Element, prefix: string): string | null {
  const ok = (n: Element) => n.getBoundingClientRect().left >= -0.5 && n.getClientRects().length > 0;
  if (ok(el)) return idFor(S, el, prefix);
  for (const d of el.querySelectorAll('*'))
    if (ok(d) && getComputedStyle(d).position !== 'absolute') return idFor(S, d, prefix);
  return followingId(S, el);
}

/** The elements a selector matches; none for a selector the document cannot parse. */
export function select(selector: string): HTMLElement[] {
  try {
    return [...document.querySelectorAll<HTMLElement>(selector)];
  } catch {
    return [];
  }
}

/**
 * Elements that may have `prop` set (by a rule whose value passes `test`, or a style attribute), in
 * document order; a rule on a pseudo-element counts for its element.
 */
export function candidates(
  styleRules: StyleRuleInfo[],
  prop: string,
  test?: (value: string, rule: StyleRuleInfo) => boolean,
): HTMLElement[] {
  const set = new Set<HTMLElement>();
  for (const r of styleRules) {
    const v = r.style.getPropertyValue(prop);
    if (v && (!test || test(v, r)))
      for (const el of select(r.selectorText.replace(/::?(before|after|marker)\b/g, ''))) set.add(el);
  }
  for (const el of document.querySelectorAll<HTMLElement>('[style]')) if (el.style.getPropertyValue(prop)) set.add(el);
  return [...set].sort(documentOrder);
}

/** A marker made after the links were written (a footnote plan's spacer): its own hidden link. */
export function linkMarker(S: PageState, id: string): void {
  S.markers.push(id);
  const box = document.querySelector('castpress-links');
  if (!box) return;
  const a = document.createElement('a');
  a.href = '#' + id;
  box.appendChild(a);
}

/** A hidden link to every marker: Chromium then writes a named destination (page and position) for each. */
export function addDestLinks(S: PageState): void {
  const box = helper('links', 'display:none!important');
  for (const id of new Set(S.markers)) {
    const a = document.createElement('a');
    a.href = '#' + id;
    box.appendChild(a);
  }
  document.documentElement.appendChild(box);
}

export function hideBrokenImages(): void {
  for (const img of document.images) {
    if (img.getAttribute('src') && (!img.complete || img.naturalWidth === 0))
      img.style.setProperty('visibility', 'hidden', 'important');
  }
}

/**
 * With an overlay: the canvas background (the root's, else the body's) moves to an `@page` rule, so the
 * overlay pages, whose own page rule sets `background: none`, stay transparent over the body pages.
 */
export function moveCanvasBackground(): void {
  const html = document.documentElement,
    body = document.body;
  const has = (cs: CSSStyleDeclaration) =>
    cs.backgroundImage !== 'none' || !/rgba\(0, 0, 0, 0\)|transparent/.test(cs.backgroundColor);
  const source = has(getComputedStyle(html)) ? html : body && has(getComputedStyle(body)) ? body : null;
  if (!source) return;
  const cs = getComputedStyle(source);
  const decl = ['background-color', 'background-image', 'background-repeat', 'background-position', 'background-size']
    .map((p) => p + ':' + cs.getPropertyValue(p))
    .join(';');
  const st = document.createElement('style');
  st.textContent = '@page{' + decl + '}';
  document.head.insertBefore(st, document.head.firstChild);
  source.style.setProperty('background', 'transparent', 'important');
}
