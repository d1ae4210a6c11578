/**
 * target-counter(), target-counters(), target-text(), leader() and string() in ::before/::after
 * (renamed to sentinel strings by css-rewrite.ts): each such pseudo-element gets a rule of its own in
 * a castpress style sheet, rewritten per layout with the target's page (a counter reset on the
 * pseudo-element, so counter styles still apply).
 */
import { FUNCTION_SENTINEL, STRING_SENTINEL, type LayoutState } from '../contract.js';
import { cssString, splitArgs, splitSentinels, unescapeCss } from '../css-text.js';
import { beforeHead, candidates, documentOrder, helper, idFor } from '../dom.js';
import { resolvePage } from '../page-cascade.js';
import { withFollowingSkipped } from './leader-layout.js';
import { contentOf } from './strings.js';
import type { PageState, StyleRuleInfo, TargetPart, TargetRule } from '../state.js';

/** The element a target-*() argument points at: attr(href), url(#x) or "#x"; only same-document fragments. */
function targetOf(el: Element, arg: string): HTMLElement | null {
  const text = arg.trim();
  let ref: string | null = null;
  let m;
  if ((m = /^attr\(\s*([-\w]+)/.exec(text))) ref = el.getAttribute(m[1]);
  else if ((m = /^url\(\s*'?([^')]*)'?\s*\)/.exec(text))) ref = m[1];
  else if ((m = /^'([^']*)'/.exec(text))) ref = m[1];
  if (!ref || ref.indexOf('#') < 0) return null;
  let frag = ref.slice(ref.indexOf('#') + 1);
  try {
    frag = decodeURIComponent(frag);
  } catch {
    /* kept as written */
  }
  return frag ? document.getElementById(frag) : null;
}

/** One function sentinel of a content value → its part. */
function functionPart(S: PageState, el: Element, name: string, rawArgs: string): TargetPart {
  const args = splitArgs(rawArgs);
  if (name === 'string') {
    // string() in the document: the named string's value at this element (last assignment up to it).
    let value = '';
    for (const a of S.strings)
      if (
        a.name === args[0] &&
        (a.el === el || a.el.contains(el) || a.el.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING)
      )
        value = a.value;
    return { raw: cssString(value), string: args[0] || '' };
  }
  if (name === 'target-text') {
    const t = targetOf(el, args[0] || '');
    return { raw: cssString(t ? contentOf(t, (args[1] || 'content').replace(/^content$/, 'text')) : '') };
  }
  if (name === 'leader') {
    const kind = (args[0] || 'dotted').replace(/^'|'$/g, '');
    return { leader: kind === 'dotted' ? '.' : kind === 'solid' ? '_' : kind === 'space' ? ' ' : kind };
  }
  const t = targetOf(el, args[0] || '');
  const counter = (args[1] || '').trim();
  const style = name === 'target-counters' ? args[3] : args[2];
  if (!t || !counter) return { raw: '""' };
  if (counter === 'pages') return { pages: true, style: (style || 'decimal').trim() };
  if (counter !== 'page') {
    // Its value at the target comes from the counter model (countCounters); target-counters() joins all levels.
    const sep = name === 'target-counters' ? /^'([^']*)'$/.exec((args[2] || '').trim()) : null;
    S.targetCounterNames.add(counter);
    return {
      counterOf: t,
      name: counter,
      all: name === 'target-counters',
      sep: sep ? cssString(sep[1]) : '""',
      style: (style || 'decimal').trim(),
    };
  }
  return { target: idFor(S, t, 'g'), style: (style || 'decimal').trim() };
}

