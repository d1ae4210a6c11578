/**
 * API keys are separated by organization. One server on loopback with two
 * production keys of two organizations (A: acme, B: globex) and a development key of acme. B gets
 * the 404 of an unknown eid for everything of A's (the packet and its payload, the signing URL of
 * its embedded signer, expiring that signer's links, updates, sending, both downloads); the
 * development key makes only test packets and cannot read or download production ones; A still
 * does all of it.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { unzipSync } from 'fflate';
import Database from 'libsql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  DEFAULT_ORGANIZATION,
  openPostgresStore,
  openSqliteStore,
  visibleTo,
  type PacketStore,
} from '../src/packets/index.js';
import { MIGRATIONS } from '../src/packets/store/migrations.js';
import type { PacketBackend } from '../src/server/graphql/index.js';
import { ANONYMOUS_KEY } from '../src/server/http/auth.js';
import { KeyRing, parseServerConfig } from '../src/server/keys.js';
import { PostgresServer } from './helpers/postgres.js';
import { startSigningServer } from './helpers/signing-page.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';
import { basic, type TestServer } from './server-setup.js';

const A = 'acme-prod-key-0123456789';
const B = 'globex-prod-key-0123456789';
const DEV = 'acme-dev-key-0123456789';
/** A key of the default organization (the keys file names none for it). */
const PLAIN = 'plain-prod-key-0123456789';

let server: TestServer;
let backend: PacketBackend;
let tmp: { dir: string; remove: () => Promise<void> };

beforeAll(async () => {
  tmp = await tempDir('castpress-tenants-');
  ({ server, backend } = await startSigningServer(tmp.dir, {
    config: {
      keys: [
        { key: A, kind: 'production', organization: 'acme' },
        { key: B, kind: 'production', organization: 'globex' },
        { key: DEV, kind: 'development', organization: 'acme' },
        { key: PLAIN, kind: 'production' },
      ],
    },
  }));
}, 60_000);

let postgres: PostgresServer | undefined;

afterAll(async () => {
  await server?.close();
  await postgres?.stop();
  await tmp?.remove();
}, 60_000);

interface Answer {
  status: number;
  body: {
    data?: Record<string, any> | null;
    errors?: Array<{ message: string; extensions?: Record<string, unknown> }>;
  };
}

async function gql(key: string, query: string, variables: Record<string, unknown> = {}): Promise<Answer> {
  const res = await fetch(`${server.base}/graphql`, {
    method: 'POST',
    headers: { authorization: basic(key), 'content-type': 'application/json' },
    body: JSON.stringify({ query, variables }),
  });
  return { status: res.status, body: (await res.json()) as Answer['body'] };
}

async function get(key: string, path: string): Promise<{ status: number; body: Buffer; type: string | null }> {
  const res = await fetch(`${server.base}${path}`, { headers: { authorization: basic(key) } });
  return { status: res.status, body: Buffer.from(await res.arrayBuffer()), type: res.headers.get('content-type') };
}

const CREATE = `mutation($name: String!, $isTest: Boolean, $files: [EtchFile!], $signers: [JSON!], $data: JSON){
  createEtchPacket(name: $name, isTest: $isTest, allowUpdates: true, files: $files, signers: $signers, data: $data){ eid isTest status documentGroup { eid signers { eid aliasId } } }
}`;

function packetVariables(name: string, isTest: boolean) {
  return {
    name,
    isTest,
    files: [
      {
        id: 'doc',
        filename: 'contract.pdf',
        title: 'Contract',
        fields: [
          { content: 'Salary: 90000' },
          { id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 40 } },
          { id: 'salary', type: 'shortText', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 20 } },
        ],
      },
    ],
    signers: [
      {
        id: 'emp',
        name: 'Ada Employee',
        email: 'ada@example.com',
        signerType: 'embedded',
        acceptEachField: false,
        fields: [{ fileId: 'doc', fieldId: 'sig' }],
      },
    ],
    data: { payloads: { doc: { data: { salary: 'SECRET-90000' } } } },
  };
}

