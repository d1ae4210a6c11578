import { isPublicUrl, type LookupAll } from './address-guard.js';
import { parseDataUrl } from './data-url.js';
/**
 * Remote resources (images, fonts, stylesheets) never reach the network by
 * themselves: the caller passes a resolver, and without one only `data:` URLs
 * load. This keeps rendering offline and makes every fetch visible to the caller.
 */

/**
 * What a URL is loaded as. `font`: a font for fill and Markdown; `webfont`: an `@font-face` source in
 * HTML mode. Both follow the spec's rule: used only when the response's content type is `font/ttf` or
 * `application/x-font-ttf` (httpResolver checks it; HTML mode checks every resolver's answer).
 */
export type ResourceKind = 'image' | 'font' | 'webfont' | 'stylesheet' | 'attachment' | 'other';

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
  /**
   * Set by `reportingResolver`: tells the caller's listener about a URL that loaded but could not be
   * used (an image whose bytes do not decode), so it is reported like one that did not load.
   */
  readonly reportUnusable?: (url: string, kind: ResourceKind, reason: string) => void;
};

/** Why fetched image bytes were not drawn: the words of the warning. */
export const UNDECODABLE_IMAGE = 'the bytes are not an image castpress can draw';

export interface FetchLimits {
  /** Largest body accepted, bytes. */
  maxBytes: number;
  /** Host name lookup used for the address check (default: the system resolver; tests inject one). */
  lookup?: LookupAll;
}

/** What loading one URL gave: the resource, or why it did not load (for warnings). */
export type LoadOutcome = { resource: ResolvedResource } | { reason: string };

/**
 * Resolves a URL through data: decoding or the caller's resolver; never throws.
 * A URL whose host is or resolves to a loopback, private, link-local or other
 * non-public address never reaches the resolver (see address-guard.ts): this is
 * the one door for HTML, Markdown and fill alike. The reason says, in words a user
 * can act on, why a URL did not load (the resolver's own error message when it threw).
 */
export async function loadResourceWithReason(
  url: string,
  kind: ResourceKind,
  resolver: ResourceResolver | undefined,
  limits: FetchLimits,
): Promise<LoadOutcome> {
  if (url.startsWith('data:')) {
    const decoded = parseDataUrl(url);
    if (!decoded) return { reason: 'not a valid data: URL' };
    if (decoded.body.byteLength > limits.maxBytes) return { reason: `larger than ${limits.maxBytes} bytes` };
    return { resource: decoded };
  }
  if (!/^https?:\/\//i.test(url)) return { reason: 'only http(s) and data: URLs load' };
  if (!resolver) return { reason: 'remote fetching is off' };
  if (!resolver.guardsAddresses && !(await isPublicUrl(url, limits.lookup)))
    return { reason: 'the host is not a public address' };
  try {
    const res = await resolver(url, kind);
    if (!res || !(res.body instanceof Uint8Array)) return { reason: 'refused by the resolver' };
    if (res.body.byteLength > limits.maxBytes) return { reason: `larger than ${limits.maxBytes} bytes` };
    return { resource: res };
  } catch (e) {
    return { reason: e instanceof Error ? e.message : String(e) };
  }
}

/** loadResourceWithReason without the reason: the resource or null. */
export async function loadResource(
  url: string,
  kind: ResourceKind,
  resolver: ResourceResolver | undefined,
  limits: FetchLimits,
): Promise<ResolvedResource | null> {
  const outcome = await loadResourceWithReason(url, kind, resolver, limits);
  return 'resource' in outcome ? outcome.resource : null;
}
