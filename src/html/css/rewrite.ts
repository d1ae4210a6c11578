import { PayloadTooLargeError, RenderError } from '../../errors/index.js';
import {
  BLANK_PAGE,
  BLEED_SENTINEL,
  ELEMENT_SENTINEL,
  FUNCTION_SENTINEL,
  MARKS_SENTINEL,
  STRING_SENTINEL,
} from '../in-page/contract.js';
import { rewriteFootnotes } from './footnote-css.js';
import { rewritePageFloats } from './page-float-css.js';
import { rewriteNthPages } from './page-selectors.js';
import { closing, mapPageBlocks, stringEnd } from './scan.js';
import { findElements, spliceSpans } from './tags.js';

/**
 * Chromium drops declarations it does not understand at parse time, so the
 * paged-media extensions it lacks are renamed into forms it keeps:
 * - `position: running(x)` → custom property `--fs-running: x` (registered as
 *   non-inherited, so the cascade decides which element runs, not inheritance), plus
 *   `position: static`, how GCPM lays out the element in its margin box;
 * - `content: element(x[, policy])` → a sentinel string we find in the CSSOM — only when
 *   `element()` is the whole value: mixed with anything else it is invalid CSS, so it is left
 *   for Chromium to drop and the cascade falls back to the previous valid declaration;
 * - `string(x[, policy])` → a sentinel string (it may be mixed with strings and counters);
 * - `string-set` → `--fs-string-set`, `bookmark-level|label|state` → `--fs-bookmark-*` (non-inherited, read in the page);
 * - `break-before/after: always | all` (css-break-4 values Chromium lacks) → `page`;
 * - `-fs-table-paginate` → `--fs-table-paginate`;
 * - `@page :blank` (Chromium drops the rule) → the page name of the blank pages castpress inserts for
 *   left/right breaks (`:left:blank` → `__fs_blank:left`); `name:blank` cannot carry two names and is
 *   left for Chromium to drop;
 * - inside `@page` rules, `bleed` and `marks` (css-page-3 descriptors Chromium drops, custom properties
 *   included) → `quotes: "__fs_bleed__" "<value>"` and `content: "__fs_marks__<value>"`: both are kept in a
 *   page rule's CSSOM and do nothing there;
 * - footnotes (`float: footnote`, `::footnote-call`, `::footnote-marker`, `@footnote`…): footnote-css.ts;
 * - page floats (`float: top | bottom`): page-float-css.ts;
 * - `@page :nth(An+B [of name])` → a page name no element has: page-selectors.ts.
 */
