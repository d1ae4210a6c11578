/**
 * Running elements (`position: running(x)`, renamed `--fs-running`): copied for the margin boxes and
 * taken out of the flow, and the counter values their copies start from.
 */
import { counterModel, type CounterValues } from './counters.js';
import { candidates, followingId, idFor } from '../dom.js';
import type { PageState, StyleRuleInfo } from '../state.js';
import { joinParts } from './string-values.js';
import { precedingId, startSlack } from './strings.js';
import { rootDirection } from '../page-context.js';

const INHERITED = [
  'font-family',
  'font-size',
  'font-style',
  'font-weight',
  'font-variant',
  'font-stretch',
  'line-height',
  'color',
  'letter-spacing',
  'word-spacing',
  'text-align',
  'text-transform',
  'text-indent',
  'white-space',
  'direction',
  'font-feature-settings',
  'font-kerning',
];

/** The inherited properties of `el` as a style attribute: what its copy elsewhere keeps of its place. */
export function inheritedStyle(el: Element): string {
  const cs = getComputedStyle(el);
  return INHERITED.map((p) => p + ':' + cs.getPropertyValue(p)).join(';');
}

export function prepareRunning(S: PageState, styleRules: StyleRuleInfo[]): void {
  // The root's style is up to date here (the page rules have just read it): the overlay's boxes need its
  // direction, which a read in buildOverlay, after layout's writes, would update the styles for.
  rootDirection(S);
  const els = candidates(styleRules, '--fs-running').filter((el) =>
    getComputedStyle(el).getPropertyValue('--fs-running').trim(),
  );
  // Everything read first, on one layout: taking an element out of the flow before reading the next
  // made Chromium lay the document out again for each (one layout per running element). Nothing read
  // here depends on another element being out of the flow (a nested one is skipped below).
  const found = els.map((el) => {
    const cs = getComputedStyle(el);
    const clone = el.cloneNode(true) as HTMLElement;
    for (const n of [clone, ...clone.querySelectorAll('[id]')]) n.removeAttribute('id');
    // Hidden in the flow (display: none, as documents do for engines without running elements), it still
    // runs: its copy is shown, and its place is where the next rendered element starts (as for named strings).
    const boxless = cs.display === 'none' || (el.getClientRects().length === 0 && cs.display !== 'contents');
    if (boxless) clone.style.setProperty('display', cs.display === 'none' ? 'block' : cs.display, 'important');
    return {
      el,
      name: cs.getPropertyValue('--fs-running').trim(),
      boxless,
      html: clone.outerHTML,
      inherited: inheritedStyle(el.parentElement || document.body),
      float: cs.float,
      rtl: cs.direction === 'rtl',
    };
  });
  for (const { el, name, boxless, html, inherited, float, rtl } of found) {
    if (!el.isConnected || S.running.some((r) => r.el.contains(el))) continue;
    // The place of a hidden one skips the running elements before it, already out of the flow.
    const id = boxless ? followingId(S, el) || precedingId(S, el) : idFor(S, el, 'r');
    if (!id) continue;
    S.running.push({ el, name, html, inherited, float, id, slack: 0 });
    if (boxless) continue;
    // Out of the flow but still rendered (not display:none): its counter-increment/-reset keep counting
    // for the content after it, and its static position gives its page: offsets (left: 1000px) would move
    // it off the page, where Chromium writes no destination for it. No style containment: that would
    // scope the counters to it.
    for (const [p, v] of [
      ['position', 'absolute'],
      ['visibility', 'hidden'],
      ['width', '0'],
      ['height', '0'],
      ['min-width', '0'],
      ['min-height', '0'],
      ['margin', '0'],
      ['padding', '0'],
      ['border-width', '0'],
      ['overflow', 'hidden'],
      ['contain', 'size layout paint'],
      ['pointer-events', 'none'],
      ['top', 'auto'],
      ['bottom', 'auto'],
      ['left', 'auto'],
      ['right', 'auto'],
      ['transform', 'none'],
      ['translate', 'none'],
    ] as const)
      el.style.setProperty(p, v, 'important');
    // Right to left, the empty box's static place is the content box's right edge, where Chromium writes
    // no destination for it (so it had no page): its horizontal place matters to nothing else.
    if (rtl) {
      el.style.setProperty('left', '0', 'important');
      el.style.setProperty('right', 'auto', 'important');
    }
  }
  // The `start` policy's room: measured once all are out of the flow (a running element is never
  // content that keeps another from starting the page).
  for (const r of S.running) r.slack = r.el.getClientRects().length ? startSlack(r.el) : Number.NEGATIVE_INFINITY;
  runningCounters(S);
}

