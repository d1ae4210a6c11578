/**
 * The outbox keeps the HTTP status a webhook's receiver answered to each attempt, in a column of its
 * own: a refusal's 500, then the 2xx of the delivery that follows a retry (202 here, not assumed 200);
 * null for an attempt with no answer (refused connection) and for mail. Events stored by a schema
 * before the column read back with a null code, and their next attempt writes one. The dashboard's
 * delivery view reads the column. On SQLite and on PostgreSQL, each through the real dispatcher
 * posting to real receivers on loopback.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { deliveryView } from '../src/dashboard/packet-desk/deliveries.js';
import {
  OutboxDispatcher,
  openPostgresStore,
  openSqliteStore,
  postWebhook,
  type OutboxRecord,
  type PacketStore,
} from '../src/packets/index.js';
import { MIGRATIONS } from '../src/packets/store/migrations.js';
import { PostgresServer } from './helpers/postgres.js';
import { freePort } from './helpers/redis.js';
import { tempDir } from './helpers/signing.js';

/** Answers each request with the next code of `codes` (the last one repeats). */
class CodedReceiver {
  requests = 0;
  private constructor(
    private readonly server: http.Server,
    private readonly codes: number[],
  ) {}

  static async start(codes: number[]): Promise<CodedReceiver> {
    let self: CodedReceiver | undefined;
    const server = http.createServer((req, res) => {
      req.resume();
      req.on('end', () => {
        const code = self!.codes[Math.min(self!.requests, self!.codes.length - 1)]!;
        self!.requests++;
        res.statusCode = code;
        res.end('answer');
      });
    });
    self = new CodedReceiver(server, codes);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get host(): string {
    return `127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }
}

let tmp: { dir: string; remove: () => Promise<void> };
let postgres: PostgresServer;
let receiver: CodedReceiver;
let closedHost: string;

beforeAll(async () => {
  tmp = await tempDir('castpress-outbox-code-');
  postgres = await PostgresServer.start();
  receiver = await CodedReceiver.start([500, 202]);
  // A port nobody listens on: the connection is refused, no answer.
  closedHost = `127.0.0.1:${await freePort()}`;
}, 120_000);

afterAll(async () => {
  await receiver?.close();
  await postgres?.stop();
  await tmp?.remove();
}, 60_000);

/** A database of its own on the test's PostgreSQL server. */
async function database(name: string): Promise<string> {
  const client = new pg.Client({ connectionString: postgres.connectionString });
  await client.connect();
  try {
    await client.query(`CREATE DATABASE ${name}`);
  } finally {
    await client.end();
  }
  return postgres.connectionString.replace(/\/postgres$/, `/${name}`);
}

function event(id: string, kind: OutboxRecord['kind'], payload: Record<string, unknown>): OutboxRecord {
  return {
    id,
    packetEid: `pkt_${id}`,
    kind,
    payload,
    status: 'pending',
    attempts: 0,
    nextAttemptAt: 0,
    leaseUntil: 0,
    lastError: null,
    responseCode: null,
    createdAt: 1,
    deliveredAt: null,
  };
}

/** The dispatcher as a workflow sets it up: webhooks posted for real, mail taken at once. */
function dispatcher(store: PacketStore): OutboxDispatcher {
  return new OutboxDispatcher({
    store,
    retry: { baseMs: 60_000 },
    handlers: {
      webhook: (e) =>
        postWebhook(
          { url: String(e.payload.url), token: 't' },
          { id: e.id, action: 'signerComplete', data: {} },
          { allowHosts: [receiver.host, closedHost], timeoutMs: 10_000 },
          new Date(),
        ),
      email: async () => undefined,
    },
  });
}

async function byId(store: PacketStore, id: string): Promise<OutboxRecord> {
  const found = (await store.outbox({})).find((e) => e.id === id);
  if (!found) throw new Error(`no event ${id}`);
  return found;
}

const stores: Array<[string, (name: string) => Promise<PacketStore>]> = [
  ['embedded store (SQLite)', (name) => openSqliteStore({ dir: path.join(tmp.dir, name) })],
  ['PostgreSQL', async (name) => openPostgresStore({ connectionString: await database(name) })],
];

describe.each(stores)('the response code of each attempt on the %s', (_name, open) => {
  it('is the refusal’s code, then the delivery’s 2xx; null without an answer and for mail', async () => {
    receiver.requests = 0;
    const store = await open('fresh');
    try {
      await store.transaction(async (tx) => {
        await tx.insertOutbox(event('refused', 'webhook', { url: `http://${receiver.host}/hooks` }));
        await tx.insertOutbox(event('unreachable', 'webhook', { url: `http://${closedHost}/hooks` }));
        await tx.insertOutbox(event('mail', 'email', { mail: 'signatureRequest' }));
      });
      const d = dispatcher(store);
      expect(await d.deliverDue('webhook')).toBe(2);
      expect(await d.deliverDue('email')).toBe(1);
      expect(await byId(store, 'refused')).toMatchObject({
        status: 'pending',
        attempts: 1,
        responseCode: 500,
        lastError: 'Receiver answered 500',
      });
      const unreachable = await byId(store, 'unreachable');
      expect(unreachable).toMatchObject({ status: 'pending', attempts: 1, responseCode: null });
      expect(unreachable.lastError).not.toBeNull();
      expect(await byId(store, 'mail')).toMatchObject({ status: 'delivered', responseCode: null });

