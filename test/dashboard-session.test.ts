/**
 * The dashboard's sessions and page (DASHBOARD-API.md "Sessions", "Embedding"): signing in with
 * a key of the keys file, the cookie's flags, the CSRF header on mutations, the sign-in throttle,
 * expiry on the server's clock, the page shell's CSP and frame ancestors, and its files.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { buildApp } from '../src/server/index.js';
import { DashboardClient, labelledPdf } from './helpers/dashboard.js';

const ACME = 'prod-acme-key-0123456789';
const GLOBEX = 'prod-globex-key-0123456789';
const TTL_MS = 60 * 60 * 1000;

let app: FastifyInstance;
let base: string;
let dir: string;
let clock = Date.UTC(2026, 0, 5, 9);

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-dash-session-'));
  await writeFile(path.join(dir, 'app.css'), 'body{margin:0}');
  app = await buildApp({
    engine: createEngine({}),
    closeEngine: true,
    now: () => clock,
    trustProxy: ['127.0.0.1'],
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    organizations: (org) =>
      org === 'acme' ? { name: 'Acme', embedOrigins: ['https://app.acme.test'] } : { name: 'Globex' },
    dashboard: {
      sessionTtlMs: TTL_MS,
      signInLimit: { max: 5, windowMs: 60_000 },
      files: { script: path.join(dir, 'app.js'), stylesheet: path.join(dir, 'app.css') },
    },
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (typeof address !== 'object' || !address) throw new Error('no address');
  base = `http://127.0.0.1:${address.port}`;
}, 60_000);

afterAll(async () => {
  await app?.close();
  await rm(dir, { recursive: true, force: true });
});

/** A client whose requests come from `address` (the trusted proxy's X-Forwarded-For): each test its own throttle bucket. */
function clientFrom(address: string): { client: DashboardClient; from: Record<string, string> } {
  return { client: new DashboardClient(base), from: { 'x-forwarded-for': address } };
}