export function prepareTargets(S: PageState, styleRules: StyleRuleInfo[]): void {
  const els = candidates(
    styleRules,
    'content',
    (v, r) =>
      (v.includes(FUNCTION_SENTINEL) || v.includes(STRING_SENTINEL)) && /::?(before|after)\b/.test(r.selectorText),
  );
  for (const el of els) {
    for (const pseudo of ['::before', '::after'] as const) {
      const ps = getComputedStyle(el, pseudo);
      const content = ps.content;
      if (!content || !(content.includes(FUNCTION_SENTINEL) || content.includes(STRING_SENTINEL))) continue;
      const parts: TargetPart[] = [];
      const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|([-\w]+\((?:[^()]|\([^()]*\))*\))|([-\w]+)/g;
      let m;
      while ((m = re.exec(content))) {
        if (m[1] !== undefined || m[2] !== undefined) {
          // Computed content merges neighbouring strings: sentinels may sit anywhere inside one.
          for (const piece of splitSentinels(unescapeCss(m[1] !== undefined ? m[1] : m[2]))) {
            parts.push(
              typeof piece === 'string' ? { raw: cssString(piece) } : functionPart(S, el, piece.name, piece.args),
            );
          }
        } else parts.push({ raw: m[0] });
      }
      let key = el.getAttribute('data-castpress-t');
      if (!key) {
        key = String(S.targets.length);
        el.setAttribute('data-castpress-t', key);
      }
      // A leader's length depends on the content width of the page its element lands on (targetRules).
      const leaderId =
        parts.some((p) => p.leader !== undefined) && !S.running.some((r) => r.el.contains(el))
          ? idFor(S, el, 'l')
          : null;
      // The private counters are reset on the pseudo-element: its own counter-reset must stay.
      const baseReset = ps.counterReset && ps.counterReset !== 'none' ? ps.counterReset : '';
      S.targets.push({ el, pseudo, key, parts, leaderId, baseReset });
    }
  }
  if (S.targets.some((t) => t.parts.some((p) => p.leader !== undefined)))
    S.reversedCounters = candidates(styleRules, 'counter-reset', (v) => v.includes('reversed(')).length > 0;
}

/**
 * Ids of leader elements whose page must be verified after printing: only when the document's pages can
 * differ in content width (named pages, :first/:left/:right sizes or margins); otherwise every page has the
 * same width and the page a leader lands on does not change its length.
 */
export function leaderTargets(S: PageState): string[] {
  const ids = S.targets.map((t) => t.leaderId).filter((id): id is string => id !== null);
  if (ids.length === 0) return [];
  const widths = new Set<number>();
  for (const name of ['', ...S.named.map((n) => n.name)])
    for (let i = 0; i < 4; i++) {
      const P = resolvePage(S, i, name);
      widths.add(Math.round(P.w - P.left - P.right));
    }
  return widths.size > 1 ? ids : [];
}

/** The printed content width (CSS px) of the page a marker is on in state, or null when unknown. */
function contentWidthAt(S: PageState, id: string | null, state: LayoutState): number | null {
  const page = id ? state.pages[id] : undefined;
  const size = page === undefined ? undefined : state.sizes[page];
  if (page === undefined || !size) return null;
  const P = resolvePage(S, page, state.names[page] || '');
  return size[0] / 0.75 - P.left - P.right;
}

/**
 * Runs measure() with the root element laid out at a page's content width (less its own margins, padding
 * and border): the screen layout is at the request's page width, not that of a document @page.
 */
export function atContentWidth<T>(width: number, measure: () => T): T {
  const html = document.documentElement;
  const old = [html.style.getPropertyValue('width'), html.style.getPropertyPriority('width')] as const;
  const cs = getComputedStyle(html);
  const sum = (props: string[]) => props.reduce((n, p) => n + (parseFloat(cs.getPropertyValue(p)) || 0), 0);
  const extra =
    sum(['margin-left', 'margin-right']) +
    (cs.boxSizing === 'border-box'
      ? 0
      : sum(['padding-left', 'padding-right', 'border-left-width', 'border-right-width']));
  html.style.setProperty('width', Math.max(1, width - extra) + 'px', 'important');
  try {
    return measure();
  } finally {
    if (old[0]) html.style.setProperty('width', old[0], old[1]);
    else html.style.removeProperty('width');
  }
}

