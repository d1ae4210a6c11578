/**
 * Organization settings (the hosted service's organization and e-signature settings): the name
 * mails and pages show, the support address replies go to, a logo, the signer defaults signer
 * objects override, the organization webhook, and which origins may embed signing pages or
 * serve their stylesheets. Checked here (zod), read by whoever loads them (the server reads a
 * file, and again on each change: src/server/org). One settings object per organization of the keys file; packets of an
 * organization without settings use the built-in defaults.
 */
import { z } from 'zod';
import { ValidationError } from '../../errors/index.js';
import { cssColor } from './page-options.js';

/** An origin as a browser sends it (scheme, host, port): anything more is refused, not trimmed. */
const origin = z.string().refine(
  (v) => {
    try {
      const u = new URL(v);
      return (u.protocol === 'https:' || u.protocol === 'http:') && u.origin === v.replace(/\/$/, '');
    } catch {
      return false;
    }
  },
  { message: 'Must be an origin: http(s)://host[:port], without a path' },
);

const httpUrl = z.url({ protocol: /^https?$/, error: 'Must be an http(s) URL' });

/** A logo as an image data URL (the loader turns a file path into one). */
export const LOGO_DATA_URL = /^data:image\/(png|jpeg|gif|webp|svg\+xml);base64,[A-Za-z0-9+/]+=*$/;
/** Largest logo: it is inlined in every signing page and every mail. */
export const LOGO_MAX_BYTES = 256 * 1024;

const signerDefaultsSchema = z.strictObject({
  signatureExperience: z.enum(['signWhileReviewing', 'signBeforeReviewing']).optional(),
  allowNameChange: z.boolean().optional(),
  allowEmailChange: z.boolean().optional(),
  requireNameOnLoad: z.boolean().optional(),
  requireEmailOnLoad: z.boolean().optional(),
});

export const organizationSettingsSchema = z.strictObject({
  name: z.string().trim().min(1).max(200),
  slug: z
    .string()
    .regex(/^[a-z0-9][a-z0-9-]{0,62}$/, 'Must be lowercase letters, digits and dashes')
    .optional(),
  supportEmail: z.email({ error: 'Must be a valid email address' }).optional(),
  /** A file path (relative to the settings file) or an image data URL; the loader keeps a data URL. */
  logo: z.string().min(1).optional(),
  signerDefaults: signerDefaultsSchema.optional(),
  webhook: z
    .strictObject({
      url: httpUrl.optional(),
      /** The body's `token`: the value the receiver chose when setting the webhook up. */
      token: z.string().max(500).optional(),
      /** Signs each delivery (HMAC-SHA256, see src/packets/events/webhook.ts); at least 16 characters. */
      hmacSecret: z.string().min(16).max(500).optional(),
    })
    .optional(),
  /**
   * Colours of the pages the organization's people fill in (workflow forms) and of its signing
   * pages where a packet gives no `signaturePageOptions.style`; the keys and defaults of that style.
   */
  style: z
    .strictObject({
      primaryColor: cssColor.optional(),
      successColor: cssColor.optional(),
      infoColor: cssColor.optional(),
      linkColor: cssColor.optional(),
    })
    .optional(),
  /**
   * The organization's budgets for its public workflow forms per window (the server's
   * `--form-rate-limit` window): posts to one of its workflows, posts to all of them.
   */
  formRateLimit: z
    .strictObject({
      form: z.number().int().min(1).optional(),
      organization: z.number().int().min(1).optional(),
    })
    .optional(),
  /**
   * Which of the organization's API keys the built-in TSA (`POST /tsa`, `--tsa local`) answers:
   * production keys unless `productionKeys: false`, development keys only with `developmentKeys: true`.
   */
  timestampAuthority: z
    .strictObject({ productionKeys: z.boolean().optional(), developmentKeys: z.boolean().optional() })
    .optional(),
  /** Origins allowed to frame embedded signers' pages; none listed: any origin may. */
  embedOrigins: z.array(origin).max(100).optional(),
  /** Origins a packet's `stylesheetURL` may name; none listed: any https origin. */
  stylesheetOrigins: z.array(origin).max(100).optional(),
});

export type SignerDefaults = z.output<typeof signerDefaultsSchema>;
export type OrganizationSettings = z.output<typeof organizationSettingsSchema>;

/**
 * The file: one organization's settings (they then apply to every organization of the keys
 * file, the usual one-organization server), or `{organizations: {<id>: settings}}` keyed by
 * the `organization` the keys file gives its keys (`default` for keys naming none).
 */
const fileSchema = z.union([
  z.strictObject({ organizations: z.record(z.string().min(1).max(200), organizationSettingsSchema) }),
  organizationSettingsSchema,
]);

/** Looks up an organization's settings; undefined for one without (built-in defaults apply). */
export type OrganizationDirectory = (organization: string) => OrganizationSettings | undefined;

/** Checks parsed JSON; a ValidationError whose fields name each bad property (dotted path). */
export function parseOrganizationFile(json: unknown): OrganizationDirectory {
  const r = fileSchema.safeParse(json);
  if (!r.success) {
    // A union reports its branches: report the branch the input was meant for.
    const multi = typeof json === 'object' && json !== null && 'organizations' in json;
    const branch = multi ? fileSchema.options[0] : fileSchema.options[1];
    const issues = branch.safeParse(json).error?.issues ?? r.error.issues;
    throw new ValidationError(
      issues.map((i) => ({ property: i.path.map(String).join('.') || '(file)', message: i.message })),
    );
  }
  const data = r.data;
  if ('organizations' in data) {
    const map = new Map(Object.entries(data.organizations));
    return (org) => map.get(org);
  }
  return () => data;
}

/**
 * A createEtchPacket body with the organization's signer defaults filled into each signer object
 * that leaves them out (a signer's own value, even `false`, wins). Anything not shaped like a
 * request is returned as it is: validating it is the request schema's job.
 */
export function withSignerDefaults(body: unknown, defaults: SignerDefaults | undefined): unknown {
  if (!defaults || typeof body !== 'object' || body === null) return body;
  const signers = (body as { signers?: unknown }).signers;
  if (!Array.isArray(signers)) return body;
  const filled = signers.map((s: unknown) => {
    if (typeof s !== 'object' || s === null || Array.isArray(s)) return s;
    const own = s as Record<string, unknown>;
    const merged: Record<string, unknown> = { ...own };
    for (const [k, v] of Object.entries(defaults)) if (v !== undefined && own[k] === undefined) merged[k] = v;
    return merged;
  });
  return { ...(body as Record<string, unknown>), signers: filled };
}

/** `{{organization.name}}` in a mail text (the spec's replacement); other text is left as it is. */
export function withOrganizationName(text: string, name: string): string {
  return text.replace(/\{\{\s*organization\.name\s*\}\}/g, name);
}
