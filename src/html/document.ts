import {
  loadResourceWithReason,
  type LookupAll,
  type ResourceProblem,
  type ResourceResolver,
} from '../resources/index.js';
import {
  absolutizeUrls,
  ImportBudget,
  inlineImports,
  rewriteGcpm,
  rewriteHtmlGcpm,
  type FetchText,
} from './css/rewrite.js';
import { escapeHtml } from '../format/index.js';
import { defaultDocumentCss, type HtmlPageOptions } from './css/page-css.js';
import { DEFAULTS_STYLE_ID } from './in-page/contract.js';
import { attr, closingTag, findElements, findTags, firstTag, spliceSpans } from './css/tags.js';
import { classifyUrl, refusalReason } from './chromium/network-guard.js';

export interface DocumentInput {
  html: string;
  css?: string;
  title?: string;
  page?: HtmlPageOptions;
  /** Base for relative URLs in `html` and `css` (fetched through the resolver like any remote URL). */
  baseUrl?: string;
  /** The document's language (BCP 47) when its `<html>` names none: Chromium tags it as the PDF's /Lang. */
  lang?: string;
}

export interface FetchPolicy {
  resolver?: ResourceResolver;
  maxResourceBytes: number;
  /** Aborts the build when the job's deadline passes. */
  signal?: AbortSignal;
  /** Host lookups for the address check (the pool's shared one). */
  lookup?: LookupAll;
  /** A stylesheet (`<link>`, `@import`) did not load, and why. */
  onProblem?: (problem: ResourceProblem) => void;
}

/** `</style` inside CSS would end our `<style>` element early. */
function styleBlock(css: string, id?: string): string {
  return `<style${id ? ` id="${id}"` : ''}>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

function makeFetchText(policy: FetchPolicy, budget: ImportBudget): FetchText {
  return async (url) => {
    budget.checkAborted();
    const problem = (reason: string): null => {
      policy.onProblem?.({ url, kind: 'stylesheet', reason });
      return null;
    };
    if (!url.startsWith('data:') && classifyUrl(url) === 'refuse') return problem(refusalReason(url));
    const outcome = await loadResourceWithReason(url, 'stylesheet', policy.resolver, {
      maxBytes: policy.maxResourceBytes,
      lookup: policy.lookup,
    });
    budget.checkAborted();
    return 'resource' in outcome ? Buffer.from(outcome.resource.body).toString('utf8') : problem(outcome.reason);
  };
}

/**
 * `<meta http-equiv=refresh>` would navigate the page away from the document
 * being printed (a refresh to the document's own URL replaces it with an empty
 * one): it is dropped, as a print of the document ignores it anyway.
 */
function dropMetaRefresh(html: string): string {
  if (!/http-equiv/i.test(html)) return html;
  const tags = findTags(html, 'meta');
  return spliceSpans(
    html,
    tags,
    tags.map(({ start, end }) => {
      const tag = html.slice(start, end);
      const value = attr(tag, 'http-equiv');
      if (value === undefined) return tag;
      // Attribute values may spell the keyword with character references (`&#114;efresh`).
      const decoded = value
        .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
        .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)));
      return decoded.trim().toLowerCase() === 'refresh' ? '' : tag;
    }),
  );
}

/** `text` with each span replaced by what `replace` resolves to for it; the replacements run in parallel. */
async function spliceAsync<T extends { start: number; end: number }>(
  text: string,
  spans: T[],
  replace: (span: T) => Promise<string>,
): Promise<string> {
  if (spans.length === 0) return text;
  return spliceSpans(text, spans, await Promise.all(spans.map(replace)));
}

/**
 * The document Chromium receives: the caller's HTML in standards mode, our
 * defaults first (lowest precedence), every stylesheet inlined so its rules
 * are readable from the CSSOM, and the paged-media extensions renamed.
 */
