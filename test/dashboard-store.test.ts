/**
 * The editable template store's contract (src/template TemplateCatalogue) on each implementation:
 * in memory, and in the server's database on SQLite and on PostgreSQL (a real server, test/helpers).
 * Then what only a database gives: two instances on one PostgreSQL see the same templates and
 * sessions and number concurrent publishes one after the other, and a reopened SQLite store keeps
 * what was made.
 */
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { buildApp } from '../src/server/index.js';
import { LazyPacketStore } from '../src/server/graphql/index.js';
import { MemoryTemplateCatalogue, type TemplateCatalogue } from '../src/template/index.js';
import { openPostgresStore, openSqliteStore, type PacketStore } from '../src/packets/index.js';
import { DashboardClient, labelledPdf, textField } from './helpers/dashboard.js';
import { itemsInRect, joinItems, readText } from './helpers/pdf.js';
import { PostgresServer } from './helpers/postgres.js';
import { tempDir } from './helpers/signing.js';

type Field = ReturnType<typeof textField> & { type: 'shortText' };
const field = (id: string, y: number) => textField(id, y) as Field;
const PAGES = [{ width: 612, height: 792 }];

let tmp: { dir: string; remove: () => Promise<void> };
let postgres: PostgresServer | undefined;
const opened: PacketStore[] = [];
let pdf: Uint8Array;

beforeAll(async () => {
  tmp = await tempDir('castpress-template-store-');
  pdf = await labelledPdf('Store');
}, 60_000);

afterAll(async () => {
  for (const s of opened) await s.close().catch(() => undefined);
  await postgres?.stop();
  await tmp?.remove();
}, 60_000);

async function pg(): Promise<PacketStore> {
  postgres ??= await PostgresServer.start();
  const store = await openPostgresStore({ connectionString: postgres.connectionString });
  opened.push(store);
  return store;
}

async function sqlite(name: string): Promise<PacketStore> {
  const store = await openSqliteStore({ dir: path.join(tmp.dir, name) });
  opened.push(store);
  return store;
}

let sqliteCount = 0;
const kinds: Array<[string, () => Promise<TemplateCatalogue>]> = [
  ['memory', async () => new MemoryTemplateCatalogue()],
  ['SQLite', async () => (await sqlite(`sqlite-${++sqliteCount}`)).templates],
  ['PostgreSQL', async () => (await pg()).templates],
];

