/**
 * What the local CA publishes through the server: the CRL at `/signing/crl/<id>.crl` is
 * signed once per interval, not per request (with the server's clock pinned: the same bytes for an
 * hour, thisUpdate the time it was signed; a new one after the hour, or as soon as a certificate is
 * revoked), and `POST /tsa` answers an organization's keys as its settings say (production keys by
 * default, development keys only when allowed).
 */
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine, type Engine } from '../src/index.js';
import { parseOrganizationFile } from '../src/packets/index.js';
import { buildApp } from '../src/server/index.js';
import { createSigningIdentity, LocalCaRevocation, type SigningIdentity } from '../src/signing/index.js';
import { basic } from './server-setup.js';
import { tempDir, tool } from './helpers/signing.js';

const T0 = Date.parse('2026-03-01T10:00:00Z');
const MINUTE = 60_000;

let tmp: { dir: string; remove: () => Promise<void> };
let engine: Engine;
let identity: SigningIdentity;
let app: FastifyInstance;
let clock = T0;

const KEYS = {
  devDefault: 'dev-default-0123456789',
  prodDefault: 'prod-default-0123456789',
  devLab: 'dev-lab-0123456789',
  prodStrict: 'prod-strict-0123456789',
};

beforeAll(async () => {
  tmp = await tempDir('castpress-signing-ca-');
  identity = await createSigningIdentity({ dataDir: tmp.dir });
  engine = createEngine();
  app = await buildApp({
    engine,
    now: () => clock,
    config: {
      keys: [
        { key: KEYS.devDefault, kind: 'development' },
        { key: KEYS.prodDefault, kind: 'production' },
        { key: KEYS.devLab, kind: 'development', organization: 'lab' },
        { key: KEYS.prodStrict, kind: 'production', organization: 'strict' },
      ],
    },
    organizations: parseOrganizationFile({
      organizations: {
        default: { name: 'Default' },
        lab: { name: 'Lab', timestampAuthority: { developmentKeys: true } },
        strict: { name: 'Strict', timestampAuthority: { productionKeys: false } },
      },
    }),
    signingCa: { dataDir: tmp.dir, tsa: true },
  });
  await app.ready();
}, 60_000);

afterAll(async () => {
  await app?.close();
  await engine?.close();
  await tmp?.remove();
}, 60_000);

async function crlAt(time: number): Promise<{ bytes: Buffer; maxAge: string | undefined; text: string }> {
  clock = time;
  const res = await app.inject({ method: 'GET', url: `/signing/crl/${identity.installId}.crl` });
  expect(res.statusCode, res.body).toBe(200);
  const bytes = res.rawPayload;
  const file = path.join(tmp.dir, `crl-${time}.der`);
  await writeFile(file, bytes);
  const r = await tool('openssl', ['crl', '-inform', 'DER', '-in', file, '-noout', '-text']);
  expect(r.code, r.stderr).toBe(0);
  return { bytes, maxAge: res.headers['cache-control'] as string | undefined, text: r.stdout };
}

const lastUpdate = (text: string) => /Last Update: (.+)/.exec(text)?.[1]?.trim();

describe('the CRL', () => {
  it('is signed once per hour, and again as soon as a certificate is revoked', async () => {
    const first = await crlAt(T0);
    expect(lastUpdate(first.text)).toBe('Mar  1 10:00:00 2026 GMT');
    expect(first.maxAge).toBe('public, max-age=3600');
    // Within the hour: the very bytes signed at T0, whatever the clock says now.
    for (const later of [1, 30, 59]) {
      const again = await crlAt(T0 + later * MINUTE);
      expect(again.bytes.equals(first.bytes), `${later} min`).toBe(true);
      expect(again.maxAge).toBe(`public, max-age=${(60 - later) * 60}`);
    }
    // A revocation is published at once.
    const ca = await LocalCaRevocation.open({ dataDir: tmp.dir, clock: () => new Date(T0) });
    const revoked = await ca.revoke(identity.certificate);
    const after = await crlAt(T0 + 59 * MINUTE + 30_000);
    expect(after.bytes.equals(first.bytes)).toBe(false);
    expect(after.text).toMatch(new RegExp(`Serial Number: 0*${revoked.serialNumber}`, 'i'));
    expect(lastUpdate(after.text)).toBe('Mar  1 10:59:30 2026 GMT');
    expect((await crlAt(T0 + 100 * MINUTE)).bytes.equals(after.bytes)).toBe(true);
    // An hour after it was signed, the next one.
    const next = await crlAt(T0 + 119 * MINUTE + 30_000);
    expect(next.bytes.equals(after.bytes)).toBe(false);
    expect(lastUpdate(next.text)).toBe('Mar  1 11:59:30 2026 GMT');
  }, 60_000);
});

describe('POST /tsa', () => {
  let query: Buffer;
  beforeAll(async () => {
    await writeFile(path.join(tmp.dir, 'data.txt'), 'stamped\n');
    const r = await tool('openssl', ['ts', '-query', '-data', 'data.txt', '-sha256', '-cert', '-out', 'q.tsq'], {
      cwd: tmp.dir,
    });
    expect(r.code, r.stderr).toBe(0);
    query = await readFile(path.join(tmp.dir, 'q.tsq'));
  });

  const stamp = (key: string) =>
    app.inject({
      method: 'POST',
      url: '/tsa',
      headers: { authorization: basic(key), 'content-type': 'application/timestamp-query' },
      payload: query,
    });

  it('answers production keys and refuses development keys unless their organization allows them', async () => {
    const answers = Object.fromEntries(
      await Promise.all(Object.entries(KEYS).map(async ([name, key]) => [name, (await stamp(key)).statusCode])),
    );
    expect(answers).toEqual({ devDefault: 403, prodDefault: 200, devLab: 200, prodStrict: 403 });
    const refused = await stamp(KEYS.devDefault);
    expect(refused.json()).toMatchObject({ name: 'ForbiddenError', fields: [{ property: 'authorization' }] });
    const answered = await stamp(KEYS.prodDefault);
    expect(answered.headers['content-type']).toBe('application/timestamp-reply');
  }, 60_000);
});
