/**
 * Organization settings without a restart, through `castpress serve --org FILE` as a user runs it:
 * a change of the file shows on the next signing page and API read; SIGHUP reads the file again (a
 * new logo behind the same path, which no watch of the file sees); a bad file keeps the settings in
 * force and logs a typed error naming the property; `GET`/`PUT /api/organization` read and change
 * the settings of the key's organization only (written back to the file), and what a PUT changes
 * (name, signer defaults, webhook URL and token, the TSA's keys, the forms' rate limit) applies to
 * the next request.
 * Waits are for the server's own reload log lines, never a fixed time.
 */
import { randomBytes } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServe, stopServe, type ServeProcess } from './helpers/serve.js';
import { tempDir } from './helpers/signing.js';
import { until, WebhookReceiver } from './helpers/workflow.js';
import { basic } from './server-setup.js';

const Anvil = anvilModule.default;
const ACME = 'prod-acme-key-0123456789';
const ACME_DEV = 'dev-acme-key-0123456789';
const GLOBEX = 'prod-globex-key-0123456789';
const SECRET = 'acme-hmac-secret-0123456789';

let tmp: { dir: string; remove: () => Promise<void> };
let serve: ServeProcess;
let base = '';
let orgFile = '';
let hooksA: WebhookReceiver;
let hooksB: WebhookReceiver;
let logoA: Buffer;
let logoB: Buffer;

const acme = (over: Record<string, unknown> = {}) => ({
  name: 'Acme One',
  logo: 'logo.png',
  style: { primaryColor: '#aa3300' },
  webhook: { url: hooksA.url, token: 'tok-1', hmacSecret: SECRET },
  timestampAuthority: { developmentKeys: false },
  formRateLimit: { form: 1 },
  ...over,
});
const globex = { name: 'Globex', supportEmail: 'help@globex.example' };

/** Writes the settings file as an editor does: a new file renamed over the old one. */
async function writeSettings(json: unknown): Promise<void> {
  const temp = path.join(tmp.dir, `.org-${randomBytes(4).toString('hex')}.tmp`);
  await writeFile(temp, JSON.stringify(json, null, 2));
  await rename(temp, orgFile);
}

/** The server's log lines (pino JSON on stdout) with this message. */
function logged(msg: RegExp): Array<Record<string, unknown>> {
  return serve
    .stdout()
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((l) => typeof l.msg === 'string' && msg.test(l.msg));
}

/** Runs `change`, then waits for the next reload log line (of `cause`) and returns it. */
async function reloadAfter(change: () => Promise<void> | void, cause: string): Promise<Record<string, unknown>> {
  const before = logged(/^organization settings/).length;
  await change();
  const lines = await until(
    () => logged(/^organization settings/).slice(before),
    (l) => l.some((x) => x.cause === cause),
    30_000,
  );
  const line = lines.find((x) => x.cause === cause);
  expect(line, serve.stdout().slice(-2000)).toBeDefined();
  return line!;
}

const api = (key: string, init: RequestInit = {}) =>
  fetch(`${base}/api/organization`, {
    ...init,
    headers: { authorization: basic(key), ...(init.body ? { 'content-type': 'application/json' } : {}) },
  });

