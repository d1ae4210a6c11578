import { loadResourceWithReason, type LookupAll, type ResourceProblem, type ResourceResolver } from '../resources/index.js';
import { absolutizeUrls, ImportBudget, inlineImports, rewriteGcpm, rewriteHtmlGcpm, type FetchText } from './css-rewrite.js';
import { defaultDocumentCss, type HtmlPageOptions } from './page-css.js';
import { classifyUrl, refusalReason } from './network-guard.js';

export interface DocumentInput {
  html: string;
  css?: string;
  title?: string;
  page?: HtmlPageOptions;
  /** Base for relative URLs in `html` and `css` (fetched through the resolver like any remote URL). */
  baseUrl?: string;
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

function escapeHtml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** `</style` inside CSS would end our `<style>` element early. */
function styleBlock(css: string, id?: string): string {
  return `<style${id ? ` id="${id}"` : ''}>${css.replace(/<\/(style)/gi, '<\\/$1')}</style>`;
}

function attr(tag: string, name: string): string | undefined {
  const m = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, 'i').exec(tag);
  return m ? (m[1] ?? m[2] ?? m[3]) : undefined;
}

function makeFetchText(policy: FetchPolicy, budget: ImportBudget): FetchText {
  return async (url) => {
    budget.checkAborted();
    const problem = (reason: string): null => {
      policy.onProblem?.({ url, kind: 'stylesheet', reason });
      return null;
    };
    if (!url.startsWith('data:') && classifyUrl(url) === 'refuse') return problem(refusalReason(url));
    const outcome = await loadResourceWithReason(url, 'stylesheet', policy.resolver, { maxBytes: policy.maxResourceBytes, lookup: policy.lookup });
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
  return html.replace(/<meta\b[^>]*>/gi, (tag) => {
    const value = attr(tag, 'http-equiv');
    if (value === undefined) return tag;
    // Attribute values may spell the keyword with character references (`&#114;efresh`).
    const decoded = value
      .replace(/&#x([0-9a-f]+);?/gi, (_m, h: string) => String.fromCodePoint(Math.min(parseInt(h, 16), 0x10ffff)))
      .replace(/&#(\d+);?/g, (_m, d: string) => String.fromCodePoint(Math.min(Number(d), 0x10ffff)));
    return decoded.trim().toLowerCase() === 'refresh' ? '' : tag;
  });
}

async function replaceAsync(text: string, re: RegExp, fn: (m: RegExpMatchArray) => Promise<string>): Promise<string> {
  const matches = [...text.matchAll(re)];
  if (matches.length === 0) return text;
  const replacements = await Promise.all(matches.map(fn));
  let out = '';
  let last = 0;
  matches.forEach((m, i) => {
    out += text.slice(last, m.index) + replacements[i];
    last = m.index! + m[0].length;
  });
  return out + text.slice(last);
}

/**
 * The document Chromium receives: the caller's HTML in standards mode, our
 * defaults first (lowest precedence), every stylesheet inlined so its rules
 * are readable from the CSSOM, and the paged-media extensions renamed.
 */
export async function buildDocument(input: DocumentInput, policy: FetchPolicy): Promise<string> {
  const budget = new ImportBudget(policy.maxResourceBytes, policy.signal);
  const fetchText = makeFetchText(policy, budget);
  let html = dropMetaRefresh(input.html);
  const docBase = input.baseUrl ?? attr(/<base\b[^>]*>/i.exec(html)?.[0] ?? '', 'href');

  html = await replaceAsync(html, /<link\b[^>]*>/gi, async (m) => {
    const tag = m[0];
    if (!/\srel\s*=\s*["']?[^"'>]*\bstylesheet\b/i.test(tag)) return tag;
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
  html = await replaceAsync(html, /(<style\b[^>]*>)([\s\S]*?)(<\/style\s*>)/gi, async (m) => m[1]! + (await inlineImports(m[2]!, docBase, fetchText, budget)) + m[3]!);
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
    styleBlock(defaultDocumentCss(input.page), '__fs_defaults');

  const doctype = /^\s*<!doctype[^>]*>/i.exec(html);
  const rest = doctype ? html.slice(doctype[0].length) : html;
  const head = /<head\b[^>]*>/i.exec(rest);
  let body: string;
  if (head) {
    const at = head.index + head[0].length;
    body = rest.slice(0, at) + first + rest.slice(at);
    const close = /<\/head\s*>/i.exec(body);
    body = close ? body.slice(0, close.index) + userCss + body.slice(close.index) : body.replace(first, first + userCss);
  } else {
    const open = /<html\b[^>]*>/i.exec(rest);
    if (open) {
      const at = open.index + open[0].length;
      body = rest.slice(0, at) + `<head>${first}${userCss}</head>` + rest.slice(at);
    } else {
      body = `<head>${first}${userCss}</head>` + rest;
    }
  }
  // Fragments get standards mode: quirks mode changes table and line-height layout.
  return (doctype ? doctype[0] : '<!DOCTYPE html>') + body;
}
