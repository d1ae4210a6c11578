/**
 * Which origins may frame a signing page and serve its stylesheet, from the organization's
 * settings and the server's flags. Pure: the signing routes call these per request.
 *
 * Framing (the spec: URLs from generateEtchSignURL may be shown in an iframe): an embedded
 * signer's page may be framed by any origin unless the organization lists its origins
 * (`embedOrigins`), or else the operator does (`--frame-ancestor`). An email signer's page is
 * framed only by the server itself and the operator's origins, as before: its link arrives by
 * mail and no app of the sender's is meant to host it. The trade-off is in ../signing/README.md.
 */
import type { OrganizationSettings } from '../../packets/index.js';

/** The CSP `frame-ancestors` sources for a page of a signer of this type (undefined type: a page shown before the signer is known). */
export function frameAncestorsFor(
  signerType: string | undefined,
  settings: OrganizationSettings | undefined,
  operator: readonly string[],
): string[] {
  if (signerType !== undefined && signerType !== 'embedded') return ["'self'", ...operator];
  const narrowed = settings?.embedOrigins?.length ? settings.embedOrigins : operator;
  return narrowed.length > 0 ? ["'self'", ...narrowed] : ['*'];
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
