/**
 * The organization's settings as the settings page edits them: the shape `/dashboard/api/organization`
 * sends and takes (src/packets/request/org.ts, written out so the bundle carries no zod; held to it by
 * test/dashboard-settings-model.test.ts), the form's text values and back, and the server's 400 placed
 * on the input its property names (`embedOrigins[1]` on the origins' box, as "Line 2: …").
 */
import type { ErrorField } from './types.js';

export interface SignerDefaults {
  signatureExperience?: 'signWhileReviewing' | 'signBeforeReviewing';
  allowNameChange?: boolean;
  allowEmailChange?: boolean;
  requireNameOnLoad?: boolean;
  requireEmailOnLoad?: boolean;
}

export interface OrganizationSettings {
  name: string;
  slug?: string;
  supportEmail?: string;
  /** An image data URL, or a file path the settings file itself names. */
  logo?: string;
  signerDefaults?: SignerDefaults;
  webhook?: { url?: string; token?: string; hmacSecret?: string };
  style?: { primaryColor?: string; successColor?: string; infoColor?: string; linkColor?: string };
  formRateLimit?: { form?: number; organization?: number };
  timestampAuthority?: { productionKeys?: boolean; developmentKeys?: boolean };
  embedOrigins?: string[];
  stylesheetOrigins?: string[];
}

/** What every route of `/dashboard/api/organization` answers. */
export interface SettingsView {
  settings: OrganizationSettings | null;
  editable: boolean;
  logoMaxBytes: number;
}

export const COLOUR_KEYS = ['primaryColor', 'successColor', 'infoColor', 'linkColor'] as const;
export const SIGNER_FLAGS = ['allowNameChange', 'allowEmailChange', 'requireNameOnLoad', 'requireEmailOnLoad'] as const;
export const TSA_FLAGS = ['productionKeys', 'developmentKeys'] as const;

/** A yes/no setting that may also be left to the default: '' (default), 'yes', 'no'. */
export type Choice = '' | 'yes' | 'no';

/** Every input of the form, as text; the keys are the settings' property paths (the server's error names). */
export interface SettingsForm {
  name: string;
  slug: string;
  supportEmail: string;
  'webhook.url': string;
  'webhook.token': string;
  /** Never read back: empty keeps the secret in force. */
  'webhook.hmacSecret': string;
  'signerDefaults.signatureExperience': string;
  'style.primaryColor': string;
  'style.successColor': string;
  'style.infoColor': string;
  'style.linkColor': string;
  'signerDefaults.allowNameChange': Choice;
  'signerDefaults.allowEmailChange': Choice;
  'signerDefaults.requireNameOnLoad': Choice;
  'signerDefaults.requireEmailOnLoad': Choice;
  'timestampAuthority.productionKeys': Choice;
  'timestampAuthority.developmentKeys': Choice;
  'formRateLimit.form': string;
  'formRateLimit.organization': string;
  /** One origin a line. */
  embedOrigins: string;
  stylesheetOrigins: string;
}

export type FormKey = keyof SettingsForm;

const choiceOf = (v: boolean | undefined): Choice => (v === undefined ? '' : v ? 'yes' : 'no');
const flagOf = (c: Choice): boolean | undefined => (c === '' ? undefined : c === 'yes');

export function formOf(s: OrganizationSettings | null): SettingsForm {
  return {
    name: s?.name ?? '',
    slug: s?.slug ?? '',
    supportEmail: s?.supportEmail ?? '',
    'webhook.url': s?.webhook?.url ?? '',
    'webhook.token': s?.webhook?.token ?? '',
    'webhook.hmacSecret': '',
    'signerDefaults.signatureExperience': s?.signerDefaults?.signatureExperience ?? '',
    'style.primaryColor': s?.style?.primaryColor ?? '',
    'style.successColor': s?.style?.successColor ?? '',
    'style.infoColor': s?.style?.infoColor ?? '',
    'style.linkColor': s?.style?.linkColor ?? '',
    'signerDefaults.allowNameChange': choiceOf(s?.signerDefaults?.allowNameChange),
    'signerDefaults.allowEmailChange': choiceOf(s?.signerDefaults?.allowEmailChange),
    'signerDefaults.requireNameOnLoad': choiceOf(s?.signerDefaults?.requireNameOnLoad),
    'signerDefaults.requireEmailOnLoad': choiceOf(s?.signerDefaults?.requireEmailOnLoad),
    'timestampAuthority.productionKeys': choiceOf(s?.timestampAuthority?.productionKeys),
    'timestampAuthority.developmentKeys': choiceOf(s?.timestampAuthority?.developmentKeys),
    'formRateLimit.form': s?.formRateLimit?.form?.toString() ?? '',
    'formRateLimit.organization': s?.formRateLimit?.organization?.toString() ?? '',
    embedOrigins: (s?.embedOrigins ?? []).join('\n'),
    stylesheetOrigins: (s?.stylesheetOrigins ?? []).join('\n'),
  };
}

