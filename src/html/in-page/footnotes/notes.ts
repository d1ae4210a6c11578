/**
 * Notes (css-gcpm-3 §2, `float: footnote`, renamed `--fs-footnote` by css/footnote-css.ts). A note stays
 * where it was written, hidden, so selectors keep matching it there; its call is written right after it
 * (FOOTNOTE_CALL, whose ::before is `::footnote-call`); its copy, its marker first (FOOTNOTE_MARKER, whose
 * ::before is `::footnote-marker`), is laid out in the footnote area of the page its call is printed on
 * (area.ts, drawn on the overlay pages), and plan.ts ends that page early enough to leave the area room.
 */
import { FOOTNOTE_CALL, FOOTNOTE_MARKER } from '../contract.js';
import { candidates, documentOrder, idFor } from '../dom.js';
import { inheritedStyle } from '../generated-content/running.js';
import type { Footnote, PageState, StyleRuleInfo } from '../state.js';

/**
 * WeasyPrint's user-agent rules for the call and the marker (css-gcpm-3 §2.2 gives the same call):
 * first in `<head>`, under any author rule. The call inherits from its note (it is the note's
 * pseudo-element in the spec), which castpress writes on the call element.
 */
const UA_RULES =
  `:where(${FOOTNOTE_CALL})::before{content:counter(footnote);vertical-align:baseline;font-size:100%;line-height:inherit;font-variant-position:super}` +
  `:where(${FOOTNOTE_MARKER})::before{content:counter(footnote) ". "}`;

function keyword<T extends string>(el: Element, prop: string, allowed: readonly T[], fallback: T): T {
  const v = getComputedStyle(el).getPropertyValue(prop).trim().toLowerCase();
  return (allowed as readonly string[]).includes(v) ? (v as T) : fallback;
}

export function prepareFootnotes(S: PageState, styleRules: StyleRuleInfo[]): void {
  const els = candidates(styleRules, '--fs-footnote').filter(
    (el) => getComputedStyle(el).getPropertyValue('--fs-footnote').trim() === 'footnote',
  );
  // Everything is read before anything is written: a write between reads lays the document out again.
  const found: Array<{
    el: HTMLElement;
    policy: Footnote['policy'];
    display: Footnote['display'];
    own: string;
    parent: string;
  }> = [];
  for (const el of els) {
    if (!el.isConnected || S.running.some((r) => r.el.contains(el)) || found.some((f) => f.el.contains(el))) continue;
    // A note without a box (display: none, or inside such an element) is no note, as in WeasyPrint.
    if (getComputedStyle(el).display === 'none' || !el.getClientRects().length) continue;
    found.push({
      el,
      policy: keyword(el, '--fs-footnote-policy', ['auto', 'line', 'block'] as const, 'auto'),
      display: keyword(el, '--fs-footnote-display', ['block', 'inline', 'compact'] as const, 'block'),
      own: inheritedStyle(el),
      parent: inheritedStyle(el.parentElement || document.body),
    });
  }
  for (const { el, policy, display, own, parent } of found) {
    const copy = el.cloneNode(true) as HTMLElement;
    for (const n of [copy, ...copy.querySelectorAll('[id]')]) n.removeAttribute('id');
    copy.style.setProperty('display', display === 'block' ? 'block' : 'inline', 'important');
    copy.style.setProperty('float', 'none', 'important');
    copy.insertBefore(document.createElement(FOOTNOTE_MARKER), copy.firstChild);
    const call = document.createElement(FOOTNOTE_CALL);
    call.style.cssText = own;
    (el.parentNode as Node).insertBefore(call, el.nextSibling);
    el.style.setProperty('display', 'none', 'important');
    S.footnotes.push({
      el,
      call,
      id: idFor(S, call, 'f'),
      html: copy.outerHTML,
      inherited: parent,
      policy,
      display,
      value: 0,
    });
  }
  if (!S.footnotes.length) return;
  const ua = document.createElement('style');
  ua.textContent = UA_RULES;
  document.head.insertBefore(ua, document.head.firstChild);
  S.footnotesPerPage = S.pageRules.some((r) =>
    r.decls.some(([n, v]) => n === 'counter-reset' && /(^|\s)footnote(\s|$)/.test(v)),
  );
  numberNotes(S, styleRules);
  for (const f of S.footnotes) setCallNumber(f, f.value);
  // The areas are drawn on the overlay pages; margin boxes stay Chromium's unless something else wants them.
  if (!S.overlay) {
    S.overlay = true;
    S.overlayOnly = new Set();
  }
}

/**
 * The footnote counter at each note: every note counts one, from 1; an element's `counter-reset` or
 * `counter-set` of `footnote` restarts it for the notes after it in document order (CSS scoping in short:
 * chapters and sections that reset it are siblings in the documents that do).
 */
function numberNotes(S: PageState, styleRules: StyleRuleInfo[]): void {
  const resets = new Map<Element, number>();
  for (const prop of ['counter-reset', 'counter-set'] as const) {
    for (const el of candidates(styleRules, prop, (v) => /footnote/.test(v))) {
      const m = /(?:^|\s)footnote(?:\s+(-?\d+))?(?:\s|$)/.exec(getComputedStyle(el).getPropertyValue(prop));
      if (m && el.getClientRects().length) resets.set(el, m[1] ? Number(m[1]) : 0);
    }
  }
  const events: Element[] = [...resets.keys(), ...S.footnotes.map((f) => f.call)].sort(documentOrder);
  let value = 0;
  let k = 0;
  for (const e of events) {
    const reset = resets.get(e);
    if (reset !== undefined) value = reset;
    else (S.footnotes[k++] as Footnote).value = ++value;
  }
}

/** The number the call shows (its ::before counts nothing: a reset on the call is its value). */
export function setCallNumber(f: Footnote, n: number): void {
  f.call.style.setProperty('counter-reset', 'footnote ' + n, 'important');
}
