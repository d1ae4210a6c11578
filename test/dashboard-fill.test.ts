/**
 * A template made in the dashboard, used where the engine's templates are used: `castpress serve`'s
 * server started in-process with its defaults (render pool on, packets in a data folder), the
 * unmodified `@anvilco/anvil` client filling by EID (latest published by default, the working
 * version with `versionNumber: -1`) and making a packet by reference, values read back at their
 * positions; another organization's key gets 404s; a restart on the same data folder keeps the
 * templates and the session; `--templates DIR` templates fill as before.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer, type StartOptions } from '../src/server/index.js';
import { DashboardClient, textField } from './helpers/dashboard.js';
import { itemsInRect, joinItems, readText, type PageText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf } from './helpers/workflow.js';

const Anvil = anvilModule.default;
type Client = InstanceType<typeof Anvil>;
const ACME = 'prod-acme-fill-key-0123456789';
const GLOBEX = 'prod-globex-fill-key-0123456789';
const DIR_EID = 'folderTemplate';
const FIELD = { x: 72, width: 300, height: 24 };

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let acme: Client;
let globex: Client;
let dashboard: DashboardClient;
let eid: string;

/** The lease the dashboard is given: its text, and a signature tag for the signer `ada`. */
async function leasePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([612, 792]);
  page.drawText('RESIDENTIAL LEASE', { x: 72, y: 740, size: 14, font });
  page.drawText('Tenant signs: {{ signature ::: ada }}', { x: 72, y: 200, size: 12, font });
  return doc.save();
}

function options(): StartOptions {
  return {
    port: 0,
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    templates: path.join(tmp.dir, 'templates'),
    packets: { dataDir: path.join(tmp.dir, 'data'), deliver: false },
    renderPool: { threads: 2 },
    fetch: false,
  };
}

async function start(): Promise<void> {
  server = await startServer(options());
  acme = new Anvil({ apiKey: ACME, baseURL: server.url });
  globex = new Anvil({ apiKey: GLOBEX, baseURL: server.url });
}

