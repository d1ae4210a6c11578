/**
 * `signaturePageOptions.style.stylesheetURL`: a packet author's CSS on the page
 * where signers sign. The spec injects it for all signers, so by default any https
 * stylesheet is loaded (the packet's author is an API caller with a key, and the page
 * is theirs to brand); an organization (`stylesheetOrigins` in `--org`) or the
 * operator (`--stylesheet-origin`) can restrict it to listed origins, since CSS can
 * restyle or hide anything (a consent text, the signer's name) and leak through `url()`.
 * Plain http (other than the page's own origin or a listed one) and every other scheme
 * stay refused: a stylesheet anyone on the path can rewrite is not put on a signing page.
 * Only the stylesheet's origin is added to the page's `style-src`.
 */

import type { AddressInfo } from 'node:net';

/** An origin as CSP takes it: scheme, host and port only (anything else could widen or break the policy). */
export function cspOrigin(value: string, what: string): string {
  let u: URL;
  try {
    u = new URL(value);
  } catch {
    throw new Error(`${what} must be an http(s) origin, got "${value}"`);
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:')
    throw new Error(`${what} must be an http(s) origin, got "${value}"`);
  return u.origin;
}

/**
 * This server's own origin, as the signing page's stylesheet and the packets' check of it take it: the
 * configured public URL's, else the address the server listens on; undefined before it listens (and
 * without a public URL). Never the request's `Host` header: a client chooses it, and a stylesheet judged
 * "same origin" by it would load from wherever that client (or a cache it poisons) names.
 */
export function serverOrigin(
  publicUrl: string | undefined,
  listening: AddressInfo | string | null,
): string | undefined {
  if (publicUrl) return new URL(publicUrl).origin;
  if (!listening || typeof listening === 'string') return undefined;
  const host = listening.family === 'IPv6' ? `[${listening.address}]` : listening.address;
  return `http://${host}:${listening.port}`;
}

/**
 * The stylesheet URL when the page may load it, else undefined; `allowed` undefined: any https origin.
 * `pageOrigin` undefined (the server's own origin is not known): a relative URL is refused.
 */
export function allowedStylesheet(
  url: string,
  pageOrigin: string | undefined,
  allowed: readonly string[] | undefined,
): string | undefined {
  let u: URL;
  try {
    u = pageOrigin ? new URL(url, pageOrigin) : new URL(url);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  if (pageOrigin && u.origin === pageOrigin) return u.href;
  if (allowed === undefined) return u.protocol === 'https:' ? u.href : undefined;
  return allowed.includes(u.origin) ? u.href : undefined;
}
