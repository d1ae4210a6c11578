/**
 * Embedded editing across sites through the official client's `requestGraphQL`: `generateEmbedURL`
 * (the hosted API's name and arguments) gives a single-use URL of one template's editor; opening it
 * sets a `SameSite=None; Secure; Partitioned` cookie of a session limited to that template and sends
 * the frame on to the editor, framed by the organization's `embedOrigins`. The token is stored only
 * as its SHA-256; a second use and an expired link are refused; the limited session reaches its
 * template (read, save, publish) and nothing else: another template 404, the list, packets,
 * settings and other pages 403. Arguments are checked with their property names.
 */
import { createHash } from 'node:crypto';
import { readdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { Writable } from 'node:stream';
import anvilModule from '@anvilco/anvil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { DashboardClient, labelledPdf, textField } from './helpers/dashboard.js';
import { tempDir } from './helpers/signing.js';

const Anvil = anvilModule.default;
type Client = InstanceType<typeof Anvil>;
const ACME = 'prod-acme-embed-key-0123456789';
const GLOBEX = 'prod-globex-embed-key-0123456789';
const PARENT = 'https://app.acme.test';

const GENERATE = `mutation GenerateEmbedURL($eid: String!, $type: String!, $validForSeconds: Int, $metadata: JSON, $options: JSON) {
  generateEmbedURL(eid: $eid, type: $type, validForSeconds: $validForSeconds, metadata: $metadata, options: $options) { url requestTokenEid expiresAt }
}`;

type Answer = {
  statusCode: number;
  data?: { data?: Record<string, unknown> };
  errors?: Array<{
    message: string;
    extensions?: { name?: string; status?: number; fields?: Array<{ property: string }> };
  }>;
};
interface EmbedUrl {
  url: string;
  requestTokenEid: string;
  expiresAt: string;
}

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let acme: Client;
let globex: Client;
let owner: DashboardClient;
let lease = '';
let other = '';
/** The server's log, as it writes it (JSON lines). */
let log = '';

async function generate(client: Client, variables: Record<string, unknown>): Promise<Answer> {
  return (await client.requestGraphQL({ query: GENERATE, variables })) as unknown as Answer;
}

async function embedUrl(variables: Record<string, unknown> = {}): Promise<EmbedUrl> {
  const a = await generate(acme, { eid: lease, type: 'edit-pdf-template', ...variables });
  expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
  return a.data!.data!.generateEmbedURL as EmbedUrl;
}

/** Opens an embed URL as a frame's first request does (no redirect followed); a client holding the cookie it set. */
async function open(url: string): Promise<{ res: Response; client: DashboardClient }> {
  const res = await fetch(url, { redirect: 'manual', headers: { referer: `${PARENT}/builder` } });
  const client = new DashboardClient(server.url);
  const set = res.headers.get('set-cookie');
  if (set) client.cookie = set.split(';')[0];
  if (res.status === 303) {
    const s = await client.call('GET', '/dashboard/session');
    client.csrfToken = (s.json as { csrfToken: string }).csrfToken;
  }
  return { res, client };
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-embed-');
  const orgFile = path.join(tmp.dir, 'org.json');
  await writeFile(
    orgFile,
    JSON.stringify({
      organizations: { acme: { name: 'Acme', embedOrigins: [PARENT] }, globex: { name: 'Globex' } },
    }),
  );
  server = await startServer({
    port: 0,
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    organizations: orgFile,
    packets: { dataDir: path.join(tmp.dir, 'data'), deliver: false },
    renderPool: false,
    fetch: false,
    logger: 'info',
    logStream: new Writable({ write: (chunk, _enc, done) => ((log += String(chunk)), done()) }),
  });
  acme = new Anvil({ apiKey: ACME, baseURL: server.url });
  globex = new Anvil({ apiKey: GLOBEX, baseURL: server.url });
  owner = new DashboardClient(server.url);
  expect((await owner.signIn(ACME)).status).toBe(200);
  lease = (
    (await owner.upload(await labelledPdf('Lease'), 'lease.pdf', { detect: 'false' })).json as {
      template: { eid: string };
    }
  ).template.eid;
  other = (
    (await owner.upload(await labelledPdf('Other'), 'other.pdf', { detect: 'false' })).json as {
      template: { eid: string };
    }
  ).template.eid;
}, 120_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

describe('generateEmbedURL', () => {
  it("answers a URL of this server's /dashboard/embed/ with a public id and an expiry; the token is stored only as its SHA-256", async () => {
    const asked = Date.now();
    const link = await embedUrl({ validForSeconds: 600, metadata: { myUserId: '1234' }, options: { title: 'Hi' } });
    const answered = Date.now();
    expect(link.url.startsWith(`${server.url}/dashboard/embed/`)).toBe(true);
    const token = link.url.split('/').pop()!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(link.requestTokenEid).not.toBe(token);
    // 600 s after the server made it: between the request and its answer, however long that took.
    const expires = Date.parse(link.expiresAt);
    expect(expires).toBeGreaterThanOrEqual(Math.floor(asked / 1000) * 1000 + 600_000);
    expect(expires).toBeLessThanOrEqual(answered + 600_000);
    // Whatever files the database keeps, the token is not in them; its digest is.
    const dataDir = path.join(tmp.dir, 'data');
    const files = (await readdir(dataDir, { recursive: true })).map((f) => path.join(dataDir, String(f)));
    let all = '';
    for (const f of files)
      all += await readFile(f)
        .then((b) => b.toString('latin1'))
        .catch(() => '');
    expect(all).not.toContain(token);
    expect(all).toContain(createHash('sha256').update(token).digest('hex'));
  });

  it("refuses a wrong type, a validForSeconds out of range (both named), and another organization's template (404)", async () => {
    const bad = await generate(acme, { eid: lease, type: 'edit-workflow', validForSeconds: 0 });
    expect(bad.statusCode).toBe(400);
    expect(bad.errors![0]!.extensions!.fields!.map((f) => f.property).sort()).toEqual(['type', 'validForSeconds']);
    const theirs = await generate(globex, { eid: lease, type: 'edit-pdf-template' });
    expect(theirs.statusCode).toBe(404);
    expect(theirs.errors![0]!.extensions!.name).toBe('NotFoundError');
  });
});

describe('opening an embed URL', () => {
  it('sets a SameSite=None; Secure; Partitioned session cookie (loopback http) and sends the frame to the editor, framed by embedOrigins', async () => {
    const { res, client } = await open((await embedUrl()).url);
    expect(res.status).toBe(303);
    expect(res.headers.get('location')).toBe(`/dashboard/templates/${encodeURIComponent(lease)}`);
    const attributes = res.headers
      .get('set-cookie')!
      .split(';')
      .map((a) => a.trim());
    expect(attributes[0]).toMatch(/^castpress_embed=[A-Za-z0-9_-]{43}$/);
    expect(attributes).toEqual(
      expect.arrayContaining(['HttpOnly', 'SameSite=None', 'Secure', 'Partitioned', 'Path=/dashboard']),
    );
    const session = await client.call('GET', '/dashboard/session');
    expect(session.json).toEqual({
      organization: 'acme',
      keyLabel: 'Ada at Acme',
      csrfToken: expect.any(String),
      templateEid: lease,
    });
    const page = await client.call('GET', `/dashboard/templates/${encodeURIComponent(lease)}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-security-policy')).toContain(`frame-ancestors 'self' ${PARENT}`);
  });

  it('a second use of the same URL is refused (401), and so is a URL past its validForSeconds', async () => {
    const link = await embedUrl();
    expect((await open(link.url)).res.status).toBe(303);
    const replay = await open(link.url);
    expect(replay.res.status).toBe(401);
    expect(replay.res.headers.get('set-cookie')).toBeNull();
    expect(((await replay.res.json()) as { name: string }).name).toBe('AuthorizationError');

    const short = await embedUrl({ validForSeconds: 1 });
    // The test waits out the link's own expiry (as the server states it), then uses it.
    while (Date.now() <= Date.parse(short.expiresAt) + 50) await new Promise((r) => setTimeout(r, 100));
    const late = await open(short.url);
    expect(late.res.status).toBe(401);
    expect(late.res.headers.get('set-cookie')).toBeNull();
    // A made-up token is the same answer.
    expect((await open(`${server.url}/dashboard/embed/${'A'.repeat(43)}`)).res.status).toBe(401);
  });

  it('leaves no token in the request log: the embed link’s path segment and any query token are redacted', async () => {
    const unused = await embedUrl();
    const token = unused.url.split('/').pop()!;
    const used = await embedUrl();
    const usedToken = used.url.split('/').pop()!;
    expect((await open(used.url)).res.status).toBe(303);
    // The unused link with a token-like query besides, and a signing and a download link with their query tokens.
    const queryToken = 'Q'.repeat(43);
    await fetch(`${unused.url}?token=${queryToken}&t=${queryToken}`, { redirect: 'manual' });
    // A path the embed route does not match (the dashboard's own pages answer it) still carries a live token.
    const strayed = await embedUrl();
    const strayedToken = strayed.url.split('/').pop()!;
    await fetch(`${strayed.url}/extra`, { redirect: 'manual' });
    await fetch(`${server.url}/sign/SignerEid123?token=${queryToken}`, { redirect: 'manual' });
    await fetch(`${server.url}/download/signer/SignerEid123?token=${queryToken}`, { redirect: 'manual' });
    const lines = log
      .split('\n')
      .filter((l) => l !== '')
      .map((l) => JSON.parse(l) as { msg: string; req?: { path: string } });
    const paths = lines.filter((l) => l.msg === 'incoming request').map((l) => l.req!.path);
    expect(paths).toContain('/dashboard/embed/[redacted]');
    expect(paths).toContain('/sign/SignerEid123');
    expect(paths).toContain('/download/signer/SignerEid123');
    expect(paths).toContain('/dashboard/embed/[redacted]/extra');
    for (const secret of [token, usedToken, strayedToken, queryToken]) expect(log).not.toContain(secret);
  });

  it('the limited session edits, publishes and previews its template, and reaches nothing else', async () => {
    const { client } = await open((await embedUrl()).url);
    const one = `/dashboard/api/templates/${encodeURIComponent(lease)}`;
    expect((await client.call('GET', one)).status).toBe(200);
    expect((await client.call('GET', `${one}/pdf`)).status).toBe(200);
    const saved = await client.call('PUT', `${one}/working`, { body: { fields: [textField('tenant', 100)] } });
    expect(saved.status).toBe(200);
    expect((await client.call('POST', `${one}/publish`)).status).toBe(200);
    expect((await client.call('POST', `${one}/preview`, { body: { data: { tenant: 'Ada' } } })).status).toBe(200);
    // The mutation still needs the session's CSRF token.
    expect((await client.call('PUT', `${one}/working`, { body: { fields: [] }, csrf: false })).status).toBe(403);

    const theirs = `/dashboard/api/templates/${encodeURIComponent(other)}`;
    expect((await client.call('GET', theirs)).status).toBe(404);
    expect((await client.call('PUT', `${theirs}/working`, { body: { fields: [] } })).status).toBe(404);
    for (const [method, p] of [
      ['GET', '/dashboard/api/templates'],
      ['DELETE', one],
      ['POST', `${one}/duplicate`],
      ['GET', '/dashboard/api/packets'],
      ['GET', '/dashboard/api/deliveries'],
      ['GET', '/dashboard/api/organization'],
      ['PUT', '/dashboard/api/organization'],
      ['POST', '/dashboard/api/templates/import'],
    ] as const)
      expect((await client.call(method, p, method === 'GET' ? {} : { body: {} })).status, `${method} ${p}`).toBe(403);
    for (const page of ['/dashboard', '/dashboard/packets', '/dashboard/settings', `/dashboard/templates/${other}`])
      expect((await client.call('GET', page)).status, page).toBe(403);
    expect((await client.call('GET', `${one.replace('/api', '')}/versions`)).status).toBe(200);
    // The owner's full session is untouched by it.
    expect((await owner.call('GET', '/dashboard/api/templates')).status).toBe(200);
  });
});