describe('signing in and out', () => {
  it('a key of the keys file opens a session: organization, key label and CSRF token; the cookie is HttpOnly, SameSite=Strict, under /dashboard', async () => {
    const { client, from } = clientFrom('198.51.100.1');
    const r = await client.signIn(ACME, from);
    expect(r.status).toBe(200);
    expect(r.json).toEqual({ organization: 'acme', keyLabel: 'Ada at Acme', csrfToken: expect.any(String) });
    const cookie = r.headers.get('set-cookie')!;
    const attributes = cookie.split(';').map((a) => a.trim());
    expect(attributes[0]).toMatch(/^castpress_dashboard=[A-Za-z0-9_-]{40,}$/);
    expect(attributes).toEqual(expect.arrayContaining(['HttpOnly', 'SameSite=Strict', 'Path=/dashboard']));
    expect(attributes).not.toContain('Secure');
    // The cookie is opaque: neither the key nor its token.
    expect(cookie).not.toContain(ACME);
    expect(cookie).not.toContain(client.csrfToken!);

    const again = await client.call('GET', '/dashboard/session', { headers: from });
    expect(again.status).toBe(200);
    expect(again.json).toEqual(r.json);
    // A key without a label shows the first 12 hex digits of its SHA-256.
    const other = clientFrom('198.51.100.1').client;
    expect((await other.signIn(GLOBEX, from)).json).toMatchObject({
      organization: 'globex',
      keyLabel: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
  });

  it('behind a trusted https proxy the cookie is also Secure', async () => {
    const { client, from } = clientFrom('198.51.100.2');
    const r = await client.signIn(ACME, { ...from, 'x-forwarded-proto': 'https' });
    expect(r.status).toBe(200);
    expect(
      r.headers
        .get('set-cookie')!
        .split(';')
        .map((a) => a.trim()),
    ).toContain('Secure');
  });

  it('a key the keys file does not hold is a 401 naming apiKey, without a Basic challenge (no browser login dialog)', async () => {
    const { client, from } = clientFrom('198.51.100.3');
    const r = await client.signIn('not-a-key-0123456789', from);
    expect(r.status).toBe(401);
    expect(r.json).toEqual({
      name: 'AuthorizationError',
      message: 'Invalid API key.',
      fields: [{ property: 'apiKey', message: 'Invalid API key.' }],
    });
    expect(r.headers.get('www-authenticate')).toBeNull();
    expect(r.headers.get('set-cookie')).toBeNull();
    const none = await client.call('GET', '/dashboard/session', { headers: from });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBeNull();
  });

  it('signing out needs the CSRF header; afterwards the cookie opens nothing', async () => {
    const { client, from } = clientFrom('198.51.100.4');
    await client.signIn(ACME, from);
    for (const csrf of [false, 'wrong-token'] as const) {
      const refused = await client.call('DELETE', '/dashboard/session', { csrf, headers: from });
      expect(refused.status).toBe(403);
      expect(refused.json).toMatchObject({ name: 'ForbiddenError', fields: [{ property: 'x-csrf-token' }] });
    }
    expect((await client.call('GET', '/dashboard/session', { headers: from })).status).toBe(200);
    const out = await client.call('DELETE', '/dashboard/session', { headers: from });
    expect(out.status).toBe(204);
    expect(out.headers.get('set-cookie')).toMatch(
      /^castpress_dashboard=; Path=\/dashboard; HttpOnly; SameSite=Strict; Max-Age=0/,
    );
    expect((await client.call('GET', '/dashboard/session', { headers: from })).status).toBe(401);
    expect((await client.call('GET', '/dashboard/api/templates', { headers: from })).status).toBe(401);
  });

  it('a session ends at its expiry on the server clock', async () => {
    const { client, from } = clientFrom('198.51.100.5');
    await client.signIn(ACME, from);
    clock += TTL_MS - 1000;
    expect((await client.call('GET', '/dashboard/api/templates', { headers: from })).status).toBe(200);
    clock += 2000;
    const ended = await client.call('GET', '/dashboard/api/templates', { headers: from });
    expect(ended.status).toBe(401);
    expect(ended.json).toMatchObject({ name: 'AuthorizationError' });
  });

  it('sign-in is throttled per client address: the sixth attempt in the window is a 429 with Retry-After', async () => {
    const { client, from } = clientFrom('203.0.113.9');
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++)
      statuses.push((await client.signIn(i % 2 ? ACME : 'wrong-key-0123456789', from)).status);
    expect(statuses).toEqual([401, 200, 401, 200, 401]);
    const sixth = await client.signIn(ACME, from);
    expect(sixth.status).toBe(429);
    expect(sixth.json).toMatchObject({ name: 'TooManyRequestsError' });
    expect(Number(sixth.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    // Another address is not held back.
    expect((await clientFrom('203.0.113.10').client.signIn(ACME, { 'x-forwarded-for': '203.0.113.10' })).status).toBe(
      200,
    );
  });
});

describe('CSRF on the API', () => {
  it('mutations without the session token are 403 and change nothing; reads need none', async () => {
    const { client, from } = clientFrom('198.51.100.6');
    await client.signIn(ACME, from);
    const form = new FormData();
    form.set('file', new Blob([new Uint8Array(await labelledPdf('CSRF'))], { type: 'application/pdf' }), 'csrf.pdf');
    const refused = await client.call('POST', '/dashboard/api/templates', { form, csrf: false, headers: from });
    expect(refused.status).toBe(403);
    expect(refused.json).toMatchObject({ name: 'ForbiddenError', fields: [{ property: 'x-csrf-token' }] });
    const list = await client.call('GET', '/dashboard/api/templates', { csrf: false, headers: from });
    expect(list.status).toBe(200);
    expect((list.json as { templates: unknown[] }).templates.filter((t) => JSON.stringify(t).includes('csrf'))).toEqual(
      [],
    );
    // A token of another session is no better than none.
    const other = clientFrom('198.51.100.6').client;
    await other.signIn(ACME, from);
    const crossed = await client.call('POST', '/dashboard/api/templates', {
      form,
      csrf: other.csrfToken!,
      headers: from,
    });
    expect(crossed.status).toBe(403);
    const ok = await client.call('POST', '/dashboard/api/templates', { form, headers: from });
    expect(ok.status).toBe(201);
  });
});

describe('the page and its files', () => {
  it('every client route gets the shell under a strict CSP (no inline script or eval), framed by the server only', async () => {
    for (const route of [
      '/dashboard',
      '/dashboard/sign-in',
      '/dashboard/templates/tplX/versions',
      '/dashboard/packets',
    ]) {
      const res = await fetch(base + route);
      expect(res.status, route).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await res.text();
      expect(html).toContain('<div id="app"></div>');
      expect(html).toMatch(/<script src="\/dashboard\/assets\/app\.js" defer nonce="[^"]+"><\/script>/);
      expect(html).toContain('<link rel="stylesheet" href="/dashboard/assets/app.css">');
      const csp = res.headers.get('content-security-policy')!;
      expect(csp).toMatch(/default-src 'none'/);
      expect(csp).toMatch(/script-src 'self' 'nonce-[^']+' 'wasm-unsafe-eval'(;|$)/);
      expect(csp).not.toMatch(/unsafe-inline|'unsafe-eval'/);
      expect(csp).toMatch(/frame-ancestors 'self'$/);
      expect(res.headers.get('cache-control')).toBe('no-store');
    }
  });

  it("the editor page may be framed by the signed-in organization's embedOrigins, and by no one else for another organization", async () => {
    const acme = clientFrom('198.51.100.7').client;
    await acme.signIn(ACME, { 'x-forwarded-for': '198.51.100.7' });
    const framed = await fetch(`${base}/dashboard/templates/tplAny`, { headers: { cookie: acme.cookie! } });
    expect(framed.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self' https:\/\/app\.acme\.test$/);
    // The versions page is not the editor: not frameable.
    const versions = await fetch(`${base}/dashboard/templates/tplAny/versions`, { headers: { cookie: acme.cookie! } });
    expect(versions.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'$/);
    const globex = clientFrom('198.51.100.7').client;
    await globex.signIn(GLOBEX, { 'x-forwarded-for': '198.51.100.7' });
    const other = await fetch(`${base}/dashboard/templates/tplAny`, { headers: { cookie: globex.cookie! } });
    expect(other.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'$/);
    const anonymous = await fetch(`${base}/dashboard/templates/tplAny`);
    expect(anonymous.headers.get('content-security-policy')).toMatch(/frame-ancestors 'self'$/);
  });

  it('app.js is a clean 404 until the build has made it, then served; app.css and pdf.js are served; nothing else is', async () => {
    const missing = await fetch(`${base}/dashboard/assets/app.js`);
    expect(missing.status).toBe(404);
    expect(await missing.json()).toEqual({
      name: 'NotFoundError',
      message: 'No dashboard asset "app.js"',
      fields: [{ property: 'path', message: 'No dashboard asset "app.js"' }],
    });
    await writeFile(path.join(dir, 'app.js'), 'document.title = "built";');
    const built = await fetch(`${base}/dashboard/assets/app.js`);
    expect(built.status).toBe(200);
    expect(built.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(await built.text()).toBe('document.title = "built";');
    const css = await fetch(`${base}/dashboard/assets/app.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
    expect(await css.text()).toBe('body{margin:0}');
    for (const name of ['pdf.mjs', 'pdf.worker.mjs']) {
      const res = await fetch(`${base}/dashboard/assets/${name}`);
      expect(res.status, name).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
      expect((await res.text()).length).toBeGreaterThan(100_000);
    }
    for (const name of ['../../package.json', '%2e%2e%2fpackage.json', 'app.ts', 'pdf.min.mjs']) {
      expect((await fetch(`${base}/dashboard/assets/${name}`)).status, name).toBe(404);
    }
  });

  it('an unknown API route is a JSON 404, not the page', async () => {
    const { client, from } = clientFrom('198.51.100.8');
    await client.signIn(ACME, from);
    const r = await client.call('GET', '/dashboard/api/nothing-here', { headers: from });
    expect(r.status).toBe(404);
    expect(r.json).toMatchObject({ name: 'NotFoundError', fields: [{ property: 'path' }] });
  });
});