async function signingPage(key: string, name: string): Promise<string> {
  const client = new Anvil({ apiKey: key, baseURL: base });
  const r = (await client.createEtchPacket({
    variables: {
      name,
      isTest: true,
      signaturePageOptions: { title: 'For {{organization.name}}' },
      files: [
        {
          id: 'doc',
          filename: 'doc.pdf',
          title: 'Doc',
          fields: [
            { content: 'Text.' },
            { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
          ],
        },
      ],
      signers: [
        {
          id: 's',
          name: 'Sam Signer',
          email: 'sam@example.com',
          signerType: 'embedded',
          fields: [{ fileId: 'doc', fieldId: 'sig' }],
        },
      ],
    },
  })) as {
    errors?: unknown;
    data?: { data?: { createEtchPacket: { documentGroup: { signers: Array<{ eid: string }> } } } };
  };
  expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
  const signerEid = r.data!.data!.createEtchPacket.documentGroup.signers[0]!.eid;
  const { url } = await client.generateEtchSignUrl({ variables: { signerEid, clientUserId: 'u' } });
  const page = await fetch(url!);
  expect(page.status).toBe(200);
  return page.text();
}

const b64 = (b: Buffer) => `data:image/png;base64,${b.toString('base64')}`;

beforeAll(async () => {
  tmp = await tempDir('castpress-org-reload-');
  hooksA = await WebhookReceiver.start();
  hooksB = await WebhookReceiver.start();
  logoA = await sharp({ create: { width: 4, height: 2, channels: 3, background: '#ff0000' } })
    .png()
    .toBuffer();
  logoB = await sharp({ create: { width: 4, height: 2, channels: 3, background: '#0000ff' } })
    .png()
    .toBuffer();
  await writeFile(path.join(tmp.dir, 'logo.png'), logoA);
  await writeFile(
    path.join(tmp.dir, 'keys.json'),
    JSON.stringify({
      keys: [
        { key: ACME, kind: 'production', organization: 'acme' },
        { key: ACME_DEV, kind: 'development', organization: 'acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    }),
  );
  // One workflow of acme's: its form's posts count against acme's formRateLimit.
  const workflows = path.join(tmp.dir, 'workflows');
  await mkdir(workflows);
  await writeFile(
    path.join(workflows, 'w.json'),
    JSON.stringify({
      eid: 'weldAcme',
      slug: 'acme-form',
      title: 'Acme form',
      organization: 'acme',
      forges: [
        { eid: 'weldAcmeF1', slug: 'who', name: 'Who', fields: [{ name: 'name', type: 'shortText', label: 'Name' }] },
        { eid: 'weldAcmeF2', slug: 'ok', name: 'OK', fields: [{ name: 'ok', type: 'checkbox', label: 'OK' }] },
      ],
      packet: {
        name: 'Acme packet',
        isTest: true,
        files: [
          {
            id: 'doc',
            filename: 'doc.pdf',
            title: 'Doc',
            fields: [
              { content: 'Text.' },
              { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 40 } },
            ],
          },
        ],
        signers: [
          {
            id: 'signer',
            name: '{{who.name}}',
            email: 'signer@example.com',
            signerType: 'embedded',
            fields: [{ fileId: 'doc', fieldId: 'sig' }],
          },
        ],
      },
    }),
  );
  orgFile = path.join(tmp.dir, 'org.json');
  await writeSettings({ organizations: { acme: acme(), globex } });
  serve = startServe([
    '--port',
    '0',
    '--keys',
    path.join(tmp.dir, 'keys.json'),
    '--data',
    path.join(tmp.dir, 'data'),
    '--org',
    orgFile,
    '--tsa',
    'local',
    '--workflows',
    workflows,
    // An hour's window: no bucket empties during the test.
    '--form-rate-limit',
    'window=3600',
    '--allow-host',
    hooksA.host,
    '--allow-host',
    hooksB.host,
    '--log-level',
    'info',
  ]);
  base = await serve.url;
}, 120_000);

afterAll(async () => {
  if (serve) await stopServe(serve);
  await hooksA?.close();
  await hooksB?.close();
  await tmp?.remove();
}, 60_000);

describe('organization settings without a restart', () => {
  it("GET /api/organization answers the key's own organization, never the HMAC secret, never another's", async () => {
    const got = await api(ACME);
    expect(got.status).toBe(200);
    const body = (await got.json()) as Record<string, unknown>;
    expect(body).toEqual({ ...acme(), webhook: { url: hooksA.url, token: 'tok-1' } });
    expect(JSON.stringify(body)).not.toContain(SECRET);
    // Nothing in the request chooses the organization: the key does.
    const other = await fetch(`${base}/api/organization?organization=acme`, {
      headers: { authorization: basic(GLOBEX) },
    });
    expect(await other.json()).toEqual(globex);
    expect((await api(ACME_DEV)).status).toBe(200);
    expect((await fetch(`${base}/api/organization`)).status).toBe(401);
  });

  it('a change of the file shows on the next signing page; a bad file keeps the settings in force and names the property', async () => {
    const before = await signingPage(ACME, 'Before');
    expect(before).toContain('<h1>For Acme One</h1>');
    expect(before).toContain('h1{color:#aa3300}');

    await reloadAfter(
      () =>
        writeSettings({
          organizations: { acme: acme({ name: 'Acme Two', style: { primaryColor: '#0033aa' } }), globex },
        }),
      'watch',
    );
    const after = await signingPage(ACME, 'After');
    expect(after).toContain('<h1>For Acme Two</h1>');
    expect(after).toContain('h1{color:#0033aa}');
    expect(((await (await api(ACME)).json()) as { name: string }).name).toBe('Acme Two');

    const refused = await reloadAfter(
      () =>
        writeSettings({
          organizations: { acme: acme({ name: 'Acme Bad', webhook: { url: 'ftp://hooks.example' } }), globex },
        }),
      'watch',
    );
    expect(refused.level).toBe(50);
    const err = refused.err as { name: string; fields: Array<{ property: string }> };
    expect(err.name).toBe('ValidationError');
    expect(err.fields.map((f) => f.property)).toContain('organizations.acme.webhook.url');
    expect(String(refused.msg)).toContain(orgFile);
    // The last good settings stay.
    expect(await signingPage(ACME, 'Still')).toContain('<h1>For Acme Two</h1>');
    expect(((await (await api(ACME)).json()) as { name: string }).name).toBe('Acme Two');
    // ...and nothing is written over a file that does not check.
    const blocked = await api(ACME, { method: 'PUT', body: JSON.stringify(acme({ name: 'Acme Put' })) });
    expect(blocked.status).toBe(409);
    expect(((await blocked.json()) as { name: string }).name).toBe('OrganizationSettingsConflictError');
    expect(await readFile(orgFile, 'utf8')).toContain('Acme Bad');

    await reloadAfter(() => writeSettings({ organizations: { acme: acme({ name: 'Acme Two' }), globex } }), 'watch');
  }, 180_000);

  it('SIGHUP reads the file again: a new logo behind the same path shows on the next page', async () => {
    expect(await signingPage(ACME, 'Logo A')).toContain(b64(logoA));
    // The settings file does not change, so only the signal makes the server read the logo again.
    await writeFile(path.join(tmp.dir, 'logo.png'), logoB);
    const line = await reloadAfter(() => void serve.child.kill('SIGHUP'), 'signal');
    expect(line.level).toBe(30);
    const page = await signingPage(ACME, 'Logo B');
    expect(page).toContain(b64(logoB));
    expect(page).not.toContain(b64(logoA));
    expect(serve.child.exitCode).toBeNull();
  }, 120_000);

  it("PUT /api/organization: checked by the settings schema, written to the file, in force for the next request, the key's organization only", async () => {
    // Refused bodies: the same typed errors as the file's, nothing written.
    const fileBefore = await readFile(orgFile, 'utf8');
    const bad = await api(ACME, { method: 'PUT', body: JSON.stringify({ name: 'X', webhook: { url: 'ftp://x' } }) });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { fields: Array<{ property: string }> }).fields.map((f) => f.property)).toEqual([
      'webhook.url',
    ]);
    // A file path would let a caller show any image of the server's disk: only a data URL (or the file's own value).
    const path1 = await api(ACME, { method: 'PUT', body: JSON.stringify({ name: 'X', logo: '../keys.png' }) });
    expect(path1.status).toBe(400);
    expect(((await path1.json()) as { fields: Array<{ property: string }> }).fields[0]!.property).toBe('logo');
    const dev = await api(ACME_DEV, { method: 'PUT', body: JSON.stringify({ name: 'Dev' }) });
    expect(dev.status).toBe(403);
    expect(await readFile(orgFile, 'utf8')).toBe(fileBefore);

    // The TSA refuses the organization's development keys before the change.
    const tsa = () =>
      fetch(`${base}/tsa`, {
        method: 'POST',
        headers: { authorization: basic(ACME_DEV), 'content-type': 'text/plain' },
        body: 'x',
      });
    expect((await tsa()).status).toBe(403);

    const changed = {
      name: 'Acme Three',
      logo: 'logo.png',
      signerDefaults: { allowNameChange: true },
      webhook: { url: hooksB.url, token: 'tok-3' },
      timestampAuthority: { developmentKeys: true },
    };
    const put = await api(ACME, { method: 'PUT', body: JSON.stringify(changed) });
    expect(put.status, await put.clone().text()).toBe(200);
    expect(await put.json()).toEqual(changed);
    expect(await (await api(ACME)).json()).toEqual(changed);
    // Written back: acme's entry replaced (the secret it omitted kept), globex's untouched.
    const onDisk = JSON.parse(await readFile(orgFile, 'utf8')) as {
      organizations: Record<string, { webhook?: { hmacSecret?: string } }>;
    };
    expect(onDisk.organizations.globex).toEqual(globex);
    expect(onDisk.organizations.acme).toEqual({ ...changed, webhook: { ...changed.webhook, hmacSecret: SECRET } });
    expect(await (await api(GLOBEX)).json()).toEqual(globex);

    // In force for the next request: the page's name, the signer default, the webhook URL and token, the TSA.
    const page = await signingPage(ACME, 'Put');
    expect(page).toContain('<h1>For Acme Three</h1>');
    expect(page).toContain('id="my-name"');
    const hooks = await until(
      () => hooksB.accepted('signerUpdateStatus'),
      (h) => h.length > 0,
    );
    expect(hooks[0]!.body.token).toBe('tok-3');
    expect(hooks[0]!.headers['x-castpress-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
    expect((await tsa()).status).toBe(415);

    // Another organization's key changes its own settings only.
    const g = await api(GLOBEX, { method: 'PUT', body: JSON.stringify({ name: 'Globex Two' }) });
    expect(g.status).toBe(200);
    expect(((await (await api(ACME)).json()) as { name: string }).name).toBe('Acme Three');
    expect(await signingPage(ACME, 'Mine')).toContain('<h1>For Acme Three</h1>');
    expect(await signingPage(GLOBEX, 'Theirs')).toContain('<h1>For Globex Two</h1>');
  }, 180_000);

  it("a PUT of formRateLimit applies to the organization's next form post", async () => {
    const post = async () =>
      (
        await fetch(`${base}/weld/acme-form/who`, {
          method: 'POST',
          headers: { accept: 'application/json', 'content-type': 'application/x-www-form-urlencoded' },
          body: new URLSearchParams({ name: 'Ada', submissionEid: `sub_${randomBytes(15).toString('base64url')}` }),
        })
      ).status;
    const current = (await (await api(ACME)).json()) as Record<string, unknown>;
    const put = await api(ACME, { method: 'PUT', body: JSON.stringify({ ...current, formRateLimit: { form: 1 } }) });
    expect(put.status).toBe(200);
    expect(await post()).toBe(201);
    expect(await post()).toBe(429);
    const wider = await api(ACME, { method: 'PUT', body: JSON.stringify({ ...current, formRateLimit: { form: 10 } }) });
    expect(wider.status).toBe(200);
    expect(await post()).toBe(201);
  }, 120_000);
});