describe.each(kinds)('the template store: %s', (_name, open) => {
  let store: TemplateCatalogue;
  beforeAll(async () => {
    store = await open();
  }, 120_000);

  it('finds templates by organization: another organization has no such EID; versions as a fill picks them', async () => {
    const t = await store.create(
      'acme',
      { name: 'Lease', pdf, pages: PAGES, content: { fields: [field('a', 100)] } },
      1000,
    );
    expect(t).toMatchObject({
      organization: 'acme',
      name: 'Lease',
      pages: PAGES,
      publishedVersion: null,
      hasUnpublishedChanges: true,
      versions: [],
      createdAt: 1000,
      updatedAt: 1000,
    });
    expect(await store.find('globex', t.eid)).toBeUndefined();
    await expect(store.record('globex', t.eid)).rejects.toMatchObject({ name: 'NotFoundError', status: 404 });
    // Nothing published: the default is a 404 that says what to do; the working version fills.
    await expect(store.find('acme', t.eid)).rejects.toThrow(/no published version yet/);
    const working = await store.find('acme', t.eid, -1);
    expect(working).toMatchObject({ eid: t.eid, versionNumber: -1, title: 'Lease', fields: [{ id: 'a' }] });
    expect(Buffer.from(working!.pdf).equals(Buffer.from(pdf))).toBe(true);

    expect(await store.publish('acme', t.eid, 'Ada', 2000)).toBe(1);
    await store.saveWorking('acme', t.eid, { title: 'Lease v2', fields: [field('a', 100), field('b', 140)] }, 3000);
    expect(await store.publish('acme', t.eid, 'Grace', 4000)).toBe(2);
    await store.saveWorking('acme', t.eid, { fields: [field('c', 100)] }, 5000);
    const pick = async (v?: number) => (await store.find('acme', t.eid, v))!;
    expect((await pick()).versionNumber).toBe(2);
    expect((await pick(-2)).versionNumber).toBe(2);
    expect((await pick(0)).versionNumber).toBe(2);
    expect((await pick(1)).fields.map((f) => f.id)).toEqual(['a']);
    expect((await pick(2)).title).toBe('Lease v2');
    expect((await pick(-1)).fields.map((f) => f.id)).toEqual(['c']);
    await expect(store.find('acme', t.eid, 3)).rejects.toMatchObject({ name: 'NotFoundError' });
    // The same version twice is the same object (the engine's caches key on it); a save makes a new working one.
    expect(await pick(1)).toBe(await pick(1));
    const before = await pick(-1);
    expect(await pick(-1)).toBe(before);
    await store.saveWorking('acme', t.eid, { fields: [field('d', 100)] }, 6000);
    expect((await pick(-1)).fields.map((f) => f.id)).toEqual(['d']);

    const record = await store.record('acme', t.eid);
    expect(record.versions).toEqual([
      { versionNumber: 1, publishedAt: 2000, publishedBy: 'Ada' },
      { versionNumber: 2, publishedAt: 4000, publishedBy: 'Grace' },
    ]);
    expect(record).toMatchObject({ publishedVersion: 2, hasUnpublishedChanges: true, updatedAt: 6000 });
    expect((await store.content('acme', t.eid, 1)).fields.map((f) => f.id)).toEqual(['a']);
    await expect(store.content('globex', t.eid, 1)).rejects.toMatchObject({ status: 404 });
  });

  it('unpublished changes follow the content; rename names untitled versions; duplicate and remove', async () => {
    const t = await store.create('acme', { name: 'Plain', pdf, pages: PAGES }, 1000);
    await store.saveWorking('acme', t.eid, { fields: [field('a', 100)] }, 1100);
    await store.publish('acme', t.eid, 'Ada', 1200);
    expect((await store.record('acme', t.eid)).hasUnpublishedChanges).toBe(false);
    expect((await store.saveWorking('acme', t.eid, { fields: [field('a', 120)] }, 1300)).hasUnpublishedChanges).toBe(
      true,
    );
    expect((await store.saveWorking('acme', t.eid, { fields: [field('a', 100)] }, 1400)).hasUnpublishedChanges).toBe(
      false,
    );

    await store.rename('acme', t.eid, 'Renamed', 1500);
    expect((await store.find('acme', t.eid))!.title).toBe('Renamed');
    await expect(store.rename('globex', t.eid, 'Stolen', 1600)).rejects.toMatchObject({ status: 404 });

    const copy = await store.duplicate('acme', t.eid, 'Copy', 1700);
    expect(copy.eid).not.toBe(t.eid);
    expect(copy).toMatchObject({
      name: 'Copy',
      publishedVersion: null,
      versions: [],
      working: { fields: [{ id: 'a' }] },
    });
    expect(Buffer.from(await store.pdf('acme', copy.eid)).equals(Buffer.from(pdf))).toBe(true);
    await expect(store.duplicate('globex', t.eid, 'X', 1800)).rejects.toMatchObject({ status: 404 });

    await expect(store.remove('globex', copy.eid)).rejects.toMatchObject({ status: 404 });
    await store.remove('acme', copy.eid);
    expect(await store.find('acme', copy.eid, -1)).toBeUndefined();
    await expect(store.record('acme', copy.eid)).rejects.toMatchObject({ status: 404 });
    expect((await store.record('acme', t.eid)).name).toBe('Renamed');
  });

  it("lists one organization's templates, newest change first, searched by name words", async () => {
    await store.create('listing', { name: 'Alpha lease', pdf, pages: PAGES }, 10);
    const b = await store.create('listing', { name: 'Beta Lease', pdf, pages: PAGES }, 20);
    await store.create('listing', { name: 'Gamma contract', pdf, pages: PAGES }, 30);
    await store.create('other', { name: 'Alpha lease', pdf, pages: PAGES }, 40);
    await store.saveWorking('listing', b.eid, { fields: [field('a', 100), field('b', 140)] }, 50);
    const names = async (q?: string) => (await store.list('listing', q)).map((t) => t.name);
    expect(await names()).toEqual(['Beta Lease', 'Gamma contract', 'Alpha lease']);
    expect(await names('LEASE')).toEqual(['Beta Lease', 'Alpha lease']);
    expect(await names('alpha lease')).toEqual(['Alpha lease']);
    expect(await names('  ')).toHaveLength(3);
    expect((await store.list('listing', 'beta'))[0]).toEqual({
      eid: b.eid,
      name: 'Beta Lease',
      updatedAt: 50,
      publishedVersion: null,
      hasUnpublishedChanges: true,
      fieldCount: 2,
    });
    expect(await store.list('nobody')).toEqual([]);
  });
});