// The sentinels (ELEMENT_SENTINEL, STRING_SENTINEL, FUNCTION_SENTINEL, BLEED_/MARKS_SENTINEL) are the page
// contract's (page/contract.ts): the page code reads them back.
const FUNCTIONS = /(?<![-\w])(target-counters?|target-text|leader)\(/gi;

/**
 * Replaces each call of the functions above by a sentinel string holding its name and arguments (double
 * quotes turned single so the string stays one CSS token); nested parentheses (`attr(href url)`) are kept.
 */
function keepFunctions(css: string): string {
  let out = '';
  let last = 0;
  FUNCTIONS.lastIndex = 0;
  for (let m = FUNCTIONS.exec(css); m; m = FUNCTIONS.exec(css)) {
    const i = closing(css, m.index + m[0].length, '(', ')');
    if (i < 0) break;
    const args = css
      .slice(m.index + m[0].length, i - 1)
      .replace(/"/g, "'")
      .replace(/\n/g, ' ');
    out += css.slice(last, m.index) + `"${FUNCTION_SENTINEL}${m[1]!.toLowerCase()}(${args})"`;
    last = i;
    FUNCTIONS.lastIndex = i;
  }
  return out + css.slice(last);
}

const RUNNING = /position\s*:\s*running\(\s*([-\w]+)\s*\)(\s*!\s*important)?/gi;
const ELEMENT =
  /(?<![-\w])(content\s*:\s*)element\(\s*([-\w]+)\s*(?:,\s*([-\w]+)\s*)?\)(?=\s*(?:!\s*important\s*)?(?:;|\}|$))/gi;
const STRING = /(?<![-\w])string\(\s*([-\w]+)\s*(?:,\s*([-\w]+)\s*)?\)/gi;
const STRING_SET = /(?<![-\w])string-set\s*:/gi;
const BOOKMARK = /(?<![-\w])bookmark-(level|label|state)\s*:/gi;
const BREAK_ALWAYS = /(?<![-\w])(break-(?:before|after)\s*:\s*)(?:always|all)(?![-\w])/gi;
const PAGINATE = /(?<![-\w])-fs-table-paginate\s*:/gi;
// Each repetition starts with a colon: no two ways to split the pseudo-classes, linear on any input.
const PAGE_PSEUDOS = /@page\s*((?::[-\w]+)+)/gi;
const ANY =
  /footnote|float\s*:\s*(?:top|bottom)|float-reference|:nth\(|:blank|bleed\s*:|marks\s*:|running\(|element\(|string\(|string-set|-fs-table-paginate|break-(?:before|after)\s*:\s*(?:always|all)|target-(?:counters?|text)\(|leader\(|bookmark-(?:level|label|state)/i;

function sentinel(prefix: string, name: string, policy: string | undefined): string {
  return `"${prefix}${name}${policy ? `|${policy.toLowerCase()}` : ''}"`;
}

/**
 * The `bleed` and `marks` descriptors of every `@page` block (margin boxes included), renamed as above.
 * Hand-written scans, linear in the text: the CSS comes from the caller, and a backtracking pattern here
 * took 16 s on 120 KB (`bleed:` repeated before a `!`).
 */
function keepPageDescriptors(css: string): string {
  if (!/@page/i.test(css) || !/(bleed|marks)\s*:/i.test(css)) return css;
  return mapPageBlocks(css, (prelude, body) => `@page${prelude}{${renameDescriptors(body)}}`);
}

/** Inside one `@page` block: declarations named bleed or marks, outside strings (`content: "marks: x"` is text). */
function renameDescriptors(block: string): string {
  let out = '';
  let atStart = true;
  for (let i = 0; i < block.length;) {
    const c = block[i]!;
    if (c === '"' || c === "'") {
      const j = stringEnd(block, i);
      out += block.slice(i, j);
      i = j;
      atStart = false;
      continue;
    }
    if (c === ';' || c === '{' || c === '}') {
      out += c;
      i++;
      atStart = true;
      continue;
    }
    if (atStart && !/\s/.test(c)) {
      atStart = false;
      const name = /^(bleed|marks)\s*:/i.exec(block.slice(i, i + 48));
      if (name) {
        let j = i + name[0].length;
        while (j < block.length && !';{}"\''.includes(block[j]!)) j++;
        // A value with a string in it is no bleed or marks value: left for Chromium to drop.
        if (j >= block.length || !'"\''.includes(block[j]!)) {
          const raw = block.slice(i + name[0].length, j);
          const important = /!\s*important\s*$/i.test(raw) ? ' !important' : '';
          const value = raw.replace(/!\s*important\s*$/i, '').trim();
          out +=
            name[1]!.toLowerCase() === 'bleed'
              ? `quotes: "${BLEED_SENTINEL}" "${value}"${important}`
              : `content: "${MARKS_SENTINEL}${value}"${important}`;
          i = j;
          continue;
        }
      }
    }
    out += c;
    i++;
  }
  return out;
}

export function rewriteGcpm(css: string): string {
  if (!ANY.test(css)) return css;
  return (
    keepFunctions(keepPageDescriptors(rewriteNthPages(rewritePageFloats(rewriteFootnotes(css)))))
      .replace(
        RUNNING,
        // GCPM lays a running element out as position: static in its margin box; the declaration it
        // replaces would have beaten the author's earlier position (absolute, fixed...) in the cascade.
        (_m, name: string, imp: string | undefined) =>
          `position: static${imp ?? ''}; --fs-running: ${name}${imp ?? ''}`,
      )
      .replace(
        ELEMENT,
        (_m, lead: string, name: string, policy: string | undefined) => lead + sentinel(ELEMENT_SENTINEL, name, policy),
      )
      // In parentheses: computed content merges neighbouring strings, so the sentinel needs an end.
      .replace(
        STRING,
        (_m, name: string, policy: string | undefined) =>
          `"${STRING_SENTINEL}(${name}${policy ? `|${policy.toLowerCase()}` : ''})"`,
      )
      .replace(STRING_SET, '--fs-string-set:')
      .replace(BOOKMARK, '--fs-bookmark-$1:')
      .replace(BREAK_ALWAYS, '$1page')
      .replace(PAGINATE, '--fs-table-paginate:')
      .replace(PAGE_PSEUDOS, (m, pseudos: string) =>
        /:blank(?![-\w])/i.test(pseudos) ? `@page ${BLANK_PAGE}${pseudos.replace(/:blank(?![-\w])/gi, '')}` : m,
      )
  );
}

/** Applies {@link rewriteGcpm} to `<style>` contents and `style` attributes only, never to text. */
export function rewriteHtmlGcpm(html: string): string {
  if (!ANY.test(html)) return html;
  const styles = findElements(html, 'style').map((e) => ({ start: e.open.end, end: e.close.start }));
  return spliceSpans(
    html,
    styles,
    styles.map(({ start, end }) => rewriteGcpm(html.slice(start, end))),
  ).replace(/(\sstyle\s*=\s*)("[^"]*"|'[^']*')/gi, (_m, lead: string, value: string) => lead + rewriteGcpm(value));
}

// Linear on any input: the white space runs are atomic (a captured lookahead, then its backreference), so a
// failed match does not retry every split of a long run between the two \s*; the bare form stops at `(`
// (a url token cannot hold one), so `url(url(url(…` does not rescan the rest each time.
const URL_TOKEN = /url\((?=(\s*))\1(?:"([^"]*)"|'([^']*)'|([^()'"\s]*))(?=(\s*))\5\)/gi;

/** Makes `url()` references absolute so a sheet keeps working once inlined into the document. */
export function absolutizeUrls(css: string, base: string): string {
  return css.replace(
    URL_TOKEN,
    (whole, _lead: string, dq: string | undefined, sq: string | undefined, bare: string | undefined) => {
      const ref = dq ?? sq ?? bare ?? '';
      if (ref === '' || ref.startsWith('data:') || ref.startsWith('#')) return whole;
      try {
        return `url(${JSON.stringify(new URL(ref, base).href)})`;
      } catch {
        return whole;
      }
    },
  );
}

const IMPORT = /@import\s+(?:url\(\s*(?:"([^"]*)"|'([^']*)'|([^)'"\s]*))\s*\)|"([^"]*)"|'([^']*)')\s*([^;]*);/gi;

