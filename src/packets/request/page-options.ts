/**
 * The createEtchPacket `signaturePageOptions`: the signing page's texts and colours (the spec's
 * "signaturePageOptions" section), the consent text's default, and the keys castpress does not know.
 */
import { z } from 'zod';
import { formatPath, isPlainObject } from '../../schema/index.js';

/** An http(s) URL (webhook, redirect and stylesheet URLs of a packet). */
export const httpUrl = z.url({ protocol: /^https?$/, error: 'Must be an http or https URL' });

/** The signing page's consent text unless the packet sets `signConsentText`; the certificate of completion quotes it. */
export const DEFAULT_SIGN_CONSENT_TEXT =
  'By adopting it, I agree that this mark is the electronic representation of my signature or initials.';

const PAGE_OPTION_STRINGS = [
  'title',
  'description',
  'signatureLabel',
  'initialLabel',
  'acceptTitle',
  'acceptDescription',
  'acceptButtonText',
  'drawSignatureTitle',
  'drawSignatureDescription',
  'drawSignatureButtonText',
  'drawInitialsTitle',
  'drawInitialsDescription',
  'drawInitialsButtonText',
  'signTitle',
  'signDescription',
  'signDescriptionCompleted',
  'signConsentText',
  'signButtonText',
  'completedButtonText',
  'error',
] as const;

export const cssColor = z
  .string()
  .regex(/^#([0-9a-fA-F]{3}|[0-9a-fA-F]{6})$/, { error: 'Must be a hex colour such as #1985a1' });

const STYLE_KEYS = ['primaryColor', 'successColor', 'infoColor', 'linkColor', 'stylesheetURL'];

/**
 * Keys of `signaturePageOptions` (and its `style`) castpress does not know, as paths. The hosted
 * service tolerates options it does not know, so a request written for it must not fail here:
 * they are accepted, dropped by the schema below, and named in the packet's `warnings`.
 */
export function ignoredPageOptions(body: unknown): string[] {
  const raw = isPlainObject(body) ? body.signaturePageOptions : undefined;
  if (!isPlainObject(raw)) return [];
  const known = new Set<string>([...PAGE_OPTION_STRINGS, 'style']);
  const out = Object.keys(raw)
    .filter((k) => !known.has(k))
    .map((k) => formatPath(['signaturePageOptions', k]));
  if (isPlainObject(raw.style))
    for (const k of Object.keys(raw.style))
      if (!STYLE_KEYS.includes(k)) out.push(formatPath(['signaturePageOptions', 'style', k]));
  return out;
}

/** Known keys are checked; unknown ones are dropped (see ignoredPageOptions). */
export const signaturePageOptions = z.object({
  ...Object.fromEntries(PAGE_OPTION_STRINGS.map((k) => [k, z.string().optional()])),
  style: z
    .object({
      primaryColor: cssColor.default('#1985a1'),
      successColor: cssColor.default('#1985a1'),
      infoColor: cssColor.default('#46494c'),
      linkColor: cssColor.default('#1985a1'),
      stylesheetURL: httpUrl.optional(),
    })
    .optional(),
}) as z.ZodType<SignaturePageOptions>;

export type SignaturePageOptions = { [K in (typeof PAGE_OPTION_STRINGS)[number]]?: string } & {
  style?: { primaryColor: string; successColor: string; infoColor: string; linkColor: string; stylesheetURL?: string };
};
