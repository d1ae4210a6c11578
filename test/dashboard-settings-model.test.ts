/**
 * The settings page's model (src/dashboard/app/model/settings.ts) held to the server's settings schema:
 * the app's shape and the schema's output are assignable both ways, a form filled from settings saves
 * the same settings (the schema accepts them unchanged), empty inputs are left out, and the server's
 * 400 lands on the input it names ("Line 2: …" for an origin).
 */
import { describe, expect, it } from 'vitest';
import { organizationSettingsSchema, type OrganizationSettings as ServerSettings } from '../src/packets/index.js';
import {
  formOf,
  placeSettingsErrors,
  settingsOf,
  type OrganizationSettings,
} from '../src/dashboard/app/model/settings.js';

const FULL: OrganizationSettings = {
  name: 'Acme',
  slug: 'acme',
  supportEmail: 'help@acme.test',
  logo: 'data:image/png;base64,iVBORw0KGgo=',
  signerDefaults: { signatureExperience: 'signBeforeReviewing', allowNameChange: false, requireEmailOnLoad: true },
  webhook: { url: 'https://hooks.acme.test/x', token: 'tok' },
  style: { primaryColor: '#aa3300', linkColor: '#115511' },
  formRateLimit: { form: 5, organization: 50 },
  timestampAuthority: { productionKeys: true, developmentKeys: false },
  embedOrigins: ['https://app.acme.test', 'http://localhost:8080'],
  stylesheetOrigins: ['https://cdn.acme.test'],
};

describe('the settings form', () => {
  it('has the server schema’s shape, both ways', () => {
    const fromServer: OrganizationSettings = {} as ServerSettings;
    const toServer: ServerSettings = {} as OrganizationSettings;
    expect([fromServer, toServer]).toBeDefined();
  });

  it('saves the settings it was filled from, which the schema takes unchanged; empty inputs are left out', () => {
    const body = settingsOf(formOf(FULL), FULL.logo);
    expect(body).toEqual(FULL);
    expect(organizationSettingsSchema.parse(body)).toEqual(FULL);
    const form = { ...formOf(FULL), slug: ' ', 'webhook.url': '', 'webhook.token': '', 'style.primaryColor': '' };
    const sparse = settingsOf({ ...form, 'style.linkColor': '' }, undefined);
    expect(sparse).not.toHaveProperty('slug');
    expect(sparse).not.toHaveProperty('webhook');
    expect(sparse).not.toHaveProperty('style');
    expect(sparse).not.toHaveProperty('logo');
    // A secret typed in is sent; left empty it is not (the server keeps the one in force).
    expect(settingsOf({ ...formOf(FULL), 'webhook.hmacSecret': 's'.repeat(16) }, undefined).webhook).toEqual({
      ...FULL.webhook,
      hmacSecret: 's'.repeat(16),
    });
    // A count that is not a whole number goes as typed, for the server to name.
    expect(settingsOf({ ...formOf(FULL), 'formRateLimit.form': 'ten' }, undefined).formRateLimit).toEqual({
      form: 'ten',
      organization: 50,
    });
  });

  it('places the server’s problems on their inputs', () => {
    const r = organizationSettingsSchema.safeParse({
      ...FULL,
      style: { primaryColor: 'blue' },
      embedOrigins: ['https://app.acme.test', 'https://x.test/path'],
      signerDefaults: { allowNameChange: 'no' },
    });
    expect(r.success).toBe(false);
    const fields = r.error!.issues.map((i) => ({
      property: i.path.map((p, n) => (typeof p === 'number' ? `[${p}]` : n ? `.${String(p)}` : String(p))).join(''),
      message: i.message,
    }));
    const placed = placeSettingsErrors([
      ...fields,
      { property: 'file', message: 'The settings file is not valid now' },
    ]);
    expect(Object.keys(placed.inputs).sort()).toEqual([
      'embedOrigins',
      'signerDefaults.allowNameChange',
      'style.primaryColor',
    ]);
    expect(placed.inputs.embedOrigins).toMatch(/^Line 2: /);
    expect(placed.other).toEqual([{ property: 'file', message: 'The settings file is not valid now' }]);
    // A group's own problem goes on its first input.
    expect(placeSettingsErrors([{ property: 'webhook', message: 'Bad' }]).inputs).toEqual({ 'webhook.url': 'Bad' });
  });
});
