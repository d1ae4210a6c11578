import type { Page, Request, Route } from 'playwright-core';
import { readFile } from 'node:fs/promises';
import {
  isTtfContentType,
  loadResourceWithReason,
  ttfContentTypeProblem,
  type LookupAll,
  type ResourceKind,
  type ResolvedResource,
  type ResourceProblem,
  type ResourceResolver,
} from '../../resources/index.js';
import { catalogueFontAt } from '../web-fonts/catalogue.js';
import { rewriteGcpm } from '../css/rewrite.js';
import type { WebFontCache } from '../web-fonts/convert.js';

/**
 * Loopback is refused even when a resolver would serve it: content must never
 * reach services on the rendering host. Chromium canonicalises hosts in the
 * request URL (decimal, hex and short IPv4 forms become dotted quads).
 */
function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, '');
  if (h === 'localhost' || h.endsWith('.localhost')) return true;
  if (/^127\.\d+\.\d+\.\d+$/.test(h) || h === '0.0.0.0') return true;
  if (h === '::1' || h === '::' || /^::ffff:(127\.|7f)/.test(h) || h === '0:0:0:0:0:0:0:1') return true;
  return false;
}

export type UrlVerdict = 'fetch' | 'refuse';

export function classifyUrl(url: string): UrlVerdict {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return 'refuse';
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return 'refuse';
  return isLoopbackHost(parsed.hostname) ? 'refuse' : 'fetch';
}

/** Why classifyUrl refused a URL, for warnings. */
export function refusalReason(url: string): string {
  return /^https?:/i.test(url) ? 'loopback addresses never load' : 'only http(s) and data: URLs load';
}

/** Why a downloaded @font-face source was refused, for warnings. */
const NOT_A_TTF_FONT = 'not a TrueType or OpenType font file (WOFF, WOFF2 and collections are not used)';

function kindOf(resourceType: string): ResourceKind {
  if (resourceType === 'stylesheet') return 'stylesheet';
  if (resourceType === 'image') return 'image';
  if (resourceType === 'font') return 'webfont';
  return 'other';
}

/**
 * The spec uses only TTF font files: by their first bytes, TrueType (0x00010000, 'true') or OpenType
 * ('OTTO', whose CFF outlines `WebFontCache` converts to TrueType before Chromium gets them, so what
 * Chromium draws is TrueType). WOFF, WOFF2 and collections are not font files the spec uses.
 */
function isTtfFont(body: Uint8Array): boolean {
  if (body.byteLength < 4) return false;
  const sig = ((body[0]! << 24) | (body[1]! << 16) | (body[2]! << 8) | body[3]!) >>> 0;
  return [0x00010000, 0x74727565, 0x4f54544f].includes(sig);
}

/** An @font-face source the spec ignores, and why: a content type other than font/ttf or application/x-font-ttf, or no TTF body. */
function webFontProblem(res: ResolvedResource): string | undefined {
  if (!isTtfContentType(res.contentType)) return ttfContentTypeProblem(res.contentType);
  return isTtfFont(res.body) ? undefined : NOT_A_TTF_FONT;
}

export interface GuardOptions {
  resolver?: ResourceResolver;
  maxResourceBytes: number;
  /** Host lookups for the address check (the pool's shared, coalescing one). */
  lookup?: LookupAll;
  /** CFF web fonts become TrueType here before Chromium gets them (absent: fonts go as they came). */
  webFonts?: WebFontCache;
  /** Called for every URL the document tried to load (tests and diagnostics). */
  onRequest?: (url: string, verdict: 'served' | 'refused') => void;
  /** A page's own document tried to navigate (always refused): the pool fails that job. */
  onNavigation?: (page: Page, url: string) => void;
  /** A subresource (image, stylesheet, font, …) did not load, and why: warnings of the job that asked for it. */
  onProblem?: (request: Request, problem: ResourceProblem) => void;
}

/** The page whose top-level document `request` would replace, if it is such a navigation. */
function topLevelNavigation(request: Request): Page | null {
  if (!request.isNavigationRequest()) return null;
  try {
    const frame = request.frame();
    return frame.parentFrame() === null ? frame.page() : null;
  } catch {
    // Service-worker and other frameless requests.
    return null;
  }
}

/**
 * Every request of every page passes here. Sub-frame documents are refused
 * whatever their URL: an iframe is a second browsing context we do not police
 * or paginate, so it prints as an empty box.
 */
export function createRouteHandler(options: GuardOptions): (route: Route) => Promise<void> {
  return async (route: Route) => {
    const request = route.request();
    const url = request.url();
    // A refused navigation (meta refresh, `location = …`, a link target) is
    // cancelled as if stopped (ERR_ABORTED): any other error code would commit
    // Chromium's error page in place of the document being rendered.
    const navigation = request.isNavigationRequest();
    const refuse = async (): Promise<void> => {
      options.onRequest?.(url, 'refused');
      await route.abort(navigation ? 'aborted' : 'blockedbyclient').catch(() => undefined);
    };
    const type = request.resourceType();
    if (navigation) {
      const page = topLevelNavigation(request);
      if (page) options.onNavigation?.(page, url);
    }
    // Navigations and sub-frame documents are policy (never loaded), not a resource that failed.
    if (navigation || type === 'document') return refuse();
    const kind = kindOf(type);
    const problem = (reason: string): Promise<void> => {
      options.onProblem?.(request, { url, kind, reason });
      return refuse();
    };
    let res: ResolvedResource;
    const catalogueFace = catalogueFontAt(url);
    if (catalogueFace) {
      // The offline catalogue's exact file (catalogue-fonts.ts), never the network.
      const bytes = await readFile(catalogueFace.path).catch(() => undefined);
      if (!bytes) return problem(`${catalogueFace.path} is missing: install Debian package ${catalogueFace.source}`);
      res = { body: new Uint8Array(bytes), contentType: 'font/ttf' };
    } else {
      if (classifyUrl(url) === 'refuse') return problem(refusalReason(url));
      const outcome = await loadResourceWithReason(url, kind, options.resolver, {
        maxBytes: options.maxResourceBytes,
        lookup: options.lookup,
      });
      if ('reason' in outcome) return problem(outcome.reason);
      res = outcome.resource;
      const fontProblem = kind === 'webfont' ? webFontProblem(res) : undefined;
      if (fontProblem) return problem(fontProblem);
    }
    let data = res.body;
    let contentType = res.contentType ?? 'application/octet-stream';
    if (kind === 'webfont' && options.webFonts) {
      const font = await options.webFonts.prepare(data);
      // Not converted: the font still renders (as Type 3 in the PDF); the job is told.
      if (font.problem) options.onProblem?.(request, { url, kind, reason: font.problem });
      if (font.converted) [data, contentType] = [font.body, 'font/ttf'];
    }
    let body: Buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    if (kind === 'stylesheet') body = Buffer.from(rewriteGcpm(body.toString('utf8')), 'utf8');
    options.onRequest?.(url, 'served');
    await route
      .fulfill({
        status: 200,
        body,
        contentType,
        headers: { 'access-control-allow-origin': '*' },
      })
      .catch(() => undefined);
  };
}