      expect(await store.requeueOutbox('refused', Date.now())).toBe(true);
      expect(await d.deliverDue('webhook')).toBe(1);
      expect(await byId(store, 'refused')).toMatchObject({
        status: 'delivered',
        attempts: 2,
        responseCode: 202,
        lastError: null,
      });
      expect(receiver.requests).toBe(2);
      expect(deliveryView(await byId(store, 'refused')).responseCode).toBe(202);
    } finally {
      await store.close();
    }
  });
});

/** The outbox table as the schema of migration 9 left it, with one event attempted and refused. */
const OLD_ROW = `INSERT INTO outbox (id, packet_eid, kind, payload, status, attempts, next_attempt_at, lease_until, last_error, created_at, delivered_at, receiver)
  VALUES ('old', 'pkt_old', 'webhook', '{"url":"URL"}', 'pending', 1, 0, 0, 'Receiver answered 500', 1, NULL, 'ORIGIN')`;

const oldStores: Array<[string, (url: string) => Promise<PacketStore>]> = [
  [
    'embedded store (SQLite)',
    async (url) => {
      const dir = path.join(tmp.dir, 'old');
      await mkdir(dir, { recursive: true });
      const db = new Database(path.join(dir, 'packets.db'));
      db.prepare('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)').run();
      for (const m of MIGRATIONS.filter((x) => x.version <= 9)) {
        for (const q of m.sql) db.prepare(q).run();
        db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
      }
      db.prepare(OLD_ROW.replace('URL', url).replace('ORIGIN', new URL(url).origin)).run();
      db.close();
      return openSqliteStore({ dir });
    },
  ],
  [
    'PostgreSQL',
    async (url) => {
      const connectionString = await database('old9');
      const client = new pg.Client({ connectionString });
      await client.connect();
      try {
        await client.query('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)');
        for (const m of MIGRATIONS.filter((x) => x.version <= 9)) {
          for (const q of m.sql) await client.query(q);
          await client.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        }
        await client.query(OLD_ROW.replace('URL', url).replace('ORIGIN', new URL(url).origin));
      } finally {
        await client.end();
      }
      return openPostgresStore({ connectionString });
    },
  ],
];

describe.each(oldStores)('an outbox stored before the response code on the %s', (_name, open) => {
  it('reads back with a null code; its next attempt writes one', async () => {
    const before = receiver.requests;
    const store = await open(`http://${receiver.host}/hooks`);
    try {
      const old = await byId(store, 'old');
      expect(old).toMatchObject({ status: 'pending', attempts: 1, responseCode: null });
      expect(deliveryView(old)).toMatchObject({ responseCode: null, lastError: 'Receiver answered 500' });
      expect(await dispatcher(store).deliverDue('webhook')).toBe(1);
      expect(receiver.requests).toBe(before + 1);
      expect(await byId(store, 'old')).toMatchObject({ status: 'delivered', attempts: 2, responseCode: 202 });
    } finally {
      await store.close();
    }
  });
});