export type FetchText = (url: string) => Promise<string | null>;

/** Distinct stylesheets one document may import (over all `@import` levels). */
const MAX_IMPORTED_SHEETS = 256;
/** `@import` levels followed at all; deeper imports are dropped. */
const MAX_IMPORT_DEPTH = 8;
/**
 * `data:` stylesheets cost nothing to fetch, so a few hundred bytes can nest many of them: at most this many
 * per document, and none imported deeper than `MAX_DATA_IMPORT_DEPTH` levels; past either the import is
 * skipped with a resource warning (the document still renders).
 */
const MAX_DATA_SHEETS = 32;
const MAX_DATA_IMPORT_DEPTH = 4;

/**
 * What one document's `@import` inlining may cost. Shared by every sheet of the
 * document: each stylesheet URL (fragment ignored) is inlined once, at its
 * first `@import`, so repeated and cyclic imports (a sheet importing itself
 * through `#0`, `a → b → a`) cost nothing; past the count or byte budget the
 * document is refused (413) rather than built; `data:` sheets past their own budget are skipped.
 */
export class ImportBudget {
  readonly #seen = new Set<string>();
  #sheets = 0;
  #bytes = 0;
  /** `data:` stylesheets followed so far, and whether the skip was reported (once per document). */
  dataSheets = 0;
  #reported = false;

  readonly #onSkipped: ((url: string, reason: string) => void) | undefined;

