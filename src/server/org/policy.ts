/**
 * Which origins may frame a page and serve a signing page's stylesheet, from the organization's
 * settings and the server's flags. Pure: the routes call these per request.
 *
 * Framing has one policy for every embeddable page: an embedded signer's signing page (the spec: URLs
 * from generateEtchSignURL may be shown in an iframe), the workflow forms and their done page (the
 * spec's `weldComplete` iframe message). They may be framed by any origin unless the organization
 * lists its origins (`embedOrigins`), or else the operator does (`--frame-ancestor`). Pages reached
 * from a mail link (an email signer's signing page, an address confirmation) are framed only by the
 * server itself and the operator's origins: no app of the sender's is meant to host them. The
 * trade-off is in docs/reference/signing-page.md ("Security").
 */
import type { OrganizationSettings } from '../../packets/index.js';

/** What a page is for framing: one an app embeds, or one a mail link opens. */
export type FramedPage = 'embeddable' | 'mailed';

/** The CSP `frame-ancestors` sources of a page. */
export function frameAncestorsOf(
  page: FramedPage,
  settings: OrganizationSettings | undefined,
  operator: readonly string[],
): string[] {
  if (page === 'mailed') return ["'self'", ...operator];
  const narrowed = settings?.embedOrigins?.length ? settings.embedOrigins : operator;
  return narrowed.length > 0 ? ["'self'", ...narrowed] : ['*'];
}

/** The `frame-ancestors` of a signing page of a signer of this type (undefined type: a page shown before the signer is known, embeddable). */
export function frameAncestorsFor(
  signerType: string | undefined,
  settings: OrganizationSettings | undefined,
  operator: readonly string[],
): string[] {
  const page = signerType === undefined || signerType === 'embedded' ? 'embeddable' : 'mailed';
  return frameAncestorsOf(page, settings, operator);
}

/**
 * The origins a packet's stylesheetURL may name besides the page's own: the organization's
 * list, else the operator's (`--stylesheet-origin`); undefined when neither lists any (then
 * any https origin may, see ../stylesheet-origin.ts).
 */
export function stylesheetOriginsFor(
  settings: OrganizationSettings | undefined,
  operator: readonly string[],
): readonly string[] | undefined {
  if (settings?.stylesheetOrigins?.length) return settings.stylesheetOrigins;
  return operator.length > 0 ? operator : undefined;
}