describe('the database store shared and kept', () => {
  it('two instances on one PostgreSQL see the same templates and sessions, and concurrent publishes get consecutive numbers', async () => {
    const [a, b] = [await pg(), await pg()];
    const t = await a.templates.create(
      'acme',
      { name: 'Shared', pdf, pages: PAGES, content: { fields: [field('a', 100)] } },
      1,
    );
    expect((await b.templates.record('acme', t.eid)).name).toBe('Shared');
    await b.templates.saveWorking('acme', t.eid, { fields: [field('z', 100)] }, 2);
    expect((await a.templates.find('acme', t.eid, -1))!.fields.map((f) => f.id)).toEqual(['z']);
    const numbers = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).templates.publish('acme', t.eid, `key ${i}`, 10 + i)),
    );
    expect([...numbers].sort((x, y) => x - y)).toEqual([1, 2, 3, 4, 5, 6, 7, 8]);
    expect((await a.templates.record('acme', t.eid)).versions.map((v) => v.versionNumber)).toEqual([
      1, 2, 3, 4, 5, 6, 7, 8,
    ]);

    const session = {
      tokenHash: 'a'.repeat(64),
      organization: 'acme',
      keyDigest: 'b'.repeat(64),
      keyLabel: 'Ada',
      csrfToken: 'csrf',
      createdAt: 1,
      expiresAt: 100,
    };
    await a.sessions.insert(session);
    expect(await b.sessions.get(session.tokenHash)).toEqual(session);
    expect(await b.sessions.purge(50)).toBe(0);
    await b.sessions.remove(session.tokenHash);
    expect(await a.sessions.get(session.tokenHash)).toBeUndefined();
  }, 120_000);

  it('an embed link is taken once: of eight concurrent takes on two PostgreSQL instances one gets it; a limited session keeps its template; expired links are purged', async () => {
    const [a, b] = [await pg(), await pg()];
    const link = {
      tokenHash: 'e'.repeat(64),
      eid: 'link1',
      organization: 'acme',
      keyDigest: 'b'.repeat(64),
      keyLabel: 'Ada',
      templateEid: 'tpl1',
      createdAt: 1,
      expiresAt: 100,
    };
    await a.sessions.insertEmbedToken(link);
    const taken = await Promise.all(
      Array.from({ length: 8 }, (_, i) => (i % 2 ? a : b).sessions.takeEmbedToken(link.tokenHash)),
    );
    expect(taken.filter((t) => t !== undefined)).toEqual([link]);
    expect(await a.sessions.takeEmbedToken(link.tokenHash)).toBeUndefined();

    const limited = {
      tokenHash: 'g'.repeat(64),
      organization: 'acme',
      keyDigest: 'b'.repeat(64),
      keyLabel: 'Ada',
      csrfToken: 'csrf',
      createdAt: 1,
      expiresAt: 100,
      templateEid: 'tpl1',
    };
    await a.sessions.insert(limited);
    expect(await b.sessions.get(limited.tokenHash)).toEqual(limited);
    await a.sessions.insertEmbedToken({ ...link, tokenHash: 'f'.repeat(64), expiresAt: 10 });
    expect(await b.sessions.purge(50)).toBe(1);
    expect(await a.sessions.takeEmbedToken('f'.repeat(64))).toBeUndefined();
    await a.sessions.remove(limited.tokenHash);
  }, 120_000);

  it('a reopened SQLite store keeps templates, versions and sessions', async () => {
    const first = await sqlite('reopened');
    const t = await first.templates.create(
      'acme',
      { name: 'Kept', pdf, pages: PAGES, content: { fields: [field('a', 100)] } },
      1,
    );
    await first.templates.publish('acme', t.eid, 'Ada', 2);
    await first.sessions.insert({
      tokenHash: 'c'.repeat(64),
      organization: 'acme',
      keyDigest: 'd'.repeat(64),
      keyLabel: 'Ada',
      csrfToken: 'csrf',
      createdAt: 1,
      expiresAt: 100,
    });
    await first.close();
    const again = await sqlite('reopened');
    expect(await again.templates.record('acme', t.eid)).toMatchObject({
      name: 'Kept',
      publishedVersion: 1,
      versions: [{ versionNumber: 1, publishedAt: 2, publishedBy: 'Ada' }],
    });
    expect((await again.templates.find('acme', t.eid))!.fields.map((f) => f.id)).toEqual(['a']);
    expect(await again.sessions.get('c'.repeat(64))).toMatchObject({ organization: 'acme' });
    expect(await again.sessions.purge(100)).toBe(1);
  });
});