/** An object without its undefined values, or undefined when nothing is left. */
function compact<T extends object>(o: T): T | undefined {
  const entries = Object.entries(o).filter(([, v]) => v !== undefined);
  return entries.length ? (Object.fromEntries(entries) as T) : undefined;
}

const text = (v: string): string | undefined => (v.trim() === '' ? undefined : v.trim());
const lines = (v: string): string[] | undefined => {
  const list = v
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  return list.length ? list : undefined;
};
/** A whole number as typed; anything else is sent as it is, for the server to name. */
const count = (v: string): number | string | undefined => {
  const t = v.trim();
  if (t === '') return undefined;
  return /^\d+$/.test(t) ? Number(t) : t;
};

/** The body of a save: empty inputs are left out (the default applies), the logo is kept as it is. */
export function settingsOf(form: SettingsForm, logo: string | undefined): Record<string, unknown> {
  const body = {
    name: form.name.trim(),
    slug: text(form.slug),
    supportEmail: text(form.supportEmail),
    logo,
    signerDefaults: compact({
      signatureExperience: text(form['signerDefaults.signatureExperience']),
      ...Object.fromEntries(SIGNER_FLAGS.map((k) => [k, flagOf(form[`signerDefaults.${k}`])])),
    }),
    webhook: compact({
      url: text(form['webhook.url']),
      token: text(form['webhook.token']),
      hmacSecret: text(form['webhook.hmacSecret']),
    }),
    style: compact(Object.fromEntries(COLOUR_KEYS.map((k) => [k, text(form[`style.${k}`])]))),
    formRateLimit: compact({
      form: count(form['formRateLimit.form']),
      organization: count(form['formRateLimit.organization']),
    }),
    timestampAuthority: compact(Object.fromEntries(TSA_FLAGS.map((k) => [k, flagOf(form[`timestampAuthority.${k}`])]))),
    embedOrigins: lines(form.embedOrigins),
    stylesheetOrigins: lines(form.stylesheetOrigins),
  };
  return compact(body) ?? {};
}

export interface PlacedSettingsErrors {
  /** By input (a FormKey, or `logo`). */
  inputs: Partial<Record<FormKey | 'logo', string>>;
  /** Problems no input shows (the file, the organization). */
  other: ErrorField[];
}

const FORM_KEYS = new Set<string>(Object.keys(formOf(null)));

/** Places the server's 400 on the inputs: `embedOrigins[1]` → embedOrigins, "Line 2: …"; a group's own problem on its first input. */
export function placeSettingsErrors(errors: readonly ErrorField[]): PlacedSettingsErrors {
  const out: PlacedSettingsErrors = { inputs: {}, other: [] };
  const add = (key: FormKey | 'logo', message: string) => {
    out.inputs[key] = out.inputs[key] ? `${out.inputs[key]} ${message}` : message;
  };
  for (const e of errors) {
    const line = /^(embedOrigins|stylesheetOrigins)\[(\d+)\]$/.exec(e.property);
    if (line) add(line[1] as FormKey, `Line ${Number(line[2]) + 1}: ${e.message}`);
    else if (FORM_KEYS.has(e.property) || e.property === 'logo') add(e.property as FormKey | 'logo', e.message);
    else {
      const group = [...FORM_KEYS].find((k) => k.startsWith(`${e.property}.`));
      if (group) add(group as FormKey, e.message);
      else out.other.push(e);
    }
  }
  return out;
}
