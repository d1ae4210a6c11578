/**
 * The dashboard's packet routes on `castpress serve`'s server started in-process: packets made by
 * the unmodified `@anvilco/anvil` client, listed (status, test flag and its filter, search by name,
 * paging), a packet's signers with the events the store keeps (a real opening of the signing page
 * and a real signing), its documents, a signer's request resent (a second mail in the mail
 * folder), and another organization's session gets 404s for all of it.
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { DashboardClient } from './helpers/dashboard.js';
import { Anvil, ok, signaturePacketVariables, signUrlOf, submitTyped } from './helpers/packet-serve.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, until, WebhookReceiver } from './helpers/workflow.js';

const ACME = 'prod-acme-packets-key-0123456789';
const ACME_DEV = 'dev-acme-packets-key-0123456789';
const GLOBEX = 'prod-globex-packets-key-0123456789';
const BROWSER = 'Mozilla/5.0 (DashboardTest) Chromium/1';

type Listed = { eid: string; name: string; status: string; isTest: boolean; createdAt: string };
type PacketPage = {
  eid: string;
  status: string;
  documents: Array<{ filename: string; url: string }>;
  signers: Array<{
    eid: string;
    aliasId: string;
    routingOrder: number;
    status: string;
    canResend: boolean;
    events: Array<{ type: string; at: string; ip: string | null; userAgent: string | null }>;
  }>;
};

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let acme: DashboardClient;
let hooks: WebhookReceiver;
let lease: { eid: string; signers: Array<{ eid: string }> };
let nda: { eid: string; signers: Array<{ eid: string }> };

const mails = async () =>
  (await readdir(path.join(tmp.dir, 'data', 'mail')).catch(() => [] as string[])).filter((f) => f.endsWith('.eml'));

async function created(client: InstanceType<typeof Anvil>, variables: Record<string, unknown>) {
  const data = ok(await client.createEtchPacket({ variables })) as {
    createEtchPacket: { eid: string; documentGroup: { signers: Array<{ eid: string }> } };
  };
  return { eid: data.createEtchPacket.eid, signers: data.createEtchPacket.documentGroup.signers };
}

async function session(key: string): Promise<DashboardClient> {
  const c = new DashboardClient(server.url);
  expect((await c.signIn(key)).status).toBe(200);
  return c;
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-packets-');
  hooks = await WebhookReceiver.start();
  // The first webhook is refused: it waits out a 30 s back-off unless retried.
  hooks.failFirst = 1;
  server = await startServer({
    port: 0,
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme' },
        { key: ACME_DEV, kind: 'development', organization: 'acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    packets: { dataDir: path.join(tmp.dir, 'data'), allowHosts: [hooks.host] },
    fetch: false,
  });
  const client = new Anvil({ apiKey: ACME, baseURL: server.url });
  lease = await created(client, {
    ...signaturePacketVariables('Lease for Ada', 'The lease.', [
      { id: 'ada', name: 'Ada Lovelace', email: 'ada@example.com' },
      { id: 'bob', name: 'Bob Babbage', email: 'bob@example.com' },
    ]),
    webhookURL: `${hooks.url}/lease`,
  });
  const ndaVariables = signaturePacketVariables('Office NDA', 'The NDA.', [
    { id: 'carol', name: 'Carol Shaw', email: 'carol@example.com' },
  ]);
  nda = await created(client, {
    ...ndaVariables,
    isTest: false,
    signers: (ndaVariables.signers as Array<Record<string, unknown>>).map((s) => ({ ...s, signerType: 'email' })),
  });
  acme = await session(ACME);
}, 120_000);

afterAll(async () => {
  await server?.close();
  await hooks?.close();
  await tmp?.remove();
});

describe('the packets list', () => {
  it('lists the organization’s packets newest first with status and test flag; filters, searches and pages', async () => {
    const all = await acme.call('GET', '/dashboard/api/packets');
    expect(all.status, JSON.stringify(all.json)).toBe(200);
    const body = all.json as { packets: Listed[]; total: number };
    expect(body.total).toBe(2);
    expect(body.packets.map((p) => [p.name, p.status, p.isTest])).toEqual([
      ['Office NDA', 'sent', false],
      ['Lease for Ada', 'sent', true],
    ]);
    expect(Number.isNaN(Date.parse(body.packets[0]!.createdAt))).toBe(false);

    const tests = (await acme.call('GET', '/dashboard/api/packets?test=true')).json as { packets: Listed[] };
    expect(tests.packets.map((p) => p.eid)).toEqual([lease.eid]);
    const live = (await acme.call('GET', '/dashboard/api/packets?test=false')).json as { packets: Listed[] };
    expect(live.packets.map((p) => p.eid)).toEqual([nda.eid]);
    const found = (await acme.call('GET', '/dashboard/api/packets?q=nDa')).json as { packets: Listed[] };
    expect(found.packets.map((p) => p.eid)).toEqual([nda.eid]);
    const none = (await acme.call('GET', '/dashboard/api/packets?q=%25')).json as { packets: Listed[] };
    expect(none.packets).toEqual([]);

    const first = (await acme.call('GET', '/dashboard/api/packets?limit=1')).json as {
      packets: Listed[];
      total: number;
    };
    const second = (await acme.call('GET', '/dashboard/api/packets?limit=1&offset=1')).json as { packets: Listed[] };
    expect([first.total, first.packets[0]!.eid, second.packets[0]!.eid]).toEqual([2, nda.eid, lease.eid]);

    const bad = await acme.call('GET', '/dashboard/api/packets?limit=0&test=maybe');
    expect(bad.status).toBe(400);
    expect((bad.json as { fields: Array<{ property: string }> }).fields[0]!.property).toBe('limit');
    expect((await new DashboardClient(server.url).call('GET', '/dashboard/api/packets')).status).toBe(401);
  });

  it('a development key sees its organization’s test packets only, as through the API', async () => {
    const dev = await session(ACME_DEV);
    const listed = (await dev.call('GET', '/dashboard/api/packets?test=false')).json as { packets: Listed[] };
    expect(listed.packets.map((p) => p.eid)).toEqual([lease.eid]);
    expect((await dev.call('GET', `/dashboard/api/packets/${nda.eid}`)).status).toBe(404);
  });
});

describe('a packet’s page', () => {
  it('shows signers in routing order with the events the store keeps: opening (IP, user agent) and signing', async () => {
    const url = await signUrlOf(new Anvil({ apiKey: ACME, baseURL: server.url }), lease.signers[0]!.eid, 'ada-1');
    const { signerEid, token } = tokenOf(url);
    const opened = await fetch(`${server.url}/sign/${signerEid}?token=${token}`, {
      headers: { 'user-agent': BROWSER },
    });
    expect(opened.status).toBe(200);
    expect(
      (await submitTyped({ base: server.url } as Parameters<typeof submitTyped>[0], url, 'Ada Lovelace')).status,
    ).toBe(200);

    const r = await acme.call('GET', `/dashboard/api/packets/${lease.eid}`);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    const page = (r.json as { packet: PacketPage }).packet;
    expect(page.status).toBe('partial');
    expect(page.signers.map((s) => [s.aliasId, s.routingOrder, s.status])).toEqual([
      ['ada', 1, 'completed'],
      ['bob', 2, 'sent'],
    ]);
    const ada = page.signers[0]!;
    const viewed = ada.events.find((e) => e.type === 'viewed');
    expect(viewed?.userAgent).toBe(BROWSER);
    expect(viewed?.ip).toMatch(/127\.0\.0\.1/);
    const signed = ada.events.find((e) => e.type === 'signed');
    expect(signed?.ip).toMatch(/127\.0\.0\.1/);
    expect(Date.parse(signed!.at)).toBeGreaterThanOrEqual(Date.parse(viewed!.at));
    expect(page.signers[1]!.events.some((e) => e.type === 'signed')).toBe(false);
    // Embedded signers get no email: nothing to resend.
    expect(page.signers.map((s) => s.canResend)).toEqual([false, false]);

    expect(page.documents.map((d) => d.filename)).toEqual(['terms.pdf']);
    const doc = await acme.call('GET', page.documents[0]!.url);
    expect(doc.status).toBe(200);
    expect(doc.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(doc.bytes.subarray(0, 5)).toString('latin1')).toBe('%PDF-');
    expect((await acme.call('GET', `/dashboard/api/packets/${lease.eid}/documents/7`)).status).toBe(404);
  });

  it('resends an email signer’s request (a second mail), with the CSRF header only; not an embedded signer’s', async () => {
    expect(await until(mails, (m) => m.length === 1)).toHaveLength(1);
    const carol = nda.signers[0]!.eid;
    const page = (await acme.call('GET', `/dashboard/api/packets/${nda.eid}`)).json as { packet: PacketPage };
    expect(page.packet.signers[0]!.canResend).toBe(true);
    const path = `/dashboard/api/packets/${nda.eid}/signers/${carol}/resend`;
    expect((await acme.call('POST', path, { csrf: false })).status).toBe(403);
    const r = await acme.call('POST', path);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    expect(r.json).toEqual({ signerEid: carol, queued: true });
    expect(await until(mails, (m) => m.length === 2)).toHaveLength(2);

    const embedded = await acme.call(
      'POST',
      `/dashboard/api/packets/${lease.eid}/signers/${lease.signers[1]!.eid}/resend`,
    );
    expect(embedded.status).toBe(409);
    // A signer of another packet is not found through this one.
    expect(
      (await acme.call('POST', `/dashboard/api/packets/${nda.eid}/signers/${lease.signers[1]!.eid}/resend`)).status,
    ).toBe(404);
  });
});

type Delivery = {
  id: string;
  packetEid: string;
  kind: string;
  what: string;
  status: string;
  attempts: number;
  responseCode: number | null;
  canRetry: boolean;
};

describe('deliveries', () => {
  it('lists the webhooks and emails with status and response code; a refused webhook is retried now', async () => {
    const webhooks = async () =>
      ((await acme.call('GET', '/dashboard/api/deliveries?kind=webhook')).json as { deliveries: Delivery[] })
        .deliveries;
    const refused = (await until(webhooks, (d) => d.some((e) => e.responseCode === 500))).find(
      (e) => e.responseCode === 500,
    );
    expect(refused).toMatchObject({
      packetEid: lease.eid,
      kind: 'webhook',
      status: 'pending',
      attempts: 1,
      canRetry: true,
    });
    const retry = `/dashboard/api/packets/${lease.eid}/deliveries/${refused!.id}/retry`;
    const globex = await session(GLOBEX);
    expect((await globex.call('GET', '/dashboard/api/deliveries')).json).toMatchObject({ deliveries: [], total: 0 });
    expect((await globex.call('POST', retry)).status).toBe(404);
    expect((await acme.call('POST', retry, { csrf: false })).status).toBe(403);
    const r = await acme.call('POST', retry);
    expect(r.status, JSON.stringify(r.json)).toBe(200);
    // Well inside the 30 s back-off the refusal set.
    const after = await until(webhooks, (d) => d.find((e) => e.id === refused!.id)?.status === 'delivered', 15_000);
    expect(after.find((e) => e.id === refused!.id)).toMatchObject({
      status: 'delivered',
      attempts: 2,
      responseCode: 200,
      canRetry: false,
    });
    expect(hooks.accepted().length).toBeGreaterThan(0);
    expect((await acme.call('POST', retry)).status).toBe(409);

    const mails = (await acme.call('GET', '/dashboard/api/deliveries?kind=email')).json as { deliveries: Delivery[] };
    expect(mails.deliveries.filter((d) => d.packetEid === nda.eid).map((d) => d.what)).toContain('signatureRequest');
    const bad = await acme.call('GET', '/dashboard/api/deliveries?status=lost');
    expect(bad.status).toBe(400);
  });
});

describe('another organization', () => {
  it('sees none of it: an empty list and 404s', async () => {
    const globex = await session(GLOBEX);
    const listed = (await globex.call('GET', '/dashboard/api/packets')).json as { packets: Listed[]; total: number };
    expect([listed.packets, listed.total]).toEqual([[], 0]);
    for (const [method, p] of [
      ['GET', `/dashboard/api/packets/${lease.eid}`],
      ['GET', `/dashboard/api/packets/${lease.eid}/documents/0`],
      ['POST', `/dashboard/api/packets/${nda.eid}/signers/${nda.signers[0]!.eid}/resend`],
    ] as const) {
      const r = await globex.call(method, p);
      expect(r.status, `${method} ${p}`).toBe(404);
    }
    expect(await mails()).toHaveLength(2);
  });
});
