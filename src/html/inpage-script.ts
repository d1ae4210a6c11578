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
export const INPAGE_SOURCE = String.raw`
(() => {
  // setContent rewrites the document but keeps the Window: state must be rebuilt per job.
  const SENTINEL = '__fs_element__';
  const NAMED_SIZES = { a5: [148, 210, 'mm'], a4: [210, 297, 'mm'], a3: [297, 420, 'mm'], b5: [176, 250, 'mm'], b4: [250, 353, 'mm'],
    'jis-b5': [182, 257, 'mm'], 'jis-b4': [257, 364, 'mm'], letter: [8.5, 11, 'in'], legal: [8.5, 14, 'in'], ledger: [11, 17, 'in'] };
  const UNIT_PX = { mm: 96 / 25.4, in: 96, cm: 96 / 2.54, pt: 96 / 72, pc: 16, px: 1 };
  const INHERITED = ['font-family', 'font-size', 'font-style', 'font-weight', 'font-variant', 'font-stretch', 'line-height', 'color',
    'letter-spacing', 'word-spacing', 'text-align', 'text-transform', 'text-indent', 'white-space', 'direction', 'font-feature-settings', 'font-kerning'];
  const TEXT_TYPES = new Set(['text', 'password', 'email', 'number', 'tel', 'url', 'search', 'date', 'time', 'datetime-local', 'month', 'week']);
  let uid = 0;
  const newId = (p) => '__fs_' + p + (uid++);
  const S = { markers: [], running: [], counters: [], named: [], sides: [], forms: [], pageRules: [], overlay: false, probe: null };

  function idFor(el, prefix) {
    if (!el.id || document.querySelectorAll('#' + CSS.escape(el.id)).length !== 1) el.id = newId(prefix);
    S.markers.push(el.id);
    return el.id;
  }
  function marker(prefix) {
    const span = document.createElement('span');
    span.id = newId(prefix);
    span.setAttribute('data-fs-marker', '');
    S.markers.push(span.id);
    return span;
  }
  function collectRules() {
    const style = [], page = [];
    const walk = (rules) => {
      for (const r of rules) {
        if (r instanceof CSSPageRule) page.push(r);
        else if (r instanceof CSSStyleRule) { style.push(r); if (r.cssRules && r.cssRules.length) walk(r.cssRules); }
        else if (r instanceof CSSMediaRule) { if (matchMedia(r.media.mediaText || 'all').matches) walk(r.cssRules); }
        else if (r instanceof CSSSupportsRule) { if (CSS.supports(r.conditionText)) walk(r.cssRules); }
        else if (r instanceof CSSImportRule) { try { if (r.styleSheet) walk(r.styleSheet.cssRules); } catch (e) {} }
        else if (r.cssRules) walk(r.cssRules);
      }
    };
    for (const sheet of document.styleSheets) {
      if (sheet.disabled) continue;
      if (sheet.media && sheet.media.length && !matchMedia(sheet.media.mediaText).matches) continue;
      let rules; try { rules = sheet.cssRules; } catch (e) { continue; }
      walk(rules);
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
    if (!S.probe) {
      S.probe = document.createElement('div');
      S.probe.style.cssText = 'position:absolute!important;visibility:hidden!important;font-size:medium!important;height:0;left:0;top:0';
      document.documentElement.appendChild(S.probe);
    }
    S.probe.style.width = value;
    return S.probe.getBoundingClientRect().width;
  }
  function pageSize(value) {
    const tokens = String(value || '').trim().toLowerCase().split(/\s+/).filter(Boolean);
    let w = 816, h = 1056, orient = '';
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
    for (let k = 0; k < style.length; k++) {
      const name = style[k];
      out.push([name, style.getPropertyValue(name), style.getPropertyPriority(name) === 'important']);
    }
    return out;
  }
  function readPageRules(pageRules) {
    let order = 0;
    for (const r of pageRules) {
      const boxes = {};
      for (const m of r.cssRules || []) if (m.name) boxes[m.name] = declarations(m.style);
      S.pageRules.push({ selectors: parseSelectors(r.selectorText), order: order++, decls: declarations(r.style), boxes });
    }
    S.overlay = S.pageRules.some((r) => Object.values(r.boxes).some((d) => d.some(([n, v]) => n === 'content' && v.includes(SENTINEL))));
    if (S.overlay) for (const r of pageRules) for (const m of r.cssRules || []) if (m.style) m.style.setProperty('content', 'none', 'important');
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
    return { w, h, top: m('top'), right: m('right'), bottom: m('bottom'), left: m('left'), boxes: flat };
  }
  function inheritedStyle(el) {
    const cs = getComputedStyle(el);
    return INHERITED.map((p) => p + ':' + cs.getPropertyValue(p)).join(';');
  }
  function prepareRunning(styleRules) {
    const els = candidates(styleRules, '--fs-running').filter((el) => getComputedStyle(el).getPropertyValue('--fs-running').trim());
    for (const el of els) {
      if (!el.isConnected || S.running.some((r) => r.el.contains(el))) continue;
      const name = getComputedStyle(el).getPropertyValue('--fs-running').trim();
      const clone = el.cloneNode(true);
      for (const n of [clone, ...clone.querySelectorAll('[id]')]) n.removeAttribute('id');
      const mk = marker('r');
      el.parentNode.insertBefore(mk, el);
      S.running.push({ el, name, html: clone.outerHTML, inherited: inheritedStyle(el.parentElement || document.body), marker: mk.id });
      el.style.setProperty('display', 'none', 'important');
    }
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
      const end = marker('e');
      el.appendChild(end);
      S.named.push({ el, name, start: idFor(el, 'n'), end: end.id });
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
      const end = marker('b');
      el.appendChild(end);
      S.sides.push({ el, before, after, start: idFor(el, 's'), end: end.id, spacerBefore: null, spacerAfter: null });
    }
    S.sides.sort((a, b) => (a.el.compareDocumentPosition(b.el) & Node.DOCUMENT_POSITION_FOLLOWING ? -1 : 1));
  }
  function spacer() {
    const d = document.createElement('div');
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
        else { e.spacerBefore = spacer(); e.el.parentNode.insertBefore(e.spacerBefore, e.el); delta++; }
      }
      if (e.after && state.pages[e.end] !== undefined && wrong(state.pages[e.end] + 1 + delta, e.after)) {
        if (e.spacerAfter) { e.spacerAfter.remove(); e.spacerAfter = null; delta--; }
        else { e.spacerAfter = spacer(); e.el.parentNode.insertBefore(e.spacerAfter, e.el.nextSibling); delta++; }
      }
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
    const html = document.documentElement;
    const old = [html.style.getPropertyValue('width'), html.style.getPropertyPriority('width')];
    const cs = getComputedStyle(html);
    const sum = (props) => props.reduce((n, p) => n + (parseFloat(cs.getPropertyValue(p)) || 0), 0);
    const extra = sum(['margin-left', 'margin-right']) + (cs.boxSizing === 'border-box' ? 0 : sum(['padding-left', 'padding-right', 'border-left-width', 'border-right-width']));
    const out = {};
    for (const [width, ids] of Object.entries(groups)) {
      html.style.setProperty('width', Math.max(1, Number(width) - extra) + 'px', 'important');
      for (const id of ids) { const el = document.getElementById(id); if (el) { const r = el.getBoundingClientRect(); out[id] = [r.width, r.height]; } }
    }
    if (old[0]) html.style.setProperty('width', old[0], old[1]); else html.style.removeProperty('width');
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
      const controls = [...pg.querySelectorAll(CONTROLS)].filter((el) => el.closest('form, [data-fs-in-form]'));
      if (controls.length === 0) return;
      const page = Number(pg.getAttribute('data-fs-overlay-page'));
      const origin = pg.getBoundingClientRect();
      for (const el of controls) {
        const f = describeControl(el, newId('g'));
        if (!f) continue;
        // The copies on all pages share one radio group in the document: only the last stays checked. The markup's state is the one.
        if (f.kind === 'checkbox' || f.kind === 'radio') f.checked = el.defaultChecked;
        const r = el.getBoundingClientRect();
        S.overlayForms.push({ control: f, page, left: (r.left - origin.left) * 0.75, top: (r.top - origin.top) * 0.75 });
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
  function estimate() {
    const first = resolvePage(0, '');
    const contentH = Math.max(50, first.h - first.top - first.bottom);
    const top = (el) => { const r = el.getBoundingClientRect(); return r.top + window.scrollY; };
    const pages = {};
    for (const id of S.markers) { const el = document.getElementById(id); if (el) pages[id] = Math.max(0, Math.floor(top(el) / contentH)); }
    const total = Math.max(1, Math.ceil((document.documentElement.scrollHeight - 1) / contentH), ...Object.values(pages).map((p) => p + 1));
    const names = [];
    for (let i = 0; i < total; i++) names.push('');
    for (const n of S.named) for (let i = pages[n.start]; i <= Math.min(pages[n.end], total - 1); i++) names[i] = n.name;
    const sizes = names.map((name, i) => { const p = resolvePage(i, name); return [p.w * 0.75, p.h * 0.75]; });
    return { total, pages, names, sizes };
  }
  function addDestLinks() {
    const box = document.createElement('div');
    box.id = '__fs_links';
    box.style.setProperty('display', 'none', 'important');
    for (const id of S.markers) { const a = document.createElement('a'); a.href = '#' + id; box.appendChild(a); }
    document.body.appendChild(box);
  }
  function tokens(content) {
    const out = [];
    const re = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|counters?\(\s*([-\w]+)[^)]*\)|attr\([^)]*\)|url\([^)]*\)/g;
    let m;
    while ((m = re.exec(content))) {
      if (m[1] !== undefined || m[2] !== undefined) {
        const s = (m[1] !== undefined ? m[1] : m[2]).replace(/\\([0-9a-fA-F]{1,6})\s?/g, (_, h) => String.fromCodePoint(parseInt(h, 16))).replace(/\\([\s\S])/g, '$1');
        if (s.startsWith(SENTINEL)) out.push({ element: s.slice(SENTINEL.length) });
        else out.push({ text: s });
      } else if (m[3]) out.push({ counter: m[3] });
    }
    return out;
  }
  function chooseRunning(name, i, pages) {
    let chosen = null;
    for (const r of S.running) {
      if (r.name !== name) continue;
      const p = pages[r.marker];
      if (p === i) return r;
      if (p < i) chosen = r;
    }
    return chosen;
  }
  function boxGeometry(name, P) {
    const { w, h, top, right, bottom, left } = P;
    const cw = w - left - right, ch = h - top - bottom;
    const [side] = name.split('-');
    if (name.endsWith('-corner')) return { x: name.includes('left') ? 0 : w - right, y: side === 'top' ? 0 : h - bottom, w: name.includes('left') ? left : right, h: side === 'top' ? top : bottom };
    if (side === 'top' || side === 'bottom') return { x: left, y: side === 'top' ? 0 : h - bottom, w: cw, h: side === 'top' ? top : bottom, row: true };
    return { x: side === 'left' ? 0 : w - right, y: top, w: side === 'left' ? left : right, h: ch, row: false };
  }
  function buildBox(name, decls, i, state) {
    const content = decls.content;
    if (!content || content === 'none' || content === 'normal') return null;
    const cell = document.createElement('div');
    const pos = name.split('-')[1];
    const align = pos === 'left' ? 'left' : pos === 'right' ? 'right' : 'center';
    let valign = 'middle';
    let css = 'box-sizing:border-box;display:flex;flex-direction:column;overflow:visible;min-width:0;text-align:' + (name.startsWith('left') || name.startsWith('right') ? 'center' : name.endsWith('corner') ? (name.includes('left') ? 'right' : 'left') : align) + ';';
    for (const [n, v] of Object.entries(decls)) {
      if (n === 'content') continue;
      if (n === 'vertical-align') { valign = v; continue; }
      css += n + ':' + v + ';';
    }
    css += 'justify-content:' + (valign === 'top' ? 'flex-start' : valign === 'bottom' ? 'flex-end' : 'center') + ';';
    cell.style.cssText = css;
    const line = document.createElement('div');
    line.style.cssText = 'min-width:0;';
    for (const t of tokens(content)) {
      if (t.text !== undefined) line.appendChild(document.createTextNode(t.text));
      else if (t.counter === 'page') line.appendChild(document.createTextNode(String(i + 1)));
      else if (t.counter === 'pages') line.appendChild(document.createTextNode(String(state.total)));
      else if (t.element) {
        const r = chooseRunning(t.element, i, state.pages);
        if (!r) continue;
        const wrap = document.createElement('div');
        wrap.style.cssText = r.inherited + ';text-align:inherit';
        const tpl = document.createElement('template');
        tpl.innerHTML = r.html;
        const node = tpl.content.firstElementChild;
        if (node) {
          node.style.removeProperty('display');
          wrap.appendChild(node);
        }
        // Its controls are fields when the running element sat in a form (overlayForms).
        if (r.el.closest('form')) wrap.setAttribute('data-fs-in-form', '');
        line.appendChild(wrap);
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
  function buildOverlay(state) {
    const old = document.getElementById('__fs_overlay');
    if (old) old.remove();
    const oldStyle = document.getElementById('__fs_overlay_style');
    if (oldStyle) oldStyle.remove();
    if (!S.overlay) return;
    const root = document.createElement('div');
    root.id = '__fs_overlay';
    root.style.cssText = 'display:block!important;margin:0!important;padding:0!important;border:0!important;position:static!important;background:transparent!important;float:none!important;width:auto!important;height:auto!important;columns:auto!important;';
    const sizeNames = new Map();
    let rules = '';
    const start = document.createElement('span');
    if (!S.overlayStart) { S.overlayStart = newId('o'); S.markers.push(S.overlayStart); }
    start.id = S.overlayStart;
    for (let i = 0; i < state.total; i++) {
      const [wPt, hPt] = state.sizes[i];
      const key = wPt.toFixed(2) + 'x' + hPt.toFixed(2);
      if (!sizeNames.has(key)) {
        const nm = '__fs_ov' + sizeNames.size;
        sizeNames.set(key, nm);
        rules += '@page ' + nm + '{size:' + wPt + 'pt ' + hPt + 'pt!important;margin:0!important;background:none!important;}';
      }
      const P = resolvePage(i, state.names[i] || '');
      P.w = wPt / 0.75; P.h = hPt / 0.75;
      const pg = document.createElement('div');
      pg.style.cssText = 'page:' + sizeNames.get(key) + ';break-before:page;break-after:avoid;break-inside:avoid;position:relative;overflow:hidden;margin:0;padding:0;border:0;background:transparent;display:block;box-sizing:border-box;'
        + 'width:' + P.w + 'px;height:' + (P.h - 0.5) + 'px;counter-reset:page ' + (i + 1) + ' pages ' + state.total + ';';
      pg.setAttribute('data-fs-overlay-page', String(i));
      if (i === 0) pg.appendChild(start);
      for (const corner of ['top-left-corner', 'top-right-corner', 'bottom-left-corner', 'bottom-right-corner']) {
        const decls = P.boxes[corner];
        const cell = decls && buildBox(corner, decls, i, state);
        if (!cell) continue;
        place(cell, boxGeometry(corner, P));
        pg.appendChild(cell);
      }
      for (const [side, names] of SIDES) {
        const cells = names.map((n) => (P.boxes[n] ? buildBox(n, P.boxes[n], i, state) : null));
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
        for (const cell of order) band.appendChild(cell || document.createElement('div'));
        pg.appendChild(band);
      }
      root.appendChild(pg);
    }
    const st = document.createElement('style');
    st.id = '__fs_overlay_style';
    st.textContent = rules;
    document.head.appendChild(st);
    document.documentElement.appendChild(root);
    overlayForms(root);
  }
  function layout(state) {
    if (state.fixSides) applySides(state);
    for (const c of S.counters) {
      const p = state.pages[c.id];
      c.el.style.setProperty('counter-reset', (c.base ? c.base + ' ' : '') + 'page ' + ((p === undefined ? 0 : p) + 1) + ' pages ' + state.total, 'important');
    }
    buildOverlay(state);
  }
  window.__castpress = {
    async prepare() {
      await document.fonts.ready;
      hideBrokenImages();
      const { style, page } = collectRules();
      readPageRules(page);
      prepareRunning(style);
      prepareCounters(style);
      prepareNamed(style);
      prepareTables(style);
      prepareSideBreaks(style);
      prepareForms();
      const calib = document.createElement('span');
      calib.style.cssText = 'position:absolute!important;left:0!important;top:0!important;width:0!important;height:0!important;margin:0!important;visibility:hidden!important';
      calib.id = newId('k');
      document.documentElement.appendChild(calib);
      const needsLayout = S.overlay || S.counters.length > 0 || S.sides.length > 0;
      const needsDests = needsLayout || S.forms.length > 0;
      if (needsDests) S.markers.push(calib.id);
      if (S.overlay) moveCanvasBackground();
      const guess = estimate();
      if (needsLayout) layout(guess);
      if (needsDests) addDestLinks();
      return {
        needsLayout, needsDests, overlay: S.overlay, guess, calibration: calib.id, overlayStart: S.overlayStart || null,
        running: S.running.map((r) => ({ name: r.name, marker: r.marker })),
        counters: S.counters.map((c) => c.id),
        named: S.named.map((n) => ({ name: n.name, start: n.start, end: n.end })),
        sides: S.sides.map((e) => ({ start: e.start, end: e.end, before: e.before, after: e.after })),
        forms: S.forms, layoutWidth: S.layoutWidth, overlayForms: S.overlayForms || [],
      };
    },
    layout(state) { layout(state); return S.overlayForms || []; },
    measureForms,
    resolvePages(names) { return names.map((n, i) => { const p = resolvePage(i, n); return { top: p.top, right: p.right, bottom: p.bottom, left: p.left }; }); },
  };
})();
`;
