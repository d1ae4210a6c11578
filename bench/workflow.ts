/**
 * The packet workflow's own cost: BENCH_PACKETS (default 1,000) packets of two
 * embedded signers each created, signed in turn, completed and sealed, on the embedded
 * store and on PostgreSQL. Every call into the store (reads, transactions, blobs) is
 * timed; the row reports store time against the rest (PDF work: assembly, marks,
 * certificate, seal) of the same run (reported; no goal).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createEngine } from '../src/index.js';
import { createPacketWorkflow, openPostgresStore, openSqliteStore, type PacketStore } from '../src/packets/index.js';
import { createSigningIdentity } from '../src/signing/index.js';
import { PostgresServer } from '../test/helpers/postgres.js';
import type { BenchRow } from './types.js';

/** The store with every method (and its blob store's) timed; `ms()` is the total so far. */
function timed(store: PacketStore): { store: PacketStore; ms: () => number } {
  let total = 0;
  const wrap = <T extends object>(target: T): T =>
    new Proxy(target, {
      get(t, key, receiver) {
        const v = Reflect.get(t, key, receiver) as unknown;
        if (key === 'blobs') return wrap(v as object);
        if (typeof v !== 'function') return v;
        return async (...args: unknown[]) => {
          const start = performance.now();
          try {
            return await (v as (...a: unknown[]) => Promise<unknown>).apply(t, args);
          } finally {
            total += performance.now() - start;
          }
        };
      },
    });
  return { store: wrap(store), ms: () => total };
}

const sig = (id: string, y: number) => ({
  id,
  type: 'signature',
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});

async function runOn(label: string, open: () => Promise<PacketStore>, packets: number, dir: string): Promise<BenchRow> {
  const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
  const identity = await createSigningIdentity({ dataDir: path.join(dir, 'identity') });
  const raw = await open();
  const { store, ms } = timed(raw);
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    baseUrl: 'http://castpress.test',
    deliver: false,
    mailDir: path.join(dir, 'mail'),
  });
  const s = flow.service;
  const one = async (n: number) => {
    const p = await s.createEtchPacket({
      name: `Bench ${n}`,
      files: [
        {
          id: 'doc',
          filename: 'doc.pdf',
          title: 'Doc',
          fields: [{ content: `Agreement ${n}` }, sig('a', 260), sig('b', 320)],
        },
      ],
      signers: [
        {
          id: 'a',
          name: 'Ann',
          email: 'ann@example.com',
          signerType: 'embedded',
          fields: [{ fileId: 'doc', fieldId: 'a' }],
        },
        {
          id: 'b',
          name: 'Ben',
          email: 'ben@example.com',
          signerType: 'embedded',
          fields: [{ fileId: 'doc', fieldId: 'b' }],
        },
      ],
    });
    for (const signer of p.documentGroup.signers) {
      const url = new URL(await s.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'u' }));
      await s.submitSigning({
        signerEid: signer.eid,
        token: url.searchParams.get('token')!,
        inputs: { signature: { type: 'typed', text: signer.name ?? 'x' } },
      });
    }
  };
  try {
    for (let i = 0; i < 5; i++) await one(-i); // warm-up
    const storeBefore = ms();
    const start = performance.now();
    for (let i = 0; i < packets; i++) await one(i);
    const total = performance.now() - start;
    const storeMs = ms() - storeBefore;
    return {
      name: `${label}: ${packets} packets of 2 signers, store time vs PDF work`,
      value: storeMs,
      unit: 'ms',
      baseline: total - storeMs,
      ratio: storeMs / (total - storeMs),
    };
  } finally {
    await flow.close();
    await raw.close();
    await engine.close();
  }
}

export async function run(): Promise<BenchRow[]> {
  const packets = Number(process.env.BENCH_PACKETS ?? 1000);
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-workflow-'));
  const pg = await PostgresServer.start();
  try {
    return [
      await runOn('SQLite', () => openSqliteStore({ dir: path.join(dir, 'sqlite') }), packets, dir),
      await runOn('PostgreSQL', () => openPostgresStore({ connectionString: pg.connectionString }), packets, dir),
    ];
  } finally {
    await pg.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