describe('two servers on one PostgreSQL', () => {
  it('a session opened on one is honoured by the other, signing out on one ends it on both, and a template made on one fills on the other', async () => {
    postgres ??= await PostgresServer.start();
    const connectionString = postgres.connectionString;
    const KEY = 'prod-shared-key-0123456789';
    const servers: FastifyInstance[] = [];
    const bases: string[] = [];
    try {
      for (let i = 0; i < 2; i++) {
        const app = await buildApp({
          engine: createEngine({}),
          closeEngine: true,
          database: new LazyPacketStore(() => openPostgresStore({ connectionString })),
          config: { keys: [{ key: KEY, kind: 'production', organization: 'shared', label: 'Shared key' }] },
        });
        await app.listen({ port: 0, host: '127.0.0.1' });
        servers.push(app);
        const address = app.server.address();
        if (typeof address !== 'object' || !address) throw new Error('no address');
        bases.push(`http://127.0.0.1:${address.port}`);
      }
      const one = new DashboardClient(bases[0]!);
      expect((await one.signIn(KEY)).status).toBe(200);
      const two = new DashboardClient(bases[1]!).withSession(one);
      const up = await one.upload(await labelledPdf('Shared'), 'shared.pdf', { detect: 'false' });
      const eid = (up.json as { template: { eid: string } }).template.eid;
      // Saved and published through the second server, with the session the first one opened.
      const saved = await two.call('PUT', `/dashboard/api/templates/${eid}/working`, {
        body: { fields: [field('who', 200)] },
      });
      expect(saved.status).toBe(200);
      expect((await two.call('POST', `/dashboard/api/templates/${eid}/publish`)).json).toEqual({ versionNumber: 1 });
      const filled = await fetch(`${bases[0]}/api/v1/fill/${eid}.pdf`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${KEY}:`).toString('base64')}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify({ data: { who: 'Both servers' } }),
      });
      expect(filled.status).toBe(200);
      const [page] = await readText(new Uint8Array(await filled.arrayBuffer()));
      expect(joinItems(itemsInRect(page!, { x: 72, y: 200, width: 300, height: 24 }))).toBe('Both servers');

      expect((await two.call('DELETE', '/dashboard/session')).status).toBe(204);
      expect((await one.call('GET', '/dashboard/session')).status).toBe(401);
    } finally {
      for (const app of servers) await app.close();
    }
  }, 120_000);
});