/**
 * A running element shows in the margin boxes the counter values it had in the flow: the counters its
 * content displays (other than page/pages) are counted by the counter model (countCounters), and its
 * margin-box wrapper starts them at the values the element inherits there (nested instances as nested
 * wrappers, so counters() shows the whole chain), so the copy's own effects land on them.
 */
function runningCounters(S: PageState): void {
  for (const r of S.running) {
    for (const e of [r.el, ...r.el.querySelectorAll('*')]) {
      for (const pseudo of [null, '::before', '::after']) {
        const c = getComputedStyle(e, pseudo).content;
        if (c && c.includes('counter'))
          for (const m of c.matchAll(/counters?\(\s*([-\w]+)/g))
            if (m[1] !== 'page' && m[1] !== 'pages') S.runningCounterNames.add(m[1]);
      }
    }
  }
}

/**
 * One walk of the counter model for everything that shows counter values castpress must supply:
 * running elements' margin-box copies and target-counter()/target-counters() of counters other than
 * page. Documents with neither do not walk.
 */
export function countCounters(S: PageState, styleRules: StyleRuleInfo[]): void {
  const names = new Set([...S.runningCounterNames, ...S.targetCounterNames]);
  const wanted = new Set<Element>();
  if (S.runningCounterNames.size) for (const r of S.running) wanted.add(r.el);
  const counted = S.strings.filter((s) => s.parts.some((p) => typeof p !== 'string'));
  for (const s of counted) {
    wanted.add(s.el);
    for (const p of s.parts) if (typeof p !== 'string') names.add(p.name);
  }
  const parts = S.targets.flatMap((t) => t.parts.filter((p) => p.counterOf));
  for (const p of parts) if (p.counterOf) wanted.add(p.counterOf);
  if (wanted.size === 0) return;
  let model: Map<Element, CounterValues>;
  // The walk recurses along the tree: a script-built tree deeper than the JS stack leaves the values empty.
  try {
    model = counterModel(styleRules, names, wanted);
  } catch (e) {
    if (!(e instanceof RangeError)) throw e;
    model = new Map();
  }
  // Named strings show the counters as they are on their element (a display:none one has none: 0).
  for (const s of counted) s.value = joinParts(s.parts, model.get(s.el)?.at ?? null);
  for (const r of S.running) {
    const m = model.get(r.el);
    if (!m) continue;
    const levels: string[] = [];
    for (const n of S.runningCounterNames)
      (m.entry?.[n] || []).forEach((v, k) => {
        levels[k] = (levels[k] ? levels[k] + ' ' : '') + n + ' ' + v;
      });
    r.counterLevels = levels;
  }
  for (const p of parts) {
    const m = p.counterOf ? model.get(p.counterOf) : undefined;
    // A counter the target does not have is 0 there, as counter() would show it.
    const stack = m ? m.at[p.name ?? ''] || [0] : null;
    p.values = stack ? (p.all ? stack : stack.slice(-1)) : null;
    delete p.counterOf;
  }
}

/**
 * Running elements were copied before prepareTargets marked pseudo-elements that use target-*(),
 * string() or leader() (data-castpress-t): the copies get the same marks, so the same rules apply to them.
 */
export function syncRunningCopies(S: PageState): void {
  for (const r of S.running) {
    const marked = [r.el, ...r.el.querySelectorAll('*')].map((e) => e.getAttribute('data-castpress-t'));
    if (marked.every((k) => k === null)) continue;
    const tpl = document.createElement('template');
    tpl.innerHTML = r.html;
    const copy = tpl.content.firstElementChild;
    if (!copy) continue;
    [copy, ...copy.querySelectorAll('*')].forEach((e, k) => {
      const mark = marked[k];
      if (mark !== null && mark !== undefined) e.setAttribute('data-castpress-t', mark);
    });
    r.html = copy.outerHTML;
  }
}
