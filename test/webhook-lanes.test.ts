/**
 * Webhook lanes per receiver: 12 receivers on loopback that accept the
 * connection and never answer, and one live receiver. The live receiver's event
 * arrives while every dead receiver's request is still hanging (one lane that
 * claims 8 events and waits for all of them would make the live event wait for
 * the dead ones' timeouts). A receiver never has more than 2 requests in flight; the
 * dead ones' events fail and are retried as before, and are delivered once their
 * receivers answer. On SQLite and on PostgreSQL.
 */
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/index.js';
import { createPacketWorkflow, type PacketStore, type PacketWorkflow } from '../src/packets/index.js';
import { createSigningIdentity, type SigningIdentity } from '../src/signing/index.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, until, WebhookReceiver, workflowStores } from './helpers/workflow.js';

/** Accepts connections and reads requests without answering, until `answer()`: then each new request gets a 200. */
class DeadReceiver {
  /** Requests received in all, and the sockets still open that carried one. */
  requests = 0;
  readonly hanging = new Set<net.Socket>();
  #answer = false;
  private constructor(private readonly server: net.Server) {}

  static async start(): Promise<DeadReceiver> {
    let self: DeadReceiver | undefined;
    const server = net.createServer((socket) => {
      let seen = false;
      socket.on('error', () => undefined);
      socket.on('data', () => {
        if (seen) return;
        seen = true;
        self!.requests++;
        if (self!.#answer) socket.end('HTTP/1.1 200 OK\r\ncontent-length: 2\r\nconnection: close\r\n\r\nok');
        else self!.hanging.add(socket);
      });
      socket.on('close', () => self!.hanging.delete(socket));
    });
    self = new DeadReceiver(server);
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    return self;
  }

  get host(): string {
    return `127.0.0.1:${(this.server.address() as net.AddressInfo).port}`;
  }

  get url(): string {
    return `http://${this.host}/hooks`;
  }

  /** Cuts the hanging requests (their deliveries fail and are retried). */
  cut(): void {
    for (const s of this.hanging) s.destroy();
  }

  answer(): void {
    this.#answer = true;
  }

  close(): Promise<void> {
    this.cut();
    return new Promise((r) => this.server.close(() => r()));
  }
}

const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });
let identity: SigningIdentity;
let tmp: { dir: string; remove: () => Promise<void> };
let live: WebhookReceiver;
let dead: DeadReceiver[] = [];

beforeAll(async () => {
  tmp = await tempDir('castpress-lanes-');
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'identity') });
  live = await WebhookReceiver.start();
}, 60_000);

afterAll(async () => {
  await engine.close();
  await live?.close();
  await kinds.stop();
  await tmp?.remove();
}, 60_000);

const kinds = workflowStores(() => tmp.dir);

describe.each(kinds.stores)('webhook lanes on the %s', (_name, open) => {
  let store: PacketStore;
  let flow: PacketWorkflow;
  let other: PacketWorkflow;

  beforeAll(async () => {
    dead = await Promise.all(Array.from({ length: 12 }, () => DeadReceiver.start()));
    store = await open();
    const options = () => ({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      // A timeout far longer than the test: a dead receiver's request hangs until the test cuts it.
      webhook: { token: 't', allowHosts: [live.host, ...dead.map((d) => d.host)], timeoutMs: 600_000 },
      retry: { baseMs: 30, maxMs: 200, maxAttempts: 8 },
      pollMs: 50,
    });
    flow = createPacketWorkflow(options());
    // A second instance on the same store: the per-receiver bound holds across both (leases are in the store).
    other = createPacketWorkflow(options());
  }, 120_000);

  afterAll(async () => {
    for (const d of dead) await d.close();
    await flow?.close();
    await other?.close();
    await store?.close();
  });

  /** A sent packet whose embedded signer opens the page: one `signerUpdateStatus` webhook to `url`. */
  async function packetTo(url: string, name: string): Promise<string> {
    const s = flow.service;
    const created = await s.createEtchPacket({
      name,
      webhookURL: url,
      files: [
        {
          id: 'a',
          filename: 'a.pdf',
          title: 'A',
          fields: [
            { content: name },
            { id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } },
          ],
        },
      ],
      signers: [
        {
          id: 'x',
          name: 'X Y',
          email: 'x@example.com',
          signerType: 'embedded',
          fields: [{ fileId: 'a', fieldId: 's' }],
        },
      ],
    });
    const link = tokenOf(
      await s.generateEtchSignURL({ signerEid: created.documentGroup.signers[0]!.eid, clientUserId: 'u' }),
    );
    await s.openSigning(link);
    return created.eid;
  }

  it("12 receivers that never answer do not delay another receiver's event; each holds at most 2 requests", async () => {
    // Three packets for the first dead receiver (its lane is bounded), one for each other.
    const deadPackets: string[] = [];
    for (const [i, d] of dead.entries()) {
      for (let k = 0; k < (i === 0 ? 3 : 1); k++) deadPackets.push(await packetTo(d.url, `dead ${i}.${k}`));
    }
    // Every dead receiver has its request hanging before the live packet's event is even made.
    await until(
      () => dead.every((d) => d.hanging.size >= 1),
      (v) => v,
    );
    expect(dead.map((d) => d.hanging.size > 0)).toEqual(dead.map(() => true));

    const livePacket = await packetTo(live.url, 'live');
    const ours = () => live.accepted('signerUpdateStatus').filter((h) => h.body.data.etchPacketEid === livePacket);
    const hits = await until(ours, (h) => h.length >= 1);
    // Ordering, not seconds: the live event came while all 12 dead requests were still open.
    const hangingWhenLiveArrived = dead.map((d) => d.hanging.size);
    expect(hits).toHaveLength(1);
    expect(
      hangingWhenLiveArrived.every((n) => n >= 1),
      String(hangingWhenLiveArrived),
    ).toBe(true);
    // The receiver with three packets has two requests open, never three, though two dispatchers deliver.
    expect(hangingWhenLiveArrived[0]).toBe(2);
    expect(dead[0]!.requests).toBe(2);

    // Cut: the deliveries fail and are retried with back-off, as before.
    for (const d of dead) d.cut();
    await until(
      () => dead.every((d) => d.requests >= 2 && d.hanging.size >= 1),
      (v) => v,
    );
    const failedOnce = await store.outbox({ kind: 'webhook', status: 'pending' });
    expect(
      failedOnce.filter((e) => deadPackets.includes(e.packetEid) && e.attempts >= 1 && e.lastError !== null).length,
    ).toBeGreaterThan(0);

    // Once the receivers answer, every event is delivered.
    for (const d of dead) {
      d.answer();
      d.cut();
    }
    const delivered = await until(
      () => store.outbox({ kind: 'webhook', status: 'delivered' }),
      (e) => deadPackets.every((p) => e.some((x) => x.packetEid === p)),
    );
    expect(deadPackets.filter((p) => !delivered.some((x) => x.packetEid === p))).toEqual([]);
    expect(await store.outbox({ kind: 'webhook', status: 'failed' })).toEqual([]);
  }, 300_000);
});