async function create(key: string, name: string, isTest: boolean) {
  const r = await gql(key, CREATE, packetVariables(name, isTest));
  expect(r.status, JSON.stringify(r.body)).toBe(200);
  const p = r.body.data!.createEtchPacket as {
    eid: string;
    isTest: boolean;
    documentGroup: { eid: string; signers: Array<{ eid: string }> };
  };
  return { eid: p.eid, isTest: p.isTest, groupEid: p.documentGroup.eid, signerEid: p.documentGroup.signers[0]!.eid };
}

/** The signer signs on the signing page's own route (the token is the credential there, whatever the key). */
async function sign(url: string): Promise<void> {
  const { signerEid, token } = tokenOf(url);
  const res = await fetch(`${server.base}/sign/${signerEid}/submit`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: server.base },
    body: JSON.stringify({ token, signature: { type: 'typed', text: 'Ada Employee' } }),
  });
  expect(res.status, await res.clone().text()).toBe(200);
}

/** The answer with `eid` written as `X`: a foreign eid and an unknown one must give the same. */
const shape = (a: { status: number; body: unknown }, eid: string) => ({
  status: a.status,
  body: JSON.stringify(a.body).replaceAll(eid, 'X'),
});

type Op = (eid: string) => readonly [string, Record<string, unknown>];
const ops: Record<
  'etchPacket' | 'sendEtchPacket' | 'updateEtchPacket' | 'generateEtchSignURL' | 'expireSignerTokens' | 'updateSigner',
  Op
> = {
  etchPacket: (eid: string) => ['query($eid: String!){ etchPacket(eid: $eid){ eid name payload } }', { eid }] as const,
  sendEtchPacket: (eid: string) =>
    ['mutation($eid: String!){ sendEtchPacket(eid: $eid){ eid status } }', { eid }] as const,
  updateEtchPacket: (eid: string) =>
    [
      'mutation($eid: String!, $p: JSON){ updateEtchPacket(eid: $eid, name: "taken", payload: $p){ eid name payload } }',
      { eid, p: { doc: { data: { salary: '1' } } } },
    ] as const,
  generateEtchSignURL: (eid: string) =>
    ['mutation($s: String!){ generateEtchSignURL(signerEid: $s, clientUserId: "intruder") }', { s: eid }] as const,
  expireSignerTokens: (eid: string) =>
    ['mutation($s: String!){ expireSignerTokens(signerEid: $s){ signerEid expired } }', { s: eid }] as const,
  updateSigner: (eid: string) =>
    [
      'mutation($s: String!){ updateSigner(eid: $s, name: "Mallory", email: "m@evil.example"){ eid name } }',
      { s: eid },
    ] as const,
};

