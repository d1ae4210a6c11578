/**
 * The dashboard's organization settings (`/dashboard/api/organization`) over the `--org` store the
 * API's `PUT /api/organization` writes: read and saved by a production key's session (the change in
 * force for the next signing page, no restart; the file on disk rewritten; the webhook secret kept),
 * the schema's problems named by property, a development key's session refused, CSRF required; the
 * logo as an upload whose bytes decide its type, kept as a data URL in the settings file (never a
 * path), refused when it is not an image, removable.
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { DashboardClient } from './helpers/dashboard.js';
import { Anvil, ok, signaturePacketVariables, signUrlOf } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';
import { basic } from './server-setup.js';

const ACME = 'prod-acme-orgdash-key-0123456789';
const ACME_DEV = 'dev-acme-orgdash-key-0123456789';
const GLOBEX = 'prod-globex-orgdash-key-0123456789';
const SECRET = 'acme-hmac-secret-0123456789';

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let orgFile = '';
let admin: DashboardClient;
let developer: DashboardClient;

const ACME_SETTINGS = {
  name: 'Acme One',
  style: { primaryColor: '#aa3300' },
  webhook: { url: 'https://hooks.acme.test/castpress', token: 'tok-1', hmacSecret: SECRET },
};

type View = { settings: Record<string, unknown> | null; editable: boolean; logoMaxBytes: number };

/** The signing page of a new test packet of acme's, titled with the organization's name. */
async function signingPage(): Promise<string> {
  const client = new Anvil({ apiKey: ACME, baseURL: server.url });
  const variables = signaturePacketVariables('Org page', 'Text.', [
    { id: 'sam', name: 'Sam', email: 'sam@example.com' },
  ]);
  const made = ok(
    await client.createEtchPacket({
      variables: { ...variables, signaturePageOptions: { title: 'For {{organization.name}}' } },
    }),
  ) as { createEtchPacket: { documentGroup: { signers: Array<{ eid: string }> } } };
  const url = await signUrlOf(client, made.createEtchPacket.documentGroup.signers[0]!.eid, 'u-1');
  const page = await fetch(url);
  expect(page.status).toBe(200);
  return page.text();
}