/**
 * leader(): the pseudo-element becomes an inline flex box as wide as the rest of its line, holding the
 * text before the leader, a long run of the leader string and the text after it, pushed to the end
 * (justify-content: flex-end) and clipped at the start: the leader fills exactly the free space and
 * the text after it ends at the line's end. The free space is measured on the screen layout (same
 * width as the page's content box) with a mark put where the pseudo-element starts, then removed.
 */
function blockRight(el: Element): number {
  for (let b: Element | null = el; b && b !== document.documentElement; b = b.parentElement) {
    const cs = getComputedStyle(b);
    if (cs.display.startsWith('inline') || cs.display === 'contents') continue;
    return b.getBoundingClientRect().right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
  }
  return document.documentElement.clientWidth;
}

/** Leader strings measured per font: the advance of one is the width of this many over this many. */
const LEADER_SAMPLE = 20;

interface WrittenRule {
  t: TargetRule;
  sel: string;
  reset: string;
  pre: string[];
  post: string[];
  leader: string | null;
  content: string;
}

/** provisional: rules for the first guess only (the screen layout then has numbers, not sentinels); leaders not measured. */
export function targetRules(S: PageState, state: LayoutState, provisional = false): void {
  let n = 0;
  const rules = S.targets.map((t): WrittenRule => {
    const resets: string[] = [];
    const pre: string[] = [],
      post: string[] = [];
    let leader: string | null = null;
    for (const p of t.parts) {
      let token: string;
      if (p.leader !== undefined) {
        if (leader === null) leader = p.leader;
        continue;
      }
      if (p.raw !== undefined) token = p.raw;
      else if (p.pages) {
        const name = '__fs_tc' + n++;
        resets.push(name + ' ' + state.total);
        token = 'counter(' + name + ', ' + p.style + ')';
      } else if (p.values !== undefined) {
        // A counter value at the target: private counters reset on the pseudo-element, so counter styles apply.
        token = !p.values
          ? '""'
          : p.values
              .map((v) => {
                const name = '__fs_tc' + n++;
                resets.push(name + ' ' + v);
                return 'counter(' + name + ', ' + p.style + ')';
              })
              .join(' ' + p.sep + ' ');
      } else {
        const name = '__fs_tc' + n++;
        const page = state.pages[p.target ?? ''];
        if (page === undefined) token = '""';
        else {
          resets.push(name + ' ' + (page + 1));
          token = 'counter(' + name + ', ' + p.style + ')';
        }
      }
      (leader === null ? pre : post).push(token);
    }
    const sel = '[data-castpress-t="' + t.key + '"]' + t.pseudo;
    const reset = resets.length ? 'counter-reset:' + [t.baseReset, ...resets].join(' ').trim() + '!important;' : '';
    return { t, sel, reset, pre, post, leader, content: [...pre, ...post].join(' ') || '""' };
  });
  let st = document.getElementById('__fs_targets');
  if (!st) {
    st = document.createElement('style');
    st.id = '__fs_targets';
    document.head.appendChild(st);
  }
  const sheet = st;
  const write = (leaderCss: Array<string | null> | null) => {
    sheet.textContent = rules
      .map(
        (r, k) =>
          r.sel +
          '{' +
          (r.leader !== null && leaderCss ? leaderCss[k] : 'content:' + r.content + '!important;') +
          r.reset +
          '}',
      )
      .join('\n');
  };
  write(null);
  const leaders = rules.filter((r) => r.leader !== null && r.leader !== '');
  if (leaders.length === 0 || provisional) return;
  const marks = leaders.map((r) => {
    const m = helper(
      'mark',
      'display:inline!important;position:static!important;margin:0!important;padding:0!important;border:0!important',
    );
    if (r.t.pseudo === '::before') r.t.el.insertBefore(m, r.t.el.firstChild);
    else r.t.el.appendChild(m);
    return m;
  });
  // Free space at the content width of the page each leader is on: grouped by width, one relayout per width.
  // The screen's width is the one prepare read (the viewport's: Playwright's headless Chromium shows no
  // scrollbar); reading clientWidth here would lay the document out at it, for nothing when every leader
  // is on a page of another width.
  const screen = S.layoutWidth;
  const groups = new Map<string, number[]>();
  leaders.forEach((r, k) => {
    const w = contentWidthAt(S, r.t.leaderId, state);
    const key = w === null || Math.abs(w - screen) < 0.5 ? '' : String(w);
    groups.set(key, [...(groups.get(key) || []), k]);
  });
  // One run of each leader string in its pseudo-element's font, measured in the same layout as the marks:
  // the fill is as long as its free space needs (a fixed 2,000 characters printed ~2,000 glyphs per line).
  const runs = new Map<string, HTMLElement>();
  const runOf = leaders.map((r) => {
    const cs = getComputedStyle(r.t.el, r.t.pseudo);
    const font = [cs.fontStyle, cs.fontWeight, cs.fontSize, cs.fontFamily, cs.letterSpacing, cs.fontStretch].join('|');
    const key = font + '|' + r.leader;
    if (!runs.has(key)) {
      const run = helper(
        'mark',
        'position:absolute!important;visibility:hidden!important;white-space:pre!important;display:inline-block!important;' +
          'font-style:' +
          cs.fontStyle +
          ';font-weight:' +
          cs.fontWeight +
          ';font-size:' +
          cs.fontSize +
          ';font-family:' +
          cs.fontFamily +
          ';letter-spacing:' +
          cs.letterSpacing +
          ';font-stretch:' +
          cs.fontStretch,
      );
      run.textContent = (r.leader as string).repeat(LEADER_SAMPLE);
      beforeHead(run);
      runs.set(key, run);
    }
    return key;
  });
  // A run is absolute, its width its one line's: read in the first group's layout, whatever its width.
  const advance = new Map<string, number>();
  const widths: number[] = [];
  const measure = (ks: number[]) => {
    if (advance.size === 0)
      for (const [key, run] of runs) advance.set(key, run.getBoundingClientRect().width / LEADER_SAMPLE);
    for (const k of ks)
      widths[k] = Math.max(
        0,
        Math.floor(
          blockRight((leaders[k] as WrittenRule).t.el) - (marks[k] as HTMLElement).getBoundingClientRect().left - 1,
        ),
      );
  };
  const atScreen = groups.get('');
  if (atScreen) measure(atScreen);
  groups.delete('');
  if (groups.size) {
    // Another width lays the document out again: only as far as the last leader.
    const last = leaders.reduce(
      (a, r) => (documentOrder(a, r.t.el) < 0 ? r.t.el : a),
      (leaders[0] as WrittenRule).t.el,
    );
    withFollowingSkipped(last, S.reversedCounters, () => {
      for (const [key, ks] of groups) atContentWidth(Number(key), () => measure(ks));
    });
  }
  for (const m of [...marks, ...runs.values()]) m.remove();
  const css = rules.map((r) => {
    const k = leaders.indexOf(r);
    if (k < 0 || r.leader === null) return null;
    const each = advance.get(runOf[k] as string) ?? 0;
    // A fifth more and two more than the space takes: what shows is the run's end, clipped at the start.
    const most = Math.ceil(2000 / r.leader.length);
    const count = each > 0.1 ? Math.min(most, Math.ceil(((widths[k] as number) * 1.2) / each) + 2) : most;
    const fill = cssString(r.leader.repeat(count));
    return (
      'content:' +
      [...r.pre, fill, ...r.post].join(' ') +
      '!important;display:inline-flex!important;justify-content:flex-end!important;' +
      'overflow:hidden!important;white-space:pre!important;width:' +
      widths[k] +
      'px!important;max-width:none!important;vertical-align:baseline!important;float:none!important;'
    );
  });
  write(css);
}
