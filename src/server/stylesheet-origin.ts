/**
 * `signaturePageOptions.style.stylesheetURL`: a packet author's CSS on the page
 * where signers sign. CSS can restyle or hide anything (a consent text, the
 * signer's name) and leak through `url()`, so an arbitrary URL is not loaded:
 * only one on the page's own origin, or on an origin the operator allowed
 * (`--stylesheet-origin`). Only that origin is added to the page's `style-src`.
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

/** The stylesheet URL when the page may load it, else undefined. */
export function allowedStylesheet(url: string, pageOrigin: string, allowed: readonly string[]): string | undefined {
  let u: URL;
  try {
    u = new URL(url, pageOrigin);
  } catch {
    return undefined;
  }
  if (u.protocol !== 'https:' && u.protocol !== 'http:') return undefined;
  if (u.username || u.password) return undefined;
  return u.origin === pageOrigin || allowed.includes(u.origin) ? u.href : undefined;
}