beforeAll(async () => {
  tmp = await tempDir('castpress-dash-fill-');
  // One template of the operator's folder, as before the dashboard.
  const folder = path.join(tmp.dir, 'templates', DIR_EID);
  await mkdir(folder, { recursive: true });
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  await writeFile(path.join(folder, 'template.pdf'), await doc.save());
  await writeFile(path.join(folder, 'v1.json'), JSON.stringify({ title: 'Folder', fields: [textField('who', 100)] }));
  await start();

  dashboard = new DashboardClient(server.url);
  expect((await dashboard.signIn(ACME)).status).toBe(200);
  const up = await dashboard.upload(await leasePdf(), 'Lease.pdf', { detect: 'false' });
  expect(up.status, JSON.stringify(up.json)).toBe(201);
  eid = (up.json as { template: { eid: string } }).template.eid;
  // Version 1 has the tenant at 150 points from the top; the working version moves it to 400.
  const put = (y: number, title: string) =>
    dashboard.call('PUT', `/dashboard/api/templates/${eid}/working`, {
      body: { title, fields: [textField('tenant', y)] },
    });
  expect((await put(150, 'Lease v1')).status).toBe(200);
  expect((await dashboard.call('POST', `/dashboard/api/templates/${eid}/publish`)).json).toEqual({ versionNumber: 1 });
  expect((await put(400, 'Lease working')).status).toBe(200);
}, 180_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

type Filled = { statusCode: number; data: Buffer; errors?: Array<{ name?: string; message: string }> };

async function filled(client: Client, castEid: string, versionNumber?: number): Promise<Filled> {
  return (await client.fillPDF(
    castEid,
    { data: { tenant: 'Ada Lovelace', who: 'Folder user' } },
    versionNumber === undefined ? {} : { versionNumber },
  )) as unknown as Filled;
}

const at = (page: PageText, y: number) => joinItems(itemsInRect(page, { ...FIELD, y }));

describe('fills by EID through the render pool', () => {
  it('the default fill is the latest published version, versionNumber -1 the working version, N that version', async () => {
    const published = await filled(acme, eid);
    expect(published.statusCode, JSON.stringify(published.errors)).toBe(200);
    let [page] = await readText(new Uint8Array(published.data));
    expect(at(page!, 150)).toBe('Ada Lovelace');
    expect(at(page!, 400)).toBe('');
    expect(joinItems(page!.items)).toContain('RESIDENTIAL LEASE');

    const working = await filled(acme, eid, -1);
    expect(working.statusCode).toBe(200);
    [page] = await readText(new Uint8Array(working.data));
    expect(at(page!, 400)).toBe('Ada Lovelace');
    expect(at(page!, 150)).toBe('');

    const one = await filled(acme, eid, 1);
    [page] = await readText(new Uint8Array(one.data));
    expect(at(page!, 150)).toBe('Ada Lovelace');
    const none = await filled(acme, eid, 7);
    expect(none.statusCode).toBe(404);
  });

  it("another organization's key: the same EID is a 404, by fill and by packet", async () => {
    for (const v of [undefined, -1]) {
      const r = await filled(globex, eid, v);
      expect(r.statusCode).toBe(404);
    }
    const packet = (await globex.createEtchPacket({
      variables: {
        name: 'Not theirs',
        isDraft: true,
        files: [{ id: 'lease', castEid: eid }],
        signers: [{ id: 'ada', name: 'Ada', email: 'ada@example.com', signerType: 'embedded', fields: [] }],
      },
    })) as unknown as { statusCode: number; errors?: Array<{ extensions?: { fields?: Array<{ property: string }> } }> };
    expect(packet.statusCode).toBe(404);
    expect(packet.errors?.[0]?.extensions?.fields?.[0]?.property).toBe('files[0].castEid');
  });

  it('templates of the --templates folder fill as before, for every organization', async () => {
    for (const client of [acme, globex]) {
      const r = await filled(client, DIR_EID);
      expect(r.statusCode).toBe(200);
      const [page] = await readText(new Uint8Array(r.data));
      expect(at(page!, 100)).toBe('Folder user');
    }
  });
});

describe('packets by reference', () => {
  it('a packet naming the template uses its latest published version, and follows the next publish while nobody has signed', async () => {
    const created = (await acme.createEtchPacket({
      variables: {
        name: 'Lease packet',
        isDraft: false,
        isTest: true,
        files: [{ id: 'lease', castEid: eid }],
        data: { payloads: { lease: { data: { tenant: 'Grace Hopper' } } } },
        signers: [
          {
            id: 'ada',
            name: 'Ada Lovelace',
            email: 'ada@example.com',
            signerType: 'embedded',
            routingOrder: 1,
            fields: [],
          },
        ],
      },
    })) as unknown as {
      statusCode: number;
      errors?: unknown;
      data: { data: { createEtchPacket: { documentGroup: { signers: Array<{ eid: string }> } } } };
    };
    expect(created.statusCode, JSON.stringify(created.errors)).toBe(200);
    const signerEid = created.data.data.createEtchPacket.documentGroup.signers[0]!.eid;
    const link = await acme.generateEtchSignUrl({ variables: { signerEid, clientUserId: 'ada-1' } });
    const { token } = tokenOf(link.url!);
    const document = async () => {
      expect((await fetch(`${server.url}/sign/${signerEid}?token=${token}`)).status).toBe(200);
      const res = await fetch(`${server.url}/sign/${signerEid}/documents/0?token=${token}`);
      expect(res.status).toBe(200);
      return (await readText(new Uint8Array(await res.arrayBuffer())))[0]!;
    };
    let page = await document();
    expect(at(page, 150)).toBe('Grace Hopper');
    expect(at(page, 400)).toBe('');

    // Publishing the working version (tenant at 400) as version 2: the packet's documents follow it.
    expect((await dashboard.call('POST', `/dashboard/api/templates/${eid}/publish`)).json).toEqual({
      versionNumber: 2,
    });
    page = await document();
    expect(at(page, 400)).toBe('Grace Hopper');
    expect(at(page, 150)).toBe('');
  });
});

describe('a restart', () => {
  it('a new server on the same data folder fills the template, keeps its versions, and honours the session', async () => {
    await server.close();
    await start();
    dashboard = new DashboardClient(server.url).withSession(dashboard);
    const detail = await dashboard.call('GET', `/dashboard/api/templates/${eid}`);
    expect(detail.status).toBe(200);
    expect(detail.json).toMatchObject({
      publishedVersion: 2,
      versions: [
        { versionNumber: 1, publishedBy: 'Ada at Acme' },
        { versionNumber: 2, publishedBy: 'Ada at Acme' },
      ],
    });
    const r = await filled(acme, eid, 1);
    expect(r.statusCode).toBe(200);
    const [page] = await readText(new Uint8Array(r.data));
    expect(at(page!, 150)).toBe('Ada Lovelace');
  }, 120_000);
});