export async function buildDocument(input: DocumentInput, policy: FetchPolicy): Promise<string> {
  const budget = new ImportBudget(policy.maxResourceBytes, policy.signal, (url, reason) =>
    policy.onProblem?.({ url, kind: 'stylesheet', reason }),
  );
  const fetchText = makeFetchText(policy, budget);
  let html = dropMetaRefresh(input.html);
  const baseTag = firstTag(html, 'base');
  const docBase = input.baseUrl ?? attr(baseTag ? html.slice(baseTag.start, baseTag.end) : '', 'href');

  const source = html;
  html = await spliceAsync(source, findTags(source, 'link'), async ({ start, end }) => {
    const tag = source.slice(start, end);
    if (!(attr(tag, 'rel') ?? '').toLowerCase().split(/\s+/).includes('stylesheet')) return tag;
    const href = attr(tag, 'href');
    if (!href) return '';
    let abs: string;
    try {
      abs = docBase ? new URL(href, docBase).href : new URL(href).href;
    } catch {
      return '';
    }
    const text = await fetchText(abs);
    if (text === null) return '';
    budget.spend(text);
    const css = await inlineImports(rewriteGcpm(absolutizeUrls(text, abs)), abs, fetchText, budget);
    const media = attr(tag, 'media');
    return styleBlock(media && media.trim() && media.trim() !== 'all' ? `@media ${media} {\n${css}\n}` : css);
  });
  const linked = html;
  html = await spliceAsync(
    linked,
    findElements(linked, 'style').map((e) => ({ start: e.open.end, end: e.close.start })),
    ({ start, end }) => inlineImports(linked.slice(start, end), docBase, fetchText, budget),
  );
  html = rewriteHtmlGcpm(html);

  let userCss = '';
  if (input.css) {
    const base = docBase;
    const css = base ? absolutizeUrls(input.css, base) : input.css;
    userCss = styleBlock(await inlineImports(rewriteGcpm(css), base, fetchText, budget));
  }
  const first =
    '<meta charset="utf-8">' +
    (input.baseUrl ? `<base href="${escapeHtml(input.baseUrl)}">` : '') +
    (input.title !== undefined ? `<title>${escapeHtml(input.title)}</title>` : '') +
    // The script faces the document's text needs (HTML, inlined stylesheets and the request's css: their content strings count too).
    styleBlock(defaultDocumentCss(input.page, html + userCss), DEFAULTS_STYLE_ID);

  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const rest = doctype ? html.slice(doctype[0].length) : html;
  const head = firstTag(rest, 'head');
  let body: string;
  if (head) {
    const at = head.end;
    body = rest.slice(0, at) + first + rest.slice(at);
    const close = closingTag(body, 'head', at + first.length);
    body = close
      ? body.slice(0, close.start) + userCss + body.slice(close.start)
      : body.slice(0, at + first.length) + userCss + body.slice(at + first.length);
  } else {
    const open = firstTag(rest, 'html');
    if (open) {
      const at = open.end;
      body = rest.slice(0, at) + `<head>${first}${userCss}</head>` + rest.slice(at);
    } else {
      body = `<head>${first}${userCss}</head>` + rest;
    }
  }
  // Fragments get standards mode: quirks mode changes table and line-height layout.
  return (doctype ? doctype[0] : '<!DOCTYPE html>') + withLang(body, input.lang);
}

/**
 * The language the built document's root element names (`<html lang>`, the request's written there when
 * the document names none), when it is a language tag; undefined otherwise.
 */
export function documentLang(html: string): string | undefined {
  const root = firstTag(html, 'html');
  const lang = root ? attr(html.slice(root.start, root.end), 'lang')?.trim() : undefined;
  return lang && /^[A-Za-z]{1,8}(-[A-Za-z0-9]{1,8})*$/.test(lang) ? lang : undefined;
}

/** `html` with `lang` on its root element when it names no language of its own (one without a root gets one). */
function withLang(html: string, lang: string | undefined): string {
  if (!lang) return html;
  const value = ` lang="${escapeHtml(lang)}"`;
  const root = firstTag(html, 'html');
  if (!root) return `<html${value}>${html}`;
  const tag = html.slice(root.start, root.end);
  if (attr(tag, 'lang') !== undefined) return html;
  return html.slice(0, root.start + 5) + value + html.slice(root.start + 5);
}