function logoUpload(bytes: Uint8Array, filename: string, type: string): FormData {
  const form = new FormData();
  form.set('file', new Blob([new Uint8Array(bytes)], { type }), filename);
  return form;
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-org-');
  orgFile = path.join(tmp.dir, 'org.json');
  await writeFile(
    orgFile,
    JSON.stringify({ organizations: { acme: ACME_SETTINGS, globex: { name: 'Globex' } } }, null, 2),
    { mode: 0o600 },
  );
  server = await startServer({
    port: 0,
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: ACME_DEV, kind: 'development', organization: 'acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    organizations: orgFile,
    packets: { dataDir: path.join(tmp.dir, 'data'), deliver: false },
    renderPool: false,
    fetch: false,
  });
  admin = new DashboardClient(server.url);
  expect((await admin.signIn(ACME)).status).toBe(200);
  developer = new DashboardClient(server.url);
  expect((await developer.signIn(ACME_DEV)).status).toBe(200);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

describe('organization settings in the dashboard', () => {
  it("reads the key's organization's settings without the webhook secret; a development key's session may read, not change", async () => {
    const r = await admin.call('GET', '/dashboard/api/organization');
    expect(r.status).toBe(200);
    const { hmacSecret: _s, ...webhook } = ACME_SETTINGS.webhook;
    expect(r.json).toEqual({ settings: { ...ACME_SETTINGS, webhook }, editable: true, logoMaxBytes: 256 * 1024 });
    const dev = await developer.call('GET', '/dashboard/api/organization');
    expect((dev.json as View).editable).toBe(false);
    const refused = await developer.call('PUT', '/dashboard/api/organization', { body: { name: 'Dev was here' } });
    expect(refused.status).toBe(403);
    expect((refused.json as { name: string }).name).toBe('ForbiddenError');
    expect(JSON.parse(await readFile(orgFile, 'utf8')).organizations.acme.name).toBe('Acme One');
  });

  it('a save needs the CSRF token, and names every problem of the schema by its property', async () => {
    expect((await admin.call('PUT', '/dashboard/api/organization', { body: ACME_SETTINGS, csrf: false })).status).toBe(
      403,
    );
    const bad = await admin.call('PUT', '/dashboard/api/organization', {
      body: {
        name: '',
        style: { primaryColor: 'not a colour' },
        webhook: { url: 'ftp://hooks.example' },
        embedOrigins: ['https://app.acme.test/path'],
        supportEmail: 'nobody',
      },
    });
    expect(bad.status).toBe(400);
    expect((bad.json as { fields: Array<{ property: string }> }).fields.map((f) => f.property).sort()).toEqual([
      'embedOrigins[0]',
      'name',
      'style.primaryColor',
      'supportEmail',
      'webhook.url',
    ]);
    expect(JSON.parse(await readFile(orgFile, 'utf8')).organizations.acme.name).toBe('Acme One');
  });

  it('a save is in force for the next signing page without a restart, is written to the file, and keeps the webhook secret', async () => {
    const before = await signingPage();
    expect(before).toContain('<h1>For Acme One</h1>');
    expect(before).toContain('h1{color:#aa3300}');
    const next = {
      name: 'Acme Two',
      style: { primaryColor: '#0033aa', linkColor: '#115511' },
      signerDefaults: { allowNameChange: false },
      webhook: { url: 'https://hooks.acme.test/v2', token: 'tok-2' },
      embedOrigins: ['https://app.acme.test'],
    };
    const saved = await admin.call('PUT', '/dashboard/api/organization', { body: next });
    expect(saved.status).toBe(200);
    expect((saved.json as View).settings).toEqual(next);
    const after = await signingPage();
    expect(after).toContain('<h1>For Acme Two</h1>');
    expect(after).toContain('h1{color:#0033aa}');
    // The API reads what the dashboard wrote (one store), and the file holds it with the secret kept.
    const api = await fetch(`${server.url}/api/organization`, { headers: { authorization: basic(ACME) } });
    expect(await api.json()).toEqual(next);
    const disk = JSON.parse(await readFile(orgFile, 'utf8'));
    expect(disk.organizations.acme).toEqual({ ...next, webhook: { ...next.webhook, hmacSecret: SECRET } });
    expect(disk.organizations.globex).toEqual({ name: 'Globex' });
  });

  it('the logo is an upload whose bytes decide its type, kept as a data URL in the settings file and shown on the next signing page; not an image is refused; it can be removed', async () => {
    const png = await sharp({ create: { width: 6, height: 3, channels: 3, background: '#ff0000' } })
      .png()
      .toBuffer();
    // Named .jpg: the bytes, not the name, say PNG.
    const r = await admin.call('PUT', '/dashboard/api/organization/logo', {
      form: logoUpload(png, 'logo.jpg', 'image/jpeg'),
    });
    expect(r.status).toBe(200);
    const dataUrl = `data:image/png;base64,${png.toString('base64')}`;
    expect((r.json as View).settings!.logo).toBe(dataUrl);
    expect(JSON.parse(await readFile(orgFile, 'utf8')).organizations.acme.logo).toBe(dataUrl);
    expect(await signingPage()).toContain(`src="${dataUrl}"`);

    const text = await admin.call('PUT', '/dashboard/api/organization/logo', {
      form: logoUpload(new TextEncoder().encode('/etc/passwd'), 'logo.png', 'image/png'),
    });
    expect(text.status).toBe(400);
    expect((text.json as { fields: Array<{ property: string }> }).fields[0]!.property).toBe('logo');
    // A path in the JSON is refused too: only the settings file itself may name a file.
    const withPath = await admin.call('PUT', '/dashboard/api/organization', {
      body: { name: 'Acme Two', logo: '/etc/hostname' },
    });
    expect(withPath.status).toBe(400);
    expect(JSON.parse(await readFile(orgFile, 'utf8')).organizations.acme.logo).toBe(dataUrl);
    expect(
      (await developer.call('PUT', '/dashboard/api/organization/logo', { form: logoUpload(png, 'l.png', 'image/png') }))
        .status,
    ).toBe(403);

    const removed = await admin.call('DELETE', '/dashboard/api/organization/logo');
    expect(removed.status).toBe(200);
    expect((removed.json as View).settings!.logo).toBeUndefined();
    expect(JSON.parse(await readFile(orgFile, 'utf8')).organizations.acme.logo).toBeUndefined();
  });

  it('another organization sees its own settings only', async () => {
    const globex = new DashboardClient(server.url);
    await globex.signIn(GLOBEX);
    expect(((await globex.call('GET', '/dashboard/api/organization')).json as View).settings).toEqual({
      name: 'Globex',
    });
  });
});