  constructor(
    readonly maxBytes: number,
    readonly signal?: AbortSignal,
    onSkipped?: (url: string, reason: string) => void,
  ) {
    this.#onSkipped = onSkipped;
  }

  /** False when `url` was already inlined (or is being inlined) in this document. */
  claim(url: string): boolean {
    return this.follow(url, 0);
  }

  /** Whether to inline `url`, imported by a sheet `depth` levels deep: new, and within the document's budgets. */
  follow(url: string, depth: number): boolean {
    this.checkAborted();
    if (depth >= MAX_IMPORT_DEPTH) return false;
    const key = url.replace(/#.*$/s, '');
    if (this.#seen.has(key)) return false;
    if (/^data:/i.test(url)) {
      if (depth >= MAX_DATA_IMPORT_DEPTH || this.dataSheets >= MAX_DATA_SHEETS) {
        if (!this.#reported) {
          this.#reported = true;
          this.#onSkipped?.(
            url.length > 64 ? `${url.slice(0, 64)}…` : url,
            `nested data: stylesheets past the budget (${MAX_DATA_SHEETS} sheets, ${MAX_DATA_IMPORT_DEPTH} levels) were not loaded`,
          );
        }
        return false;
      }
      this.dataSheets++;
    }
    this.#seen.add(key);
    if (++this.#sheets > MAX_IMPORTED_SHEETS) {
      throw new PayloadTooLargeError(`The document imports more than ${MAX_IMPORTED_SHEETS} stylesheets`, 'html');
    }
    return true;
  }

  /** Counts fetched stylesheet text against the document's byte budget. */
  spend(text: string): void {
    this.checkAborted();
    this.#bytes += text.length;
    if (this.#bytes > this.maxBytes) {
      throw new PayloadTooLargeError(`The document's stylesheets exceed ${this.maxBytes} bytes in total`, 'html');
    }
  }

  checkAborted(): void {
    if (this.signal?.aborted) throw new RenderError('Document preparation was cancelled (deadline passed)', 504);
  }
}

/**
 * Replaces `@import` rules by the imported text (fetched through the caller's
 * resolver), recursively. Inlined sheets are same-origin, which keeps their
 * rules readable from the CSSOM (cross-origin sheets hide `cssRules`).
 */
export async function inlineImports(
  css: string,
  base: string | undefined,
  fetchText: FetchText,
  budget: ImportBudget,
  depth = 0,
): Promise<string> {
  if (!/@import/i.test(css)) return css;
  const jobs: Array<Promise<string>> = [];
  const parts: string[] = [];
  let last = 0;
  for (const m of css.matchAll(IMPORT)) {
    parts.push(css.slice(last, m.index));
    last = m.index + m[0].length;
    const ref = m[1] ?? m[2] ?? m[3] ?? m[4] ?? m[5] ?? '';
    const media = (m[6] ?? '').trim();
    let abs: string | null = null;
    try {
      abs = base ? new URL(ref, base).href : new URL(ref).href;
    } catch {
      abs = null;
    }
    jobs.push(
      (async () => {
        // Claimed before the first await (synchronously, in source order), so parallel imports of one URL
        // inline it once; a budget error rejects this job, which Promise.all below always observes.
        const fresh = abs !== null && budget.follow(abs, depth);
        if (!fresh || abs === null) return '';
        const text = await fetchText(abs);
        if (text === null) return '';
        budget.spend(text);
        const inner = await inlineImports(rewriteGcpm(absolutizeUrls(text, abs)), abs, fetchText, budget, depth + 1);
        // layer()/supports() conditions are dropped: Chromium would need them as @import.
        const mediaList = media
          .replace(/\b(layer|supports)\([^)]*\)/gi, '')
          .replace(/\blayer\b/gi, '')
          .trim();
        return mediaList ? `@media ${mediaList} {\n${inner}\n}` : inner;
      })(),
    );
    parts.push('\u0000');
  }
  parts.push(css.slice(last));
  const inlined = await Promise.all(jobs);
  let k = 0;
  return parts.map((p) => (p === '\u0000' ? inlined[k++]! : p)).join('');
}
