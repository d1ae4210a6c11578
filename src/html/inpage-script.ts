/**
 * Code that runs inside the document (through CDP, so it works with scripts
 * disabled). It is kept as plain JavaScript source rather than a TS function:
 * transpilers inject helpers (`__name`, ...) into functions, which do not exist
 * in the page. Entry points, called as `__castpress.prepare(args)` etc.:
 *
 * - prepare: reads the CSSOM once (page rules, margin boxes, running elements,
 *   page-counter elements, named pages, unpaginated tables, form controls),
 *   marks the elements with ids that hidden links point at (so Chromium writes
 *   a named destination for each: their page and position), guesses the page
 *   of each from the screen layout, and lays out for that guess.
 * - layout(state): writes the page numbers of `state` into the document
 *   (counter-reset on counter elements) and rebuilds the overlay pages that
 *   carry the margin boxes, one per body page, appended after the body.
 */
import { COUNTERS_SOURCE } from './inpage-counters.js';

export const INPAGE_SOURCE = String.raw`
(() => {
  // setContent rewrites the document but keeps the Window: state must be rebuilt per job.
  const SENTINEL = '__fs_element__';
  const STRING_SENTINEL = '__fs_string__';
  const FN_SENTINEL = '__fs_fn__';
  const NAMED_SIZES = { a5: [148, 210, 'mm'], a4: [210, 297, 'mm'], a3: [297, 420, 'mm'], b5: [176, 250, 'mm'], b4: [250, 353, 'mm'],
    'jis-b5': [182, 257, 'mm'], 'jis-b4': [257, 364, 'mm'], letter: [8.5, 11, 'in'], legal: [8.5, 14, 'in'], ledger: [11, 17, 'in'] };
  const UNIT_PX = { mm: 96 / 25.4, in: 96, cm: 96 / 2.54, pt: 96 / 72, pc: 16, px: 1 };
  const INHERITED = ['font-family', 'font-size', 'font-style', 'font-weight', 'font-variant', 'font-stretch', 'line-height', 'color',
    'letter-spacing', 'word-spacing', 'text-align', 'text-transform', 'text-indent', 'white-space', 'direction', 'font-feature-settings', 'font-kerning'];
  const TEXT_TYPES = new Set(['text', 'password', 'email', 'number', 'tel', 'url', 'search', 'date', 'time', 'datetime-local', 'month', 'week']);
  let uid = 0;
  const newId = (p) => '__fs_' + p + (uid++);
  const S = { markers: [], running: [], strings: [], targets: [], bookmarks: [], breaks: [], slots: 0, counters: [], named: [], sides: [], forms: [], pageRules: [], overlay: false, probe: null,
    sheet: null, defaultSize: null, runningCounterNames: new Set(), targetCounterNames: new Set() };
${COUNTERS_SOURCE}

  function idFor(el, prefix) {
    if (!el.id || document.querySelectorAll('#' + CSS.escape(el.id)).length !== 1) el.id = newId(prefix);
    S.markers.push(el.id);
    return el.id;
  }
  /**
   * Helper elements are custom elements ('castpress-*': no author type selector matches them) and never
   * go inside <body>: they sit in <html> before <head> (rendered ones: a box after <body> would start a
   * page after a trailing break-after) or after <body> (display:none ones), so :last-child,
   * :last-of-type and sibling combinators in the author's CSS see the author's elements only.
   */
  function helper(tag, css) {
    const el = document.createElement('castpress-' + tag);
    el.style.cssText = css;
    return el;
  }
  function beforeHead(el) { document.documentElement.insertBefore(el, document.documentElement.firstChild); return el; }
  /**
   * Where an element's content ends is where the next rendered element of <body> after it starts
   * (instead of a marker appended inside it, which author :last-child rules would see). Null when
   * nothing follows: the element then runs to the end of the document.
   */
  function followingId(el) {
    const after = (node) => { for (let up = node; up && up !== document.body; up = up.parentElement) if (up.nextElementSibling) return up.nextElementSibling; return null; };
    for (let n = after(el); n; ) {
      const cs = getComputedStyle(n);
      if (n.hasAttribute('data-fs-blank') || cs.display === 'none' || cs.position === 'absolute' || cs.position === 'fixed' || n.getClientRects().length === 0) { n = after(n); continue; }
      // Chromium writes no destination for a box left of the content edge (negative margins): try inside it.
      if (n.getBoundingClientRect().left < 0) { n = n.firstElementChild || after(n); continue; }
      return idFor(n, 'x');
    }
    return null;
  }
  /**
   * An id whose destination gives el's page: el itself, or — when el reaches left of the content box,
   * where Chromium writes no destination — its first descendant that does not, else the next element.
   */
  function anchorId(el, prefix) {
    const ok = (n) => n.getBoundingClientRect().left >= -0.5 && n.getClientRects().length > 0;
    if (ok(el)) return idFor(el, prefix);
    for (const d of el.querySelectorAll('*')) if (ok(d) && getComputedStyle(d).position !== 'absolute') return idFor(d, prefix);
    return followingId(el);
  }
  function collectRules() {
    const style = [], page = [];
    // Nested rules serialise relative to their parent ('&::before'): each style rule gets its full selector.
    const walk = (rules, parent) => {
      for (const r of rules) {
        if (r instanceof CSSPageRule) page.push(r);
        else if (r instanceof CSSStyleRule) {
          const own = r.selectorText;
          const full = !parent ? own : splitArgs(own).map((one) => (one.includes('&') ? one.replace(/&/g, ':is(' + parent + ')') : ':is(' + parent + ') ' + one)).join(', ');
          style.push({ style: r.style, selectorText: full });
          if (r.cssRules && r.cssRules.length) walk(r.cssRules, full);
        }
        else if (r instanceof CSSMediaRule) { if (matchMedia(r.media.mediaText || 'all').matches) walk(r.cssRules, parent); }
        else if (r instanceof CSSSupportsRule) { if (CSS.supports(r.conditionText)) walk(r.cssRules, parent); }
        else if (r instanceof CSSImportRule) { try { if (r.styleSheet) walk(r.styleSheet.cssRules, parent); } catch (e) {} }
        else if (r.cssRules) walk(r.cssRules, parent);
      }
    };
    for (const sheet of document.styleSheets) {
      if (sheet.disabled) continue;
      if (sheet.media && sheet.media.length && !matchMedia(sheet.media.mediaText).matches) continue;
      let rules; try { rules = sheet.cssRules; } catch (e) { continue; }
      walk(rules, '');
    }
    return { style, page };
  }
  function select(selector) { try { return [...document.querySelectorAll(selector)]; } catch (e) { return []; } }
  function candidates(styleRules, prop, test) {
    const set = new Set();
    for (const r of styleRules) {
      const v = r.style.getPropertyValue(prop);
      if (v && (!test || test(v, r))) for (const el of select(r.selectorText.replace(/::?(before|after|marker)\b/g, ''))) set.add(el);
    }
    for (const el of document.querySelectorAll('[style]')) if (el.style.getPropertyValue(prop)) set.add(el);
    return [...set].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }
  function px(value, basis) {
    value = String(value || '').trim();
    if (!value || value === 'auto') return 0;
    if (value.endsWith('%')) return (parseFloat(value) / 100) * basis;
    const m = /^(-?[\d.]+)(mm|in|cm|pt|pc|px)$/i.exec(value);
    if (m) return parseFloat(m[1]) * UNIT_PX[m[2].toLowerCase()];
    if (!S.probe) S.probe = beforeHead(helper('probe', 'display:block!important;position:absolute!important;visibility:hidden!important;font-size:medium!important;height:0;left:0;top:0;padding:0!important;border:0!important;box-sizing:content-box!important;min-width:0!important;max-width:none!important'));
    S.probe.style.width = value;
    return S.probe.getBoundingClientRect().width;
  }
  function pageSize(value) {
    const tokens = String(value || '').trim().toLowerCase().split(/\s+/).filter(Boolean);
    let [w, h] = S.defaultSize || [816, 1056];
    let orient = '';
    const lengths = [];
    for (const t of tokens) {
      if (NAMED_SIZES[t]) { const [a, b, u] = NAMED_SIZES[t]; w = a * UNIT_PX[u]; h = b * UNIT_PX[u]; }
      else if (t === 'landscape' || t === 'portrait') orient = t;
      else if (t !== 'auto') lengths.push(px(t, 0));
    }
    if (lengths.length === 1) { w = h = lengths[0]; }
    if (lengths.length >= 2) { w = lengths[0]; h = lengths[1]; }
    if ((orient === 'landscape' && w < h) || (orient === 'portrait' && w > h)) [w, h] = [h, w];
    return [w, h];
  }
  function parseSelectors(text) {
    return String(text || '').split(',').map((s) => s.trim()).map((s) => {
      const m = /^([-\w]*)((?::[-\w]+)*)$/.exec(s);
      if (!m) return null;
      const pseudos = m[2] ? m[2].slice(1).split(':').map((p) => p.toLowerCase()) : [];
      let spec = m[1] ? 100 : 0;
      for (const p of pseudos) spec += p === 'first' || p === 'blank' ? 10 : 1;
      return { name: m[1], pseudos, spec };
    }).filter(Boolean);
  }
  function declarations(style) {
    const out = [];
    let pending = false;
    for (let k = 0; k < style.length; k++) {
      const name = style[k];
      const value = style.getPropertyValue(name);
      // The longhands of a shorthand holding var() read as '' (pending substitution): the shorthand is taken below.
      if (value === '') { pending = true; continue; }
      out.push([name, value, style.getPropertyPriority(name) === 'important']);
    }
    if (pending) {
      const have = new Set(out.map(([n]) => n));
      for (const d of splitTop(style.cssText, ';')) {
        const m = /^\s*([-\w]+)\s*:\s*([\s\S]*?)\s*(!important)?\s*$/.exec(d);
        if (m && !have.has(m[1]) && /var\(/.test(m[2])) out.push([m[1], m[2], !!m[3]]);
      }
    }
    return out;
  }
  /**
   * The request's page is the "UA default" of css-page-3: \`size: auto | landscape | portrait\` keep its size
   * (Chromium would turn them into Letter, so the ticket sample printed on Letter landscape instead of A4).
   */
  function defaultSizes(pageRules) {
    const own = document.getElementById('__fs_defaults');
    let rules = [];
    try { rules = own && own.sheet ? [...own.sheet.cssRules] : []; } catch (e) {}
    const options = rules.find((r) => r instanceof CSSPageRule && !r.selectorText);
    if (!options || !options.style.getPropertyValue('size')) return;
    S.defaultSize = pageSize(options.style.getPropertyValue('size'));
    const [w, h] = S.defaultSize;
    for (const r of pageRules) {
      const v = r.style.getPropertyValue('size').trim().toLowerCase();
      if (v !== 'auto' && v !== 'landscape' && v !== 'portrait') continue;
      const [a, b] = v === 'landscape' ? [Math.max(w, h), Math.min(w, h)] : v === 'portrait' ? [Math.min(w, h), Math.max(w, h)] : [w, h];
      r.style.setProperty('size', a + 'px ' + b + 'px', r.style.getPropertyPriority('size'));
    }
  }
  function readPageRules(pageRules) {
    let order = 0;
    for (const r of pageRules) {
      const boxes = {};
      for (const m of r.cssRules || []) if (m.name) boxes[m.name] = declarations(m.style);
      S.pageRules.push({ selectors: parseSelectors(r.selectorText), order: order++, decls: declarations(r.style), boxes });
    }
    const contents = S.pageRules.flatMap((r) => Object.values(r.boxes).flatMap((d) => d.filter(([n]) => n === 'content').map(([, v]) => v)));
    S.usesStart = contents.some((v) => /__fs_(element|string)__\(?[-\w]+\|start/.test(v));
    if (contents.some((v) => v.includes(SENTINEL) || v.includes(STRING_SENTINEL))) switchToOverlay(pageRules);
  }
  /** Margin boxes are drawn by the overlay pages, Chromium's own are switched off. */
  function switchToOverlay(pageRules) {
    S.overlay = true;
    for (const r of pageRules) for (const m of r.cssRules || []) if (m.style) m.style.setProperty('content', 'none', 'important');
  }
  /** css-page-3 cascade for page index i with page name; later rules win ties, !important wins over all. */
  function resolvePage(i, name) {
    const matching = [];
    for (const r of S.pageRules) {
      let best = -1;
      for (const s of r.selectors) {
        if (s.name && s.name !== name) continue;
        if (!s.pseudos.every((p) => (p === 'first' ? i === 0 : p === 'left' ? i % 2 === 1 : p === 'right' ? i % 2 === 0 : p === 'blank' ? name === '__fs_blank' : false))) continue;
        best = Math.max(best, s.spec);
      }
      if (best >= 0) matching.push({ r, spec: best });
    }
    const win = (map, [n, v, imp], spec, order) => {
      const cur = map[n];
      if (!cur || imp > cur.imp || (imp === cur.imp && (spec > cur.spec || (spec === cur.spec && order >= cur.order)))) map[n] = { v, imp, spec, order };
    };
    const page = {}, boxes = {};
    for (const { r, spec } of matching) {
      for (const d of r.decls) win(page, d, spec, r.order);
      for (const [box, decls] of Object.entries(r.boxes)) { boxes[box] = boxes[box] || {}; for (const d of decls) win(boxes[box], d, spec, r.order); }
    }
    const [w, h] = pageSize(page.size && page.size.v);
    const m = (side) => (page['margin-' + side] ? px(page['margin-' + side].v, side === 'top' || side === 'bottom' ? h : w) : 0);
    const flat = {};
    for (const [box, decls] of Object.entries(boxes)) { flat[box] = {}; for (const [n, d] of Object.entries(decls)) flat[box][n] = d.v; }
    // bleed and marks arrive renamed (css-rewrite.ts): quotes: "__fs_bleed__" "3mm", content: "__fs_marks__crop cross".
    const bleedDecl = page.quotes && /__fs_bleed__"\s*"([^"]*)"/.exec(page.quotes.v);
    const bleed = bleedDecl ? (bleedDecl[1].trim().toLowerCase() === 'auto' ? 'auto' : Math.max(0, px(bleedDecl[1], 0))) : 'auto';
    const marksDecl = page.content && /__fs_marks__([^"]*)"/.exec(page.content.v);
    const marks = marksDecl ? marksDecl[1].toLowerCase().split(/\s+/) : [];
    return { w, h, top: m('top'), right: m('right'), bottom: m('bottom'), left: m('left'), boxes: flat, bleed, crop: marks.includes('crop'), cross: marks.includes('cross') };
  }
  /**
   * The printed sheet, when it is larger than the page (README "Sheets"): a bleed around every page, and
   * room on the right for content wider than the page area, which would otherwise make Chromium shrink
   * every page (it scales all pages by the largest right overflow of any page area). Every page rule's
   * size grows by 2 × bleed + extra and its margins by the bleed; the root element gets the extra as
   * right margin while printing, so the content keeps its width; render.ts crops the extra off and sets
   * the trim and bleed boxes.
   */
  function prepareSheet(pageRules) {
    const first = resolvePage(0, '');
    // Whole px: Chromium snaps the content origin to whole px, so a fractional bleed would move the content by a fraction against the trim box.
    const bleed = Math.round(first.bleed === 'auto' ? (first.crop || first.cross ? 8 : 0) : first.bleed);
    const root = document.documentElement;
    const over = getComputedStyle(root).direction === 'rtl' ? 0 : root.scrollWidth - root.clientWidth;
    // The screen layout is only close to the print's (its width is the default page's): a tenth more, then render.ts checks.
    const extra = over > 0.5 ? Math.ceil(over + root.clientWidth * 0.1) : 0;
    if (!(bleed > 0) && !extra) return;
    const rules = pageRules.map((r) => {
      const size = r.style.getPropertyValue('size');
      const own = size ? pageSize(size) : null;
      const [w, h] = own || [first.w, first.h];
      const margins = {};
      for (const side of ['top', 'right', 'bottom', 'left']) {
        const v = r.style.getPropertyValue('margin-' + side);
        if (v) margins[side] = [px(v, side === 'top' || side === 'bottom' ? h : w), r.style.getPropertyPriority('margin-' + side)];
      }
      return { rule: r, size: own, sizePriority: r.style.getPropertyPriority('size'), margins };
    });
    const cs = getComputedStyle(root);
    S.sheet = { bleed, extra, crop: first.crop, cross: first.cross, rules, area: first.w - first.left - first.right,
      rootMargin: [root.style.getPropertyValue('margin-right'), root.style.getPropertyPriority('margin-right'), parseFloat(cs.marginRight) || 0] };
    writeSheetRules();
    // Native margin boxes would be placed on the larger sheet: the overlay lays them out on the page itself.
    if (!S.overlay && S.pageRules.some((r) => Object.values(r.boxes).some((d) => d.some(([n, v]) => n === 'content' && v !== 'none' && v !== 'normal')))) switchToOverlay(pageRules);
  }
  function writeSheetRules() {
    const { bleed, extra, rules } = S.sheet;
    for (const r of rules) {
      if (r.size) r.rule.style.setProperty('size', (r.size[0] + 2 * bleed + extra) + 'px ' + (r.size[1] + 2 * bleed) + 'px', r.sizePriority);
      for (const [side, [v, priority]] of Object.entries(r.margins)) r.rule.style.setProperty('margin-' + side, (v + bleed) + 'px', priority);
    }
  }
  /** The root's extra right margin, only while printing: screen measurements (leaders, forms, guesses) need the page's width. */
  function sheetPrinting(on) {
    if (!S.sheet || !S.sheet.extra) return;
    const root = document.documentElement;
    const [value, priority, computed] = S.sheet.rootMargin;
    if (on) root.style.setProperty('margin-right', (computed + S.sheet.extra) + 'px', 'important');
    else if (value) root.style.setProperty('margin-right', value, priority);
    else root.style.removeProperty('margin-right');
  }
  function inheritedStyle(el) {
    const cs = getComputedStyle(el);
    return INHERITED.map((p) => p + ':' + cs.getPropertyValue(p)).join(';');
  }
  function prepareRunning(styleRules) {
    const els = candidates(styleRules, '--fs-running').filter((el) => getComputedStyle(el).getPropertyValue('--fs-running').trim());
    for (const el of els) {
      if (!el.isConnected || S.running.some((r) => r.el.contains(el))) continue;
      const cs = getComputedStyle(el);
      const name = cs.getPropertyValue('--fs-running').trim();
      const clone = el.cloneNode(true);
      for (const n of [clone, ...clone.querySelectorAll('[id]')]) n.removeAttribute('id');
      S.running.push({ el, name, html: clone.outerHTML, inherited: inheritedStyle(el.parentElement || document.body), float: cs.float, id: idFor(el, 'r'), slack: 0 });
      // Out of the flow but still rendered (not display:none): its counter-increment/-reset keep counting
      // for the content after it, and its static position gives its page. No style containment: that
      // would scope the counters to it.
      for (const [p, v] of [['position', 'absolute'], ['visibility', 'hidden'], ['width', '0'], ['height', '0'], ['min-width', '0'], ['min-height', '0'],
        ['margin', '0'], ['padding', '0'], ['border-width', '0'], ['overflow', 'hidden'], ['contain', 'size layout paint'], ['pointer-events', 'none']]) el.style.setProperty(p, v, 'important');
    }
    runningCounters();
  }
  /**
   * A running element shows in the margin boxes the counter values it had in the flow: the counters its
   * content displays (other than page/pages) are counted by the counter model (countCounters), and its
   * margin-box wrapper starts them at the values the element inherits there (nested instances as nested
   * wrappers, so counters() shows the whole chain), so the copy's own effects land on them.
   */
  function runningCounters() {
    for (const r of S.running) {
      for (const e of [r.el, ...r.el.querySelectorAll('*')]) {
        for (const pseudo of [null, '::before', '::after']) {
          const c = getComputedStyle(e, pseudo).content;
          if (c && c.includes('counter')) for (const m of c.matchAll(/counters?\(\s*([-\w]+)/g)) if (m[1] !== 'page' && m[1] !== 'pages') S.runningCounterNames.add(m[1]);
        }
      }
    }
  }
  /**
   * One walk of the counter model for everything that shows counter values castpress must supply:
   * running elements' margin-box copies and target-counter()/target-counters() of counters other than
   * page. Documents with neither do not walk.
   */
  function countCounters(styleRules) {
    const names = new Set([...S.runningCounterNames, ...S.targetCounterNames]);
    const wanted = new Set();
    if (S.runningCounterNames.size) for (const r of S.running) wanted.add(r.el);
    const parts = S.targets.flatMap((t) => t.parts.filter((p) => p.counterOf));
    for (const p of parts) wanted.add(p.counterOf);
    if (wanted.size === 0) return;
    let model;
    // The walk recurses along the tree: a script-built tree deeper than the JS stack leaves the values empty.
    try { model = counterModel(styleRules, names, wanted); } catch (e) { if (!(e instanceof RangeError)) throw e; model = new Map(); }
    for (const r of S.running) {
      const m = model.get(r.el);
      if (!m) continue;
      const levels = [];
      for (const n of S.runningCounterNames) (m.entry[n] || []).forEach((v, k) => { levels[k] = (levels[k] ? levels[k] + ' ' : '') + n + ' ' + v; });
      r.counterLevels = levels;
    }
    for (const p of parts) {
      const m = model.get(p.counterOf);
      // A counter the target does not have is 0 there, as counter() would show it.
      const stack = m ? m.at[p.name] || [0] : null;
      p.values = stack ? (p.all ? stack : stack.slice(-1)) : null;
      delete p.counterOf;
    }
  }
  /** A pseudo-element's content as text (strings and attr() only: counters have no value to read). */
  function pseudoText(el, pseudo) {
    const v = getComputedStyle(el, pseudo).content;
    if (!v || v === 'none' || v === 'normal') return '';
    let out = '';
    const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|attr\(\s*([-\w]+)[^)]*\)/g;
    let m;
    while ((m = re.exec(v))) out += m[3] ? (el.getAttribute(m[3]) || '') : unescapeCss(m[1] !== undefined ? m[1] : m[2]);
    return out;
  }
  /** content(text | before | after | first-letter) of GCPM, white space collapsed as for white-space: normal. */
  function contentOf(el, which) {
    const text = (el.textContent || '').replace(/\s+/g, ' ').trim();
    if (which === 'before' || which === 'after') return pseudoText(el, '::' + which);
    if (which === 'first-letter') { const m = /^\p{P}*[\p{L}\p{N}]\p{P}*/u.exec(text); return m ? m[0] : text.slice(0, 1); }
    return text;
  }
  /** A string-set / bookmark-label value: strings, content(...), attr(...), concatenated. */
  function stringValue(el, v) {
    let value = '';
    const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|content\(\s*([-\w]*)\s*\)|attr\(\s*([-\w]+)[^)]*\)/g;
    let t;
    while ((t = re.exec(v))) {
      if (t[1] !== undefined || t[2] !== undefined) value += unescapeCss(t[1] !== undefined ? t[1] : t[2]);
      else if (t[3] !== undefined) value += contentOf(el, t[3] || 'text');
      else if (t[4]) value += el.getAttribute(t[4]) || '';
    }
    return value;
  }
  /**
   * Bookmarks: h1-h6 at their level unless bookmark-level says otherwise (none drops one), any element
   * with an integer bookmark-level; label from bookmark-label (default its text), bookmark-state closed.
   */
  function prepareBookmarks(styleRules) {
    const els = new Set([...document.body.querySelectorAll('h1, h2, h3, h4, h5, h6'), ...candidates(styleRules, '--fs-bookmark-level')]);
    const sorted = [...els].sort((a, b) => (a.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
    for (const el of sorted) {
      if (S.running.some((r) => r.el.contains(el))) continue;
      const cs = getComputedStyle(el);
      const set = cs.getPropertyValue('--fs-bookmark-level').trim();
      const heading = /^H([1-6])$/.exec(el.tagName);
      const level = set ? parseInt(set, 10) : heading ? Number(heading[1]) : NaN;
      if (!(level >= 1) || cs.display === 'none' || el.getClientRects().length === 0) continue;
      const labelSpec = cs.getPropertyValue('--fs-bookmark-label').trim();
      const label = (labelSpec ? stringValue(el, labelSpec) : contentOf(el, 'text')).replace(/\s+/g, ' ').trim();
      if (!label) continue;
      const id = anchorId(el, 'h');
      if (id) S.bookmarks.push({ level, label, open: cs.getPropertyValue('--fs-bookmark-state').trim() !== 'closed', id });
    }
  }
  /** Document information WeasyPrint takes from <meta>: author, description (subject), keywords. */
  function readMeta() {
    const meta = (name) => { const m = document.head && document.head.querySelector('meta[name="' + name + '" i]'); const v = m && m.getAttribute('content'); return v ? v.trim() : null; };
    return { author: meta('author'), subject: meta('description') || meta('subject'), keywords: meta('keywords') };
  }
  /**
   * string-set (renamed --fs-string-set): each element that sets a named string records its value,
   * evaluated now (content(), attr(), strings; counters are not readable), and gets an id whose
   * destination tells its page.
   */
  function prepareStrings(styleRules) {
    for (const el of candidates(styleRules, '--fs-string-set')) {
      const v = getComputedStyle(el).getPropertyValue('--fs-string-set').trim();
      if (!v || v === 'none') continue;
      const slack = parseFloat(getComputedStyle(el).marginTop) || 0;
      for (const part of v.split(/,(?=(?:[^"']|"[^"]*"|'[^']*')*$)/)) {
        const m = /^\s*([-\w]+)\s*([\s\S]*)$/.exec(part);
        if (!m) continue;
        S.strings.push({ el, name: m[1], value: stringValue(el, m[2]), id: anchorId(el, 't') || idFor(el, 't'), slack });
      }
    }
  }
  /** Text with function sentinels in it → plain strings and { name, args } pieces. */
  function splitSentinels(text) {
    const out = [];
    let at = 0;
    const next = (from) => { const re = /__fs_(fn|string)__/g; re.lastIndex = from; return re.exec(text); };
    for (let m = next(0); m; m = next(at)) {
      const k = m.index;
      const open = text.indexOf('(', k);
      if (open < 0) break;
      let depth = 1, j = open + 1;
      for (; j < text.length && depth > 0; j++) { if (text[j] === '(') depth++; else if (text[j] === ')') depth--; }
      if (k > at) out.push(text.slice(at, k));
      const args = text.slice(open + 1, j - 1);
      out.push(m[1] === 'string' ? { name: 'string', args: args.split('|')[0] } : { name: text.slice(k + m[0].length, open), args });
      at = j;
    }
    if (at < text.length) out.push(text.slice(at));
    return out;
  }
  /**
   * Running elements were copied before prepareTargets marked pseudo-elements that use target-*(),
   * string() or leader() (data-castpress-t): the copies get the same marks, so the same rules apply to them.
   */
  function syncRunningCopies() {
    for (const r of S.running) {
      const marked = [r.el, ...r.el.querySelectorAll('*')].map((e) => e.getAttribute('data-castpress-t'));
      if (marked.every((k) => k === null)) continue;
      const tpl = document.createElement('template');
      tpl.innerHTML = r.html;
      const copy = tpl.content.firstElementChild;
      if (!copy) continue;
      [copy, ...copy.querySelectorAll('*')].forEach((e, k) => { if (marked[k] !== null && marked[k] !== undefined) e.setAttribute('data-castpress-t', marked[k]); });
      r.html = copy.outerHTML;
    }
  }
  function cssString(s) { return '"' + s.replace(/\\/g, '\\\\').replace(/"/g, '\\"').replace(/\n/g, '\\A ') + '"'; }
  /** The element a target-*() argument points at: attr(href), url(#x) or "#x"; only same-document fragments. */
  function targetOf(el, arg) {
    arg = arg.trim();
    let ref = null;
    let m;
    if ((m = /^attr\(\s*([-\w]+)/.exec(arg))) ref = el.getAttribute(m[1]);
    else if ((m = /^url\(\s*'?([^')]*)'?\s*\)/.exec(arg))) ref = m[1];
    else if ((m = /^'([^']*)'/.exec(arg))) ref = m[1];
    if (!ref || ref.indexOf('#') < 0) return null;
    let frag = ref.slice(ref.indexOf('#') + 1);
    try { frag = decodeURIComponent(frag); } catch (e) {}
    return frag ? document.getElementById(frag) : null;
  }
  function splitArgs(args) { return splitTop(args, ','); }
  /** Pieces of text separated by sep outside parentheses and strings, trimmed. */
  function splitTop(text, sep) {
    const out = [];
    let depth = 0, cur = '', quote = '';
    for (const c of text) {
      if (quote) { if (c === quote) quote = ''; }
      else if (c === '"' || c === "'") quote = c;
      else if (c === '(') depth++;
      else if (c === ')') depth--;
      if (c === sep && depth === 0 && !quote) { out.push(cur.trim()); cur = ''; } else cur += c;
    }
    out.push(cur.trim());
    return out;
  }
  /**
   * target-counter(), target-counters(), target-text() and leader() in ::before/::after (renamed to sentinel
   * strings): each such pseudo-element gets a rule of its own in a castpress style sheet, rewritten per
   * layout with the target's page (a counter reset on the pseudo-element, so counter styles still apply).
   */
  function prepareTargets(styleRules) {
    const els = candidates(styleRules, 'content', (v, r) => (v.includes(FN_SENTINEL) || v.includes(STRING_SENTINEL)) && /::?(before|after)\b/.test(r.selectorText));
    for (const el of els) {
      for (const pseudo of ['::before', '::after']) {
        const ps = getComputedStyle(el, pseudo);
        const content = ps.content;
        if (!content || !(content.includes(FN_SENTINEL) || content.includes(STRING_SENTINEL))) continue;
        const parts = [];
        const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|([-\w]+\((?:[^()]|\([^()]*\))*\))|([-\w]+)/g;
        let m;
        while ((m = re.exec(content))) {
          if (m[1] !== undefined || m[2] !== undefined) {
            // Computed content merges neighbouring strings: sentinels may sit anywhere inside one.
            for (const piece of splitSentinels(unescapeCss(m[1] !== undefined ? m[1] : m[2]))) {
            if (typeof piece === 'string') { parts.push({ raw: cssString(piece) }); continue; }
            const f = [null, piece.name, piece.args];
            const args = splitArgs(f[2]);
            if (f[1] === 'string') {
              // string() in the document: the named string's value at this element (last assignment up to it).
              let value = '';
              for (const a of S.strings) if (a.name === args[0] && (a.el === el || a.el.contains(el) || (a.el.compareDocumentPosition(el) & Node.DOCUMENT_POSITION_FOLLOWING))) value = a.value;
              parts.push({ raw: cssString(value) });
            } else if (f[1] === 'target-text') {
              const t = targetOf(el, args[0] || '');
              parts.push({ raw: cssString(t ? contentOf(t, (args[1] || 'content').replace(/^content$/, 'text')) : '') });
            } else if (f[1] === 'leader') {
              const kind = (args[0] || 'dotted').replace(/^'|'$/g, '');
              parts.push({ leader: kind === 'dotted' ? '.' : kind === 'solid' ? '_' : kind === 'space' ? ' ' : kind });
            } else {
              const t = targetOf(el, args[0] || '');
              const counter = (args[1] || '').trim();
              const style = f[1] === 'target-counters' ? args[3] : args[2];
              if (!t || !counter) { parts.push({ raw: '""' }); continue; }
              if (counter === 'pages') { parts.push({ pages: true, style: (style || 'decimal').trim() }); continue; }
              if (counter !== 'page') {
                // Its value at the target comes from the counter model (countCounters); target-counters() joins all levels.
                const sep = f[1] === 'target-counters' ? /^'([^']*)'$/.exec((args[2] || '').trim()) : null;
                S.targetCounterNames.add(counter);
                parts.push({ counterOf: t, name: counter, all: f[1] === 'target-counters', sep: sep ? cssString(sep[1]) : '""', style: (style || 'decimal').trim() });
                continue;
              }
              parts.push({ target: idFor(t, 'g'), style: (style || 'decimal').trim() });
            }
            }
          } else parts.push({ raw: m[0] });
        }
        let key = el.getAttribute('data-castpress-t');
        if (!key) { key = String(S.targets.length); el.setAttribute('data-castpress-t', key); }
        // A leader's length depends on the content width of the page its element lands on (targetRules).
        const leaderId = parts.some((p) => p.leader !== undefined) && !S.running.some((r) => r.el.contains(el)) ? idFor(el, 'l') : null;
        // The private counters are reset on the pseudo-element: its own counter-reset must stay.
        const baseReset = ps.counterReset && ps.counterReset !== 'none' ? ps.counterReset : '';
        S.targets.push({ el, pseudo, key, parts, leaderId, baseReset });
      }
    }
  }
  /**
   * Ids of leader elements whose page must be verified after printing: only when the document's pages can
   * differ in content width (named pages, :first/:left/:right sizes or margins); otherwise every page has the
   * same width and the page a leader lands on does not change its length.
   */
  function leaderTargets() {
    const ids = S.targets.filter((t) => t.leaderId).map((t) => t.leaderId);
    if (ids.length === 0) return [];
    const widths = new Set();
    for (const name of ['', ...S.named.map((n) => n.name)]) for (let i = 0; i < 4; i++) { const P = resolvePage(i, name); widths.add(Math.round(P.w - P.left - P.right)); }
    return widths.size > 1 ? ids : [];
  }
  /** The printed content width (CSS px) of the page a marker is on in state, or null when unknown. */
  function contentWidthAt(id, state) {
    const page = id ? state.pages[id] : undefined;
    if (page === undefined || !state.sizes[page]) return null;
    const P = resolvePage(page, state.names[page] || '');
    return state.sizes[page][0] / 0.75 - P.left - P.right;
  }
  /**
   * Runs measure() with the root element laid out at a page's content width (less its own margins, padding
   * and border): the screen layout is at the request's page width, not that of a document @page.
   */
  function atContentWidth(width, measure) {
    const html = document.documentElement;
    const old = [html.style.getPropertyValue('width'), html.style.getPropertyPriority('width')];
    const cs = getComputedStyle(html);
    const sum = (props) => props.reduce((n, p) => n + (parseFloat(cs.getPropertyValue(p)) || 0), 0);
    const extra = sum(['margin-left', 'margin-right']) + (cs.boxSizing === 'border-box' ? 0 : sum(['padding-left', 'padding-right', 'border-left-width', 'border-right-width']));
    html.style.setProperty('width', Math.max(1, width - extra) + 'px', 'important');
    try { return measure(); } finally { if (old[0]) html.style.setProperty('width', old[0], old[1]); else html.style.removeProperty('width'); }
  }
  /**
   * leader(): the pseudo-element becomes an inline flex box as wide as the rest of its line, holding the
   * text before the leader, a long run of the leader string and the text after it, pushed to the end
   * (justify-content: flex-end) and clipped at the start: the leader fills exactly the free space and
   * the text after it ends at the line's end. The free space is measured on the screen layout (same
   * width as the page's content box) with a mark put where the pseudo-element starts, then removed.
   */
  function blockRight(el) {
    for (let b = el; b && b !== document.documentElement; b = b.parentElement) {
      const cs = getComputedStyle(b);
      if (cs.display.startsWith('inline') || cs.display === 'contents') continue;
      return b.getBoundingClientRect().right - parseFloat(cs.paddingRight) - parseFloat(cs.borderRightWidth);
    }
    return document.documentElement.clientWidth;
  }
  /** provisional: rules for the first guess only (the screen layout then has numbers, not sentinels); leaders not measured. */
  function targetRules(state, provisional) {
    let n = 0;
    const rules = S.targets.map((t) => {
      const resets = [];
      const pre = [], post = [];
      let leader = null;
      for (const p of t.parts) {
        let token;
        if (p.leader !== undefined) { if (leader === null) leader = p.leader; continue; }
        if (p.raw !== undefined) token = p.raw;
        else if (p.pages) { const name = '__fs_tc' + (n++); resets.push(name + ' ' + state.total); token = 'counter(' + name + ', ' + p.style + ')'; }
        else if (p.values !== undefined) {
          // A counter value at the target: private counters reset on the pseudo-element, so counter styles apply.
          token = !p.values ? '""' : p.values.map((v) => { const name = '__fs_tc' + (n++); resets.push(name + ' ' + v); return 'counter(' + name + ', ' + p.style + ')'; }).join(' ' + p.sep + ' ');
        } else {
          const name = '__fs_tc' + (n++);
          const page = state.pages[p.target];
          if (page === undefined) token = '""';
          else { resets.push(name + ' ' + (page + 1)); token = 'counter(' + name + ', ' + p.style + ')'; }
        }
        (leader === null ? pre : post).push(token);
      }
      const sel = '[data-castpress-t="' + t.key + '"]' + t.pseudo;
      const reset = resets.length ? 'counter-reset:' + [t.baseReset, ...resets].join(' ').trim() + '!important;' : '';
      return { t, sel, reset, pre, post, leader, content: [...pre, ...post].join(' ') || '""' };
    });
    let st = document.getElementById('__fs_targets');
    if (!st) { st = document.createElement('style'); st.id = '__fs_targets'; document.head.appendChild(st); }
    const write = (leaderCss) => {
      st.textContent = rules.map((r, k) => r.sel + '{' + (r.leader !== null && leaderCss ? leaderCss[k] : 'content:' + r.content + '!important;') + r.reset + '}').join('\n');
    };
    write(null);
    const leaders = rules.filter((r) => r.leader !== null && r.leader !== '');
    if (leaders.length === 0 || provisional) return;
    const marks = leaders.map((r) => {
      const m = helper('mark', 'display:inline!important;position:static!important;margin:0!important;padding:0!important;border:0!important');
      if (r.t.pseudo === '::before') r.t.el.insertBefore(m, r.t.el.firstChild); else r.t.el.appendChild(m);
      return m;
    });
    // Free space at the content width of the page each leader is on: grouped by width, one relayout per width.
    const screen = document.documentElement.clientWidth;
    const groups = new Map();
    leaders.forEach((r, k) => {
      const w = contentWidthAt(r.t.leaderId, state);
      const key = w === null || Math.abs(w - screen) < 0.5 ? '' : String(w);
      groups.set(key, [...(groups.get(key) || []), k]);
    });
    const widths = [];
    const measure = (ks) => { for (const k of ks) widths[k] = Math.max(0, Math.floor(blockRight(leaders[k].t.el) - marks[k].getBoundingClientRect().left - 1)); };
    for (const [key, ks] of groups) { if (key === '') measure(ks); else atContentWidth(Number(key), () => measure(ks)); }
    for (const m of marks) m.remove();
    const css = rules.map((r) => {
      const k = leaders.indexOf(r);
      if (k < 0) return null;
      const fill = cssString(r.leader.repeat(Math.ceil(2000 / r.leader.length)));
      return 'content:' + [...r.pre, fill, ...r.post].join(' ') + '!important;display:inline-flex!important;justify-content:flex-end!important;'
        + 'overflow:hidden!important;white-space:pre!important;width:' + widths[k] + 'px!important;max-width:none!important;vertical-align:baseline!important;float:none!important;';
    });
    write(css);
  }
  function prepareCounters(styleRules) {
    const uses = (v) => /counters?\(\s*pages?\s*[,)]/.test(v);
    const els = candidates(styleRules, 'content', (v, r) => uses(v) && /::?(before|after|marker)\b/.test(r.selectorText));
    for (const el of els) {
      if (S.running.some((r) => r.el.contains(el))) continue;
      if (!['::before', '::after'].some((p) => uses(getComputedStyle(el, p).content))) continue;
      const cr = getComputedStyle(el).counterReset;
      S.counters.push({ el, id: idFor(el, 'c'), base: cr && cr !== 'none' ? cr : '' });
    }
  }
  function prepareNamed(styleRules) {
    for (const el of candidates(styleRules, 'page')) {
      const name = getComputedStyle(el).page;
      if (!name || name === 'auto' || S.named.some((n) => n.el.contains(el))) continue;
      S.named.push({ el, name, start: idFor(el, 'n'), next: followingId(el) });
    }
  }
  /**
   * Chromium treats break-before/after: left|right as a plain page break. The
   * blank page a book-style break needs is a zero-height spacer on a page of
   * its own (named page '__fs_blank', whose margin boxes are empty), inserted
   * once the printed layout shows the side is wrong.
   */
  function side(v) {
    v = String(v || '').trim();
    return v === 'left' || v === 'verso' ? 'left' : v === 'right' || v === 'recto' ? 'right' : null;
  }
  function prepareSideBreaks(styleRules) {
    const set = new Set();
    for (const prop of ['break-before', 'page-break-before', 'break-after', 'page-break-after']) {
      for (const el of candidates(styleRules, prop, (v) => side(v) !== null)) set.add(el);
    }
    for (const el of set) {
      const cs = getComputedStyle(el);
      const before = side(cs.breakBefore), after = side(cs.breakAfter);
      if (!before && !after) continue;
      // The blank pages' spacers get their ids (and links) now: a destination then tells which pages are :blank.
      const blanks = [newId('b'), newId('b')];
      S.markers.push(...blanks);
      S.sides.push({ el, before, after, start: idFor(el, 's'), next: after ? followingId(el) : null, spacerBefore: null, spacerAfter: null, blanks });
    }
    S.sides.sort((a, b) => (a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }
  function spacer(id) {
    const d = helper('blank', '');
    d.id = id;
    d.setAttribute('data-fs-blank', '');
    d.style.cssText = 'page:__fs_blank!important;height:0!important;margin:0!important;padding:0!important;border:0!important;display:block!important;float:none!important;position:static!important';
    return d;
  }
  function applySides(state) {
    let delta = 0;
    const wrong = (index, want) => (want === 'right' ? index % 2 !== 0 : index % 2 !== 1);
    for (const e of S.sides) {
      if (e.before && state.pages[e.start] !== undefined && wrong(state.pages[e.start] + delta, e.before)) {
        if (e.spacerBefore) { e.spacerBefore.remove(); e.spacerBefore = null; delta--; }
        else { e.spacerBefore = spacer(e.blanks[0]); e.el.parentNode.insertBefore(e.spacerBefore, e.el); delta++; }
      }
      if (e.after && e.next && state.pages[e.next] !== undefined && wrong(state.pages[e.next] + delta, e.after)) {
        if (e.spacerAfter) { e.spacerAfter.remove(); e.spacerAfter = null; delta--; }
        else { e.spacerAfter = spacer(e.blanks[1]); e.el.parentNode.insertBefore(e.spacerAfter, e.el.nextSibling); delta++; }
      }
    }
  }
  /** Elements with a forced page break before or after them (for the first guess only). */
  function prepareBreaks(styleRules) {
    const forced = (v) => /^(page|left|right|recto|verso)$/.test(v);
    const set = new Set();
    for (const prop of ['break-before', 'page-break-before', 'break-after', 'page-break-after']) {
      for (const el of candidates(styleRules, prop, (v) => /page|always|left|right|recto|verso/.test(v))) set.add(el);
    }
    // A page-name change breaks only between boxes in block flow (not between flex or grid items).
    const inBlockFlow = (el) => { const d = el.parentElement ? getComputedStyle(el.parentElement).display : 'block'; return d === 'block' || d === 'flow-root' || d === 'list-item'; };
    for (const n of S.named) if (inBlockFlow(n.el)) set.add(n.el);
    for (const el of set) {
      const cs = getComputedStyle(el);
      const named = S.named.some((n) => n.el === el) && inBlockFlow(el);
      if (forced(cs.breakBefore) || named) S.breaks.push({ el, before: true });
      if (forced(cs.breakAfter) || named) S.breaks.push({ el, before: false });
    }
  }
  function prepareTables(styleRules) {
    for (const el of candidates(styleRules, '--fs-table-paginate')) {
      if (getComputedStyle(el).getPropertyValue('--fs-table-paginate').trim() !== 'none') continue;
      const table = el.tagName === 'TABLE' ? el : el.closest('table');
      if (!table) continue;
      for (const part of table.querySelectorAll(':scope > thead, :scope > tfoot')) part.style.setProperty('break-inside', 'auto', 'important');
    }
  }
  const CONTROLS = 'input[name], select[name], textarea[name]';
  /** A named form control as a field description (its look from the computed style), or null when it is no field. */
  function describeControl(el, id) {
    const name = el.getAttribute('name');
    if (!name) return null;
    let kind;
    const tag = el.tagName;
    if (tag === 'TEXTAREA') kind = 'textarea';
    else if (tag === 'SELECT') kind = el.multiple ? 'list' : 'combo';
    else {
      const type = (el.getAttribute('type') || 'text').trim().toLowerCase();
      if (TEXT_TYPES.has(type)) kind = type === 'password' ? 'password' : 'text';
      else if (type === 'checkbox' || type === 'radio') kind = type;
      else return null;
    }
    const rect = el.getBoundingClientRect();
    if (rect.width === 0 && rect.height === 0) return null;
    const cs = getComputedStyle(el);
    if (cs.display === 'none' || cs.visibility !== 'visible') return null;
    const f = { id, kind, name, width: rect.width, height: rect.height, fontSize: parseFloat(cs.fontSize) || 12,
      color: cs.color, readOnly: el.readOnly === true || el.disabled === true, required: el.required === true,
      maxLength: typeof el.maxLength === 'number' && el.maxLength > 0 ? el.maxLength : 0, textAlign: cs.textAlign,
      look: { appearance: cs.appearance, borderStyle: cs.borderTopStyle, borderWidth: parseFloat(cs.borderTopWidth) || 0,
        borderColor: cs.borderTopColor, background: cs.backgroundColor, radius: cs.borderTopLeftRadius,
        bottomStyle: cs.borderBottomStyle, bottomWidth: parseFloat(cs.borderBottomWidth) || 0, bottomColor: cs.borderBottomColor } };
    if (kind === 'checkbox' || kind === 'radio') { f.checked = el.checked; const v = el.getAttribute('value'); if (v !== null) f.value = v; }
    else if (kind === 'combo' || kind === 'list') { f.options = [...el.options].map((o) => [o.value, o.text, o.selected]); }
    else f.value = el.value;
    return f;
  }
  function prepareForms() {
    for (const el of document.querySelectorAll(CONTROLS)) {
      if (!el.closest('form')) continue;
      const f = describeControl(el, '');
      if (!f) continue;
      f.id = idFor(el, 'f');
      S.forms.push(f);
      el.style.setProperty('visibility', 'hidden', 'important');
    }
    S.layoutWidth = document.documentElement.clientWidth;
  }
  /**
   * Sizes of body controls as laid out at the printed content width of their page
   * (groups: content width in px → control ids). The screen layout is at the
   * viewport's width, the request's default page, not the document's @page size:
   * the root is given the page's content width (less its own margins) while measuring.
   */
  function measureForms(groups) {
    sheetPrinting(false);
    const out = {};
    for (const [width, ids] of Object.entries(groups)) {
      atContentWidth(Number(width), () => { for (const id of ids) { const el = document.getElementById(id); if (el) { const r = el.getBoundingClientRect(); out[id] = [r.width, r.height]; } } });
    }
    sheetPrinting(true);
    return out;
  }
  /**
   * Controls inside running elements shown in margin boxes: each copy on overlay page i is a widget on body
   * page i, placed relative to that page's top-left (the overlay page is the body page's exact box).
   */
  function overlayForms(root) {
    S.overlayForms = [];
    root.querySelectorAll('[data-fs-overlay-page]').forEach((pg) => {
      // Layout is read only for pages that show controls (most overlays have none).
      // The page is in the overlay's shadow tree; the running elements' copies are slotted into it.
      const controls = [...pg.querySelectorAll('slot')].flatMap((slot) => {
        const inForm = slot.closest('[data-fs-in-form]') !== null;
        return slot.assignedElements().flatMap((n) => [...(n.matches(CONTROLS) ? [n] : []), ...n.querySelectorAll(CONTROLS)]).filter((el) => inForm || el.closest('form'));
      });
      if (controls.length === 0) return;
      const page = Number(pg.getAttribute('data-fs-overlay-page'));
      const origin = pg.getBoundingClientRect();
      for (const el of controls) {
        const f = describeControl(el, newId('g'));
        if (!f) continue;
        // The copies on all pages share one radio group in the document: only the last stays checked. The markup's state is the one.
        if (f.kind === 'checkbox' || f.kind === 'radio') f.checked = el.defaultChecked;
        const r = el.getBoundingClientRect();
        const bleed = S.sheet ? S.sheet.bleed : 0;
        S.overlayForms.push({ control: f, page, left: (r.left - origin.left + bleed) * 0.75, top: (r.top - origin.top + bleed) * 0.75 });
        el.style.setProperty('visibility', 'hidden', 'important');
      }
    });
  }
  function hideBrokenImages() {
    for (const img of document.images) {
      if (img.getAttribute('src') && (!img.complete || img.naturalWidth === 0)) img.style.setProperty('visibility', 'hidden', 'important');
    }
  }
  function moveCanvasBackground() {
    const html = document.documentElement, body = document.body;
    const has = (cs) => cs.backgroundImage !== 'none' || !/rgba\(0, 0, 0, 0\)|transparent/.test(cs.backgroundColor);
    const source = has(getComputedStyle(html)) ? html : body && has(getComputedStyle(body)) ? body : null;
    if (!source) return;
    const cs = getComputedStyle(source);
    const decl = ['background-color', 'background-image', 'background-repeat', 'background-position', 'background-size']
      .map((p) => p + ':' + cs.getPropertyValue(p)).join(';');
    const st = document.createElement('style');
    st.textContent = '@page{' + decl + '}';
    document.head.insertBefore(st, document.head.firstChild);
    source.style.setProperty('background', 'transparent', 'important');
  }
  function namedEnd(n, pages, total) {
    const next = n.next ? pages[n.next] : undefined;
    return next === undefined ? total - 1 : Math.max(pages[n.start], Math.min(next - 1, total - 1));
  }
  function estimate() {
    const first = resolvePage(0, '');
    const contentH = Math.max(50, first.h - first.top - first.bottom);
    const top = (el) => { const r = el.getBoundingClientRect(); return r.top + window.scrollY; };
    const height = document.documentElement.scrollHeight;
    // Forced breaks cut the screen layout into segments that each start a page: without them a
    // chaptered document's guess was a few pages short and always cost another print.
    const cuts = [0];
    for (const b of S.breaks) {
      const r = b.el.getBoundingClientRect();
      const y = (b.before ? r.top : r.bottom) + window.scrollY;
      if (y > 1 && y < height - 1) cuts.push(y);
    }
    cuts.sort((a, b) => a - b);
    const base = [0];
    for (let k = 1; k < cuts.length; k++) base.push(base[k - 1] + Math.max(1, Math.ceil((cuts[k] - cuts[k - 1] - 1) / contentH)));
    const place = (y) => {
      let k = 0;
      while (k + 1 < cuts.length && cuts[k + 1] <= y) k++;
      const within = Math.floor((y - cuts[k]) / contentH);
      return [base[k] + within, (y - cuts[k] - within * contentH) * 0.75];
    };
    const pages = {};
    const tops = {};
    for (const id of S.markers) {
      const el = document.getElementById(id);
      if (!el) continue;
      [pages[id], tops[id]] = place(Math.max(0, top(el)));
    }
    const last = cuts.length - 1;
    const total = Math.max(1, base[last] + Math.max(1, Math.ceil((height - cuts[last] - 1) / contentH)), ...Object.values(pages).map((p) => p + 1));
    const names = [];
    for (let i = 0; i < total; i++) names.push('');
    for (const n of S.named) for (let i = pages[n.start]; i <= namedEnd(n, pages, total); i++) names[i] = n.name;
    const sizes = names.map((name, i) => { const p = resolvePage(i, name); return [p.w * 0.75, p.h * 0.75]; });
    return { total, pages, names, sizes, tops };
  }
  function addDestLinks() {
    const box = helper('links', 'display:none!important');
    for (const id of new Set(S.markers)) { const a = document.createElement('a'); a.href = '#' + id; box.appendChild(a); }
    document.documentElement.appendChild(box);
  }
  function unescapeCss(s) {
    return s.replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\([\s\S])/g, '$1');
  }
  /** Sentinel strings carry "name|policy" (css-rewrite.ts). */
  function sentinelArgs(s, prefix) {
    const [name, policy] = s.slice(prefix.length).replace(/^\(|\)$/g, '').split('|');
    return { name, policy: policy || 'first' };
  }
  function tokens(content) {
    const out = [];
    const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|counters?\(\s*([-\w]+)[^)]*\)|attr\([^)]*\)|url\([^)]*\)/g;
    let m;
    while ((m = re.exec(content))) {
      if (m[1] !== undefined || m[2] !== undefined) {
        const s = unescapeCss(m[1] !== undefined ? m[1] : m[2]);
        if (s.startsWith(SENTINEL)) out.push({ element: sentinelArgs(s, SENTINEL) });
        else if (s.startsWith(STRING_SENTINEL)) out.push({ string: sentinelArgs(s, STRING_SENTINEL) });
        else out.push({ text: s });
      } else if (m[3]) out.push({ counter: m[3] });
    }
    return out;
  }
  /**
   * GCPM's page policies, for running elements and named strings alike. items are in document
   * order with an id whose page (and offset from the content top, in pt) the state knows.
   * - first: the first one on the page, else the last one before the page (the entry value);
   * - start: the first one on the page if nothing precedes it there (it starts the page), else the entry value;
   * - last: the last one on the page, else the entry value;
   * - first-except: nothing on a page that has one, else the entry value.
   */
  function choose(items, policy, i, state) {
    let entry = null;
    const on = [];
    for (const it of items) {
      const p = state.pages[it.id];
      if (p === undefined) continue;
      if (p < i) entry = it;
      else if (p === i) on.push(it);
    }
    if (policy === 'last') return on.length ? on[on.length - 1] : entry;
    if (policy === 'first-except') return on.length ? null : entry;
    if (policy === 'start') {
      const top = state.tops && state.tops[on.length ? on[0].id : ''];
      return on.length && top !== undefined && top <= on[0].slack * 0.75 + 1 ? on[0] : entry;
    }
    return on.length ? on[0] : entry;
  }
  function boxGeometry(name, P) {
    const { w, h, top, right, bottom, left } = P;
    const cw = w - left - right, ch = h - top - bottom;
    const [side] = name.split('-');
    if (name.endsWith('-corner')) return { x: name.includes('left') ? 0 : w - right, y: side === 'top' ? 0 : h - bottom, w: name.includes('left') ? left : right, h: side === 'top' ? top : bottom };
    if (side === 'top' || side === 'bottom') return { x: left, y: side === 'top' ? 0 : h - bottom, w: cw, h: side === 'top' ? top : bottom, row: true };
    return { x: side === 'left' ? 0 : w - right, y: top, w: side === 'left' ? left : right, h: ch, row: false };
  }
  /**
   * One margin box. Its own structure lives in the overlay's shadow tree (no author rule can match
   * it); a running element is a light-DOM clone slotted into it, so it keeps the author's rules.
   */
  function buildBox(name, decls, i, state, host, area) {
    const content = decls.content;
    if (!content || content === 'none' || content === 'normal') return null;
    const cell = document.createElement('div');
    const pos = name.split('-')[1];
    const align = pos === 'left' ? 'left' : pos === 'right' ? 'right' : 'center';
    let valign = 'middle';
    let css = 'box-sizing:border-box;display:flex;flex-direction:column;overflow:visible;min-width:0;text-align:' + (name.startsWith('left') || name.startsWith('right') ? 'center' : name.endsWith('corner') ? (name.includes('left') ? 'right' : 'left') : align) + ';';
    const size = { w: false, h: false };
    for (const [n, v] of Object.entries(decls)) {
      if (n === 'content') continue;
      if (n === 'vertical-align') { valign = v; continue; }
      // Percentages are of the margin area (css-page-3): in the band's grid track they would resolve against
      // the track, which is sized by them (the report's \`@top-center { width: 100% }\` rule came out 0 wide).
      const axis = /^(min-|max-)?width$/.test(n) ? 'w' : /^(min-|max-)?height$/.test(n) ? 'h' : null;
      const pct = axis && area ? /^\s*(-?[\d.]+)%\s*$/.exec(v) : null;
      if ((n === 'width' || n === 'height') && v.trim() !== 'auto') size[axis] = true;
      css += n + ':' + (pct ? (parseFloat(pct[1]) / 100) * area[axis] + 'px' : v) + ';';
    }
    css += 'justify-content:' + (valign === 'top' ? 'flex-start' : valign === 'bottom' ? 'flex-end' : 'center') + ';';
    cell.style.cssText = css;
    cell.__fsSize = size;
    const line = document.createElement('div');
    line.style.cssText = 'min-width:0;';
    for (const t of tokens(content)) {
      if (t.text !== undefined) line.appendChild(document.createTextNode(t.text));
      else if (t.counter === 'page') line.appendChild(document.createTextNode(String(i + 1)));
      else if (t.counter === 'pages') line.appendChild(document.createTextNode(String(state.total)));
      else if (t.string) {
        const a = choose(S.strings.filter((x) => x.name === t.string.name), t.string.policy, i, state);
        if (a) line.appendChild(document.createTextNode(a.value));
      } else if (t.element) {
        const r = choose(S.running.filter((x) => x.name === t.element.name), t.element.policy, i, state);
        if (!r) continue;
        const wrap = document.createElement('div');
        // flow-root keeps a floated running element inside its box (it would hang below it).
        wrap.style.cssText = r.inherited + ';text-align:inherit;display:flow-root' + (r.counterLevels && r.counterLevels[0] ? ';counter-reset:' + r.counterLevels[0] : '');
        // Nested counter instances (counters()) need one element per level.
        let inner = wrap;
        for (const level of (r.counterLevels || []).slice(1)) { const d = document.createElement('div'); d.style.cssText = 'counter-reset:' + level; inner.appendChild(d); inner = d; }
        const tpl = document.createElement('template');
        tpl.innerHTML = r.html;
        const node = tpl.content.firstElementChild;
        if (node) {
          node.style.removeProperty('display');
          const slotName = 'fs' + (S.slots++);
          node.setAttribute('slot', slotName);
          host.appendChild(node);
          const slot = document.createElement('slot');
          slot.name = slotName;
          inner.appendChild(slot);
        }
        // Its controls are fields when the running element sat in a form (overlayForms).
        if (r.el.closest('form')) wrap.setAttribute('data-fs-in-form', '');
        line.appendChild(wrap);
        if (r.float === 'left' || r.float === 'right') cell.__fsFloat = true;
      }
    }
    cell.appendChild(line);
    return cell;
  }
  const SIDES = [['top', ['top-left', 'top-center', 'top-right']], ['bottom', ['bottom-left', 'bottom-center', 'bottom-right']],
    ['left', ['left-top', 'left-middle', 'left-bottom']], ['right', ['right-top', 'right-middle', 'right-bottom']]];
  function place(el, g) {
    el.style.position = 'absolute';
    el.style.left = g.x + 'px';
    el.style.top = g.y + 'px';
    el.style.width = g.w + 'px';
    el.style.height = g.h + 'px';
  }
  const HOST_CSS = 'display:block!important;margin:0!important;padding:0!important;border:0!important;position:static!important;background:transparent!important;'
    + 'float:none!important;width:auto!important;height:auto!important;columns:auto!important;visibility:visible!important;transform:none!important;';
  function buildOverlay(state) {
    const old = document.getElementById('__fs_overlay');
    if (old) old.remove();
    const oldStyle = document.getElementById('__fs_overlay_style');
    if (oldStyle) oldStyle.remove();
    if (!S.overlay) return;
    const host = helper('overlay', HOST_CSS);
    host.id = '__fs_overlay';
    const root = host.attachShadow({ mode: 'open' });
    S.slots = 0;
    const sizeNames = new Map();
    let rules = '';
    // The overlay's first page is found by a destination, so its marker is a light-DOM child (ids inside
    // a shadow tree get none), slotted into page 1.
    const start = helper('mark', 'display:block!important');
    if (!S.overlayStart) { S.overlayStart = newId('o'); S.markers.push(S.overlayStart); }
    start.id = S.overlayStart;
    start.setAttribute('slot', 'fs-start');
    host.appendChild(start);
    for (let i = 0; i < state.total; i++) {
      const [wPt, hPt] = state.sizes[i];
      const key = wPt.toFixed(2) + 'x' + hPt.toFixed(2);
      if (!sizeNames.has(key)) {
        const nm = '__fs_ov' + sizeNames.size;
        sizeNames.set(key, nm);
        // On a wider sheet the root's extra right margin is there too: the overlay page is as much wider (cropped off).
        const wide = wPt + (S.sheet ? S.sheet.extra * 0.75 : 0);
        rules += '@page ' + nm + '{size:' + wide + 'pt ' + hPt + 'pt!important;margin:0!important;background:none!important;}';
      }
      const P = resolvePage(i, state.names[i] || '');
      P.w = wPt / 0.75; P.h = hPt / 0.75;
      const pg = document.createElement('div');
      pg.style.cssText = 'page:' + sizeNames.get(key) + ';break-before:page;break-after:avoid;break-inside:avoid;position:relative;overflow:hidden;margin:0;padding:0;border:0;background:transparent;display:block;box-sizing:border-box;'
        + 'width:' + P.w + 'px;height:' + (P.h - 0.5) + 'px;counter-reset:page ' + (i + 1) + ' pages ' + state.total + ';';
      pg.setAttribute('data-fs-overlay-page', String(i));
      if (i === 0) { const slot = document.createElement('slot'); slot.name = 'fs-start'; pg.appendChild(slot); }
      for (const corner of ['top-left-corner', 'top-right-corner', 'bottom-left-corner', 'bottom-right-corner']) {
        const decls = P.boxes[corner];
        const cell = decls && buildBox(corner, decls, i, state, host);
        if (!cell) continue;
        place(cell, boxGeometry(corner, P));
        pg.appendChild(cell);
      }
      for (const [side, names] of SIDES) {
        const area = boxGeometry(names[0], P);
        const cells = names.map((n) => (P.boxes[n] ? buildBox(n, P.boxes[n], i, state, host, area) : null));
        if (!cells.some(Boolean)) continue;
        // css-page-3 in short: the middle box keeps its natural size and stays centred, the
        // outer boxes share the rest; without a middle box the outer ones split the band.
        const band = document.createElement('div');
        const g = boxGeometry(names[0], P);
        place(band, g);
        const tracks = cells[1] ? 'minmax(0,1fr) auto minmax(0,1fr)' : cells[0] && cells[2] ? 'minmax(0,1fr) minmax(0,1fr)' : 'minmax(0,1fr)';
        band.style.display = 'grid';
        band.style[g.row ? 'gridTemplateColumns' : 'gridTemplateRows'] = tracks;
        band.style[g.row ? 'gridTemplateRows' : 'gridTemplateColumns'] = '100%';
        const order = cells[1] ? cells : cells[0] && cells[2] ? [cells[0], cells[2]] : [cells[0] || cells[2]];
        order.forEach((cell, k) => {
          const el = cell || document.createElement('div');
          // A floated running element keeps its float side: its box spans the whole band (a shrink-wrapped,
          // centred middle box would leave it nowhere to float to).
          el.style[g.row ? 'gridColumn' : 'gridRow'] = cell && cell.__fsFloat ? '1 / -1' : String(k + 1);
          el.style[g.row ? 'gridRow' : 'gridColumn'] = '1';
          // A box with its own size (css-page-3's over-constrained case): across the band it moves toward the
          // page area (its outer margin becomes auto); along the band the outer boxes keep to their ends and
          // the middle one stays centred, overlapping when they do not fit (as WeasyPrint draws them).
          const fixed = cell && cell.__fsSize;
          if (fixed) {
            const j = cells.indexOf(cell);
            const along = j === 0 ? 'start' : j === 1 ? 'center' : 'end';
            const across = side === 'top' || side === 'left' ? 'end' : 'start';
            if (fixed.w) el.style.justifySelf = g.row ? along : across;
            if (fixed.h) el.style.alignSelf = g.row ? across : along;
          }
          band.appendChild(el);
        });
        pg.appendChild(band);
      }
      root.appendChild(pg);
    }
    const st = document.createElement('style');
    st.id = '__fs_overlay_style';
    st.textContent = rules;
    document.head.appendChild(st);
    document.documentElement.appendChild(host);
    overlayForms(root);
  }
  function layout(state) {
    sheetPrinting(false);
    if (S.sheet && state.extra !== undefined && state.extra !== S.sheet.extra) { S.sheet.extra = state.extra; writeSheetRules(); }
    if (state.fixSides) applySides(state);
    if (S.targets.length) targetRules(state);
    for (const c of S.counters) {
      const p = state.pages[c.id];
      c.el.style.setProperty('counter-reset', (c.base ? c.base + ' ' : '') + 'page ' + ((p === undefined ? 0 : p) + 1) + ' pages ' + state.total, 'important');
    }
    buildOverlay(state);
    sheetPrinting(true);
  }
  window.__castpress = {
    async prepare() {
      await document.fonts.ready;
      hideBrokenImages();
      const { style, page } = collectRules();
      defaultSizes(page);
      readPageRules(page);
      prepareRunning(style);
      prepareStrings(style);
      prepareBookmarks(style);
      prepareTargets(style);
      countCounters(style);
      syncRunningCopies();
      prepareCounters(style);
      prepareNamed(style);
      prepareTables(style);
      prepareBreaks(style);
      prepareSideBreaks(style);
      prepareForms();
      // After every DOM change above: its overflow check reads the layout the page guess then reuses.
      prepareSheet(page);
      const calib = beforeHead(helper('mark', 'display:block!important;position:absolute!important;left:0!important;top:0!important;width:0!important;height:0!important;margin:0!important;visibility:hidden!important'));
      calib.id = newId('k');
      // A sheet is checked after each print (still scaled?) and cropped afterwards: both run in the layout path.
      const needsLayout = S.overlay || S.counters.length > 0 || S.sides.length > 0 || S.targets.length > 0 || !!S.sheet;
      const needsDests = needsLayout || S.forms.length > 0 || S.bookmarks.length > 0;
      if (needsDests) S.markers.push(calib.id);
      if (S.overlay) moveCanvasBackground();
      // The screen layout the guess reads would otherwise show the sentinel strings (long enough to wrap
      // a table of contents' lines): counter values in, pages still empty.
      if (S.targets.length) targetRules({ pages: {}, names: [], sizes: [], total: 0 }, true);
      const guess = estimate();
      if (needsLayout) layout(guess);
      else sheetPrinting(true);
      if (needsDests) addDestLinks();
      return {
        usesStart: !!S.usesStart, strings: S.strings.map((t) => t.id), meta: readMeta(),
        bookmarks: S.bookmarks,
        targets: [...new Set([...S.targets.flatMap((t) => t.parts.filter((p) => p.target).map((p) => p.target)), ...leaderTargets()])],
        needsLayout, needsDests, overlay: S.overlay, guess, calibration: calib.id, overlayStart: S.overlayStart || null,
        running: S.running.map((r) => ({ name: r.name, id: r.id })),
        counters: S.counters.map((c) => c.id),
        named: S.named.map((n) => ({ name: n.name, start: n.start, next: n.next })),
        sides: S.sides.map((e) => ({ start: e.start, next: e.next, before: e.before, after: e.after, blanks: e.blanks })),
        forms: S.forms, layoutWidth: S.layoutWidth, overlayForms: S.overlayForms || [],
        sheet: S.sheet ? { bleed: S.sheet.bleed, extra: S.sheet.extra, crop: S.sheet.crop, cross: S.sheet.cross, area: S.sheet.area } : null,
      };
    },
    layout(state) { layout(state); return S.overlayForms || []; },
    measureForms,
    // Margins of the printed sheet: a bleed adds to each.
    resolvePages(names) {
      const b = S.sheet ? S.sheet.bleed : 0;
      return names.map((n, i) => { const p = resolvePage(i, n); return { top: p.top + b, right: p.right + b, bottom: p.bottom + b, left: p.left + b, width: p.w }; });
    },
  };
})();
`;