describe('tenants: keys see only their organization', () => {
  it('a production key of another organization gets the 404 of an unknown eid for every operation and download', async () => {
    const a = await create(A, 'Acme contract', false);
    expect(a.isTest).toBe(false);
    const urlA = (await gql(A, ...ops.generateEtchSignURL(a.signerEid))).body.data!.generateEtchSignURL as string;
    expect(urlA).toMatch(/\/sign\//);

    for (const [name, op] of Object.entries(ops)) {
      const isSigner = name === 'generateEtchSignURL' || name === 'expireSignerTokens' || name === 'updateSigner';
      const eid = isSigner ? a.signerEid : a.eid;
      const unknownEid = isSigner ? 'sgn_doesnotexist' : 'pkt_doesnotexist';
      const foreign = await gql(B, ...op(eid));
      const unknown = await gql(B, ...op(unknownEid));
      expect(foreign.status, `${name}: ${JSON.stringify(foreign.body)}`).toBe(404);
      expect(shape(foreign, eid), name).toEqual(shape(unknown, unknownEid));
      expect(JSON.stringify(foreign.body), name).not.toContain('SECRET');
    }

    // Nothing B tried changed A's packet, and A's signing link still works.
    const own = await gql(A, ...ops.etchPacket(a.eid));
    expect(own.status).toBe(200);
    expect(own.body.data!.etchPacket).toMatchObject({
      eid: a.eid,
      name: 'Acme contract',
      payload: { doc: { data: { salary: 'SECRET-90000' } } },
    });
    const page = await fetch(urlA);
    expect(page.status).toBe(200);

    // Before completion, a foreign group is unknown too (not the 409 that would tell it exists).
    const early = await get(B, `/api/document-group/${a.groupEid}.zip`);
    const earlyUnknown = await get(B, `/api/document-group/grp_doesnotexist.zip`);
    expect(early.status).toBe(404);
    expect(early.body.toString().replaceAll(a.groupEid, 'X')).toBe(
      earlyUnknown.body.toString().replaceAll('grp_doesnotexist', 'X'),
    );

    await sign(urlA);
    expect((await gql(A, ...ops.etchPacket(a.eid))).body.data!.etchPacket).toBeTruthy();

    for (const path of [`/api/document-group/${a.groupEid}.zip`, `/api/document-group/${a.groupEid}/contract.pdf`]) {
      const foreign = await get(B, path);
      const unknown = await get(B, path.replace(a.groupEid, 'grp_doesnotexist'));
      expect(foreign.status, path).toBe(404);
      expect(foreign.body.toString().replaceAll(a.groupEid, 'X'), path).toBe(
        unknown.body.toString().replaceAll('grp_doesnotexist', 'X'),
      );
      // A key of the default organization (a keys file entry naming none) is another organization as well.
      expect((await get(PLAIN, path)).status, path).toBe(404);
    }

    // A downloads its completed packet.
    const zip = await get(A, `/api/document-group/${a.groupEid}.zip`);
    expect(zip.status).toBe(200);
    expect(Object.keys(unzipSync(new Uint8Array(zip.body)))).toEqual(['contract.pdf']);
    const one = await get(A, `/api/document-group/${a.groupEid}/contract.pdf`);
    expect(one.status).toBe(200);
    expect(one.type).toBe('application/pdf');
  }, 120_000);

  it('a development key makes test packets only and cannot read, change or download production packets of its own organization', async () => {
    const prod = await create(A, 'Acme payroll', false);
    const url = (await gql(A, ...ops.generateEtchSignURL(prod.signerEid))).body.data!.generateEtchSignURL as string;
    await sign(url);

    for (const [name, op] of Object.entries(ops)) {
      const isSigner = name === 'generateEtchSignURL' || name === 'expireSignerTokens' || name === 'updateSigner';
      const r = await gql(DEV, ...op(isSigner ? prod.signerEid : prod.eid));
      expect(r.status, `${name}: ${JSON.stringify(r.body)}`).toBe(404);
      expect(r.body.errors?.[0]?.extensions?.status, name).toBe(404);
    }
    for (const path of [
      `/api/document-group/${prod.groupEid}.zip`,
      `/api/document-group/${prod.groupEid}/contract.pdf`,
    ]) {
      const r = await get(DEV, path);
      expect(r.status, path).toBe(404);
      expect(r.body.toString()).not.toContain('%PDF');
    }

    // Asking for a production packet with a development key gives a test packet (as the hosted API's development keys do).
    const dev = await create(DEV, 'Acme trial', false);
    expect(dev.isTest).toBe(true);
    expect((await gql(DEV, ...ops.etchPacket(dev.eid))).body.data!.etchPacket).toMatchObject({ eid: dev.eid });
    const devUrl = (await gql(DEV, ...ops.generateEtchSignURL(dev.signerEid))).body.data!.generateEtchSignURL as string;
    await sign(devUrl);
    expect((await get(DEV, `/api/document-group/${dev.groupEid}.zip`)).status).toBe(200);
    // Production keys of the organization see its test packets; other organizations do not.
    expect((await get(A, `/api/document-group/${dev.groupEid}/contract.pdf`)).status).toBe(200);
    expect((await gql(A, ...ops.etchPacket(dev.eid))).status).toBe(200);
    expect((await gql(B, ...ops.etchPacket(dev.eid))).status).toBe(404);
    expect((await get(B, `/api/document-group/${dev.groupEid}.zip`)).status).toBe(404);
  }, 120_000);

  it('the library used without a server (no scope) still sees every packet', async () => {
    const a = await create(A, 'Acme library', true);
    const view = await backend.service.etchPacket({ eid: a.eid });
    expect(view.eid).toBe(a.eid);
  });
});

describe('keys file: organization', () => {
  it('is optional (keys naming none, and --no-auth, share the default organization); an empty one is refused by name', () => {
    const config = parseServerConfig({
      keys: [
        { key: 'a', kind: 'production', organization: 'acme' },
        { key: 'b', kind: 'development' },
      ],
    });
    const ring = new KeyRing(config.keys);
    expect(ring.find('a')?.organization).toBe('acme');
    expect(ring.find('b')?.organization).toBe(DEFAULT_ORGANIZATION);
    expect(ANONYMOUS_KEY.organization).toBe(DEFAULT_ORGANIZATION);
    expect(() => parseServerConfig({ keys: [{ key: 'a', kind: 'production', organization: '' }] })).toThrow(
      /keys\.0\.organization/,
    );
    expect(() => parseServerConfig({ keys: [{ key: 'a', kind: 'production', organization: 7 }] })).toThrow(
      /keys\.0\.organization/,
    );
  });
});

/** The schema as it was before organizations (every migration before the one adding them), with one packet in it. */
async function oldSchema(run: (sql: string, params?: unknown[]) => Promise<void>): Promise<void> {
  await run('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
  const before = MIGRATIONS.findIndex((x) => x.sql.some((q) => q.includes('organization')));
  for (const m of MIGRATIONS.slice(0, before)) {
    for (const q of m.sql) await run(q);
    await run('INSERT INTO schema_migrations (version, name) VALUES (?, ?)', [m.version, m.name]);
  }
  await run(
    `INSERT INTO packets (eid, group_eid, name, status, is_test, allow_updates, merge_pdfs, webhook_url, request_hash, payload, options, created_at, updated_at, completed_at, version)
     VALUES ('pkt_old', 'grp_old', 'Made before organizations', 'sent', 0, 0, 0, NULL, 'h', '{}', '{}', 1, 1, NULL, 0)`,
  );
}

describe('store migration: packets made before organizations', () => {
  const check = async (store: PacketStore) => {
    try {
      const old = await store.packet('pkt_old');
      expect(old?.organization).toBe(DEFAULT_ORGANIZATION);
      // Keys naming no organization (and --no-auth) still see it; a named organization does not.
      expect(visibleTo(old!, { organization: DEFAULT_ORGANIZATION, testOnly: false })).toBe(true);
      expect(visibleTo(old!, { organization: 'acme', testOnly: false })).toBe(false);
      expect((await store.packetByGroup('grp_old'))?.organization).toBe(DEFAULT_ORGANIZATION);
    } finally {
      await store.close();
    }
  };

  it('SQLite: existing rows belong to the default organization', async () => {
    const dir = path.join(tmp.dir, 'old-sqlite');
    await mkdir(dir, { recursive: true });
    const db = new Database(path.join(dir, 'packets.db'));
    await oldSchema(async (sql, params = []) => void db.prepare(sql).run(...params));
    db.close();
    await check(await openSqliteStore({ dir }));
  });

  it('PostgreSQL: existing rows belong to the default organization', async () => {
    postgres = await PostgresServer.start();
    const client = new pg.Client({ connectionString: postgres.connectionString });
    await client.connect();
    await oldSchema(async (sql, params = []) => {
      let n = 0;
      await client.query(
        sql.replace(/\?/g, () => `$${++n}`),
        params,
      );
    });
    await client.end();
    await check(await openPostgresStore({ connectionString: postgres.connectionString }));
  }, 60_000);
});
