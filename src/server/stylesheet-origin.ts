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

/** The stylesheet URL when the page may load it, else undefined; `allowed` undefined: any https origin. */
export function allowedStylesheet(
  url: string,
  pageOrigin: string,
  allowed: readonly string[] | undefined,
): string | undefined {
  let u: URL;
  try {
    u = new URL(url, pageOrigin);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  if (u.origin === pageOrigin) return u.href;
  if (allowed === undefined) return u.protocol === 'https:' ? u.href : undefined;
  return allowed.includes(u.origin) ? u.href : undefined;
}
