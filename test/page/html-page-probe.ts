/**
 * Page code for test/html-page-code.test.ts: bundled like the real entry (scripts/generate-page-code.mjs
 * `bundlePage`), it puts the in-page functions on `window.__castpressProbe` with JSON arguments and
 * results, each call on a fresh state.
 */
import type { LayoutState } from '../../src/html/in-page/contract.js';
import { counterModel } from '../../src/html/in-page/generated-content/counters.js';
import {
  contentHasText,
  cssString,
  overlayDraws,
  parseSelectors,
  splitSentinels,
  splitTop,
  tokens,
  unescapeCss,
} from '../../src/html/in-page/css-text.js';
import { estimate, prepareBreaks, prepareNamed, side } from '../../src/html/in-page/flow.js';
import { describeControl } from '../../src/html/in-page/forms.js';
import { choose } from '../../src/html/in-page/overlay/index.js';
import { resolvePage } from '../../src/html/in-page/page-cascade.js';
import { collectRules, pageSize, readPageRules } from '../../src/html/in-page/page-rules.js';
import { newState } from '../../src/html/in-page/state.js';
import { contentOf, stringValue } from '../../src/html/in-page/generated-content/strings.js';

const probe = {
  splitTop,
  splitSentinels,
  tokens,
  overlayDraws,
  contentHasText,
  parseSelectors,
  unescapeCss,
  cssString,
  side,
  pageSizes: (values: string[]) => {
    const S = newState();
    return values.map((v) => pageSize(S, v));
  },
  /** Each [index, name]'s resolved page from the document's @page rules. */
  resolvePages(pages: Array<[number, string]>) {
    const S = newState();
    readPageRules(S, collectRules().page);
    return {
      overlay: S.overlay,
      overlayOnly: S.overlayOnly ? [...S.overlayOnly].sort() : null,
      usesStart: S.usesStart,
      pages: pages.map(([i, name]) => resolvePage(S, i, name)),
    };
  },
  /** counterModel for the elements `selector` matches: their values, null for those not in the model. */
  counters(selector: string, names: string[]) {
    const els = [...document.querySelectorAll(selector)];
    const model = counterModel(collectRules().style, new Set(names), new Set(els));
    return els.map((el) => model.get(el) ?? null);
  },
  choose: (items: Array<{ id: string; slack: number }>, policy: string, i: number, state: LayoutState) =>
    choose(items, policy, i, state)?.id ?? null,
  describe: (selector: string) => {
    const el = document.querySelector(selector);
    return el ? describeControl(el, 'probe') : null;
  },
  strings: (selector: string, value: string, which: string) => {
    const el = document.querySelector(selector) as Element;
    return { value: stringValue(el, value), content: contentOf(el, which) };
  },
  /** The first guess for a document whose elements with an id are markers. */
  guess() {
    const S = newState();
    const { style } = collectRules();
    prepareNamed(S, style);
    prepareBreaks(S, style);
    for (const el of document.querySelectorAll('body [id]')) S.markers.push(el.id);
    const g = estimate(S);
    return { total: g.total, pages: g.pages, names: g.names };
  },
};

(window as unknown as { __castpressProbe: typeof probe }).__castpressProbe = probe;
