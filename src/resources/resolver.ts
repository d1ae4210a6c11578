import { isPublicUrl, type LookupAll } from './address-guard.js';
import { parseDataUrl } from './data-url.js';
/**
 * Remote resources (images, fonts, stylesheets) never reach the network by
 * themselves: the caller passes a resolver, and without one only `data:` URLs
 * load. This keeps rendering offline and makes every fetch visible to the caller.
 */

/**
 * What a URL is loaded as. `font`: a font for fill and Markdown (the spec's TrueType only, embedded
 * by castpress); `webfont`: an @font-face source in HTML mode, where Chromium renders any sfnt or
 * WOFF font (OpenType/CFF, collections, WOFF, WOFF2).
 */
export type ResourceKind = 'image' | 'font' | 'webfont' | 'stylesheet' | 'other';

export interface ResolvedResource {
  body: Uint8Array;
  /** Content-Type as the origin declared it, if known (fonts are checked against it). */
  contentType?: string;
}

/**
 * Fetches `url` on the caller's terms. Return `null`/`undefined` to refuse.
 * Only called for http(s) URLs; `file:` and other schemes are refused before it.
 */
export type ResourceResolver = ((url: string, kind: ResourceKind) => Promise<ResolvedResource | null | undefined>) & {
  /**
   * Set by a resolver that checks the addresses it connects to itself (httpResolver: after
   * every redirect, with its allow-list); loadResource then skips its own pre-check.
   */
  readonly guardsAddresses?: boolean;
};

export interface FetchLimits {
  /** Largest body accepted, bytes. */
  maxBytes: number;
  /** Host name lookup used for the address check (default: the system resolver; tests inject one). */
  lookup?: LookupAll;
}

/**
 * Resolves a URL through data: decoding or the caller's resolver; never throws.
 * A URL whose host is or resolves to a loopback, private, link-local or other
 * non-public address never reaches the resolver (see address-guard.ts): this is
 * the one door for HTML, Markdown and fill alike.
 */
export async function loadResource(
  url: string,
  kind: ResourceKind,
  resolver: ResourceResolver | undefined,
  limits: FetchLimits,
): Promise<ResolvedResource | null> {
  if (url.startsWith('data:')) {
    const decoded = parseDataUrl(url);
    if (!decoded || decoded.body.byteLength > limits.maxBytes) return null;
    return decoded;
  }
  if (!resolver || !/^https?:\/\//i.test(url)) return null;
  if (!resolver.guardsAddresses && !(await isPublicUrl(url, limits.lookup))) return null;
  try {
    const res = await resolver(url, kind);
    if (!res || !(res.body instanceof Uint8Array) || res.body.byteLength > limits.maxBytes) return null;
    return res;
  } catch {
    return null;
  }
}
