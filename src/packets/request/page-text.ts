/**
 * The spec's replacements in `signaturePageOptions` texts (`{{organization.name}}`, `{{packet.name}}`,
 * `{{signer.name}}`, `{{currentUser.name}}`), in one place: the signing page shows the texts and the
 * certificate of completion quotes the consent text the page showed, so both must fill them alike.
 */
import { DEFAULT_SIGN_CONSENT_TEXT, type SignaturePageOptions } from './page-options.js';

/** Who a page text is about; the organization's name is `castpress` when it has no settings. */
export interface PageTextValues {
  organizationName: string;
  packetName: string;
  signerName: string | null;
}

/** `text` with the spec's replacements filled; an unknown `{{…}}` stays as written. */
export function fillPageText(text: string, v: PageTextValues): string {
  const values: Record<string, string> = {
    'organization.name': v.organizationName,
    'packet.name': v.packetName,
    'signer.name': v.signerName ?? '',
    // The hosted page's "current user" is the signer at the device.
    'currentUser.name': v.signerName ?? '',
  };
  return text.replace(/\{\{\s*([\w.]+)\s*\}\}/g, (m, name: string) => values[name] ?? m);
}

/** The consent text the signing page shows: the packet's `signConsentText`, else the default, filled. */
export function signConsentText(pageOptions: unknown, v: PageTextValues): string {
  const set = (pageOptions ?? {}) as SignaturePageOptions;
  return fillPageText(typeof set.signConsentText === 'string' ? set.signConsentText : DEFAULT_SIGN_CONSENT_TEXT, v);
}
