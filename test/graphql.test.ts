/**
 * The packet operations over GraphQL, driven by the hosted service's own
 * Node client (`@anvilco/anvil`, unmodified) against a castpress server on
 * loopback: createEtchPacket with an uploaded PDF (base64 JSON, and GraphQL
 * multipart) and a Markdown file, getEtchPacket, generateEtchSignUrl,
 * requestGraphQL for the other mutations, downloadDocuments (zip checked with
 * `unzip -t`, PDFs with pdfsig), and errors in GraphQL's form.
 */
import { randomBytes } from 'node:crypto';
import { readdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { unzipSync } from 'fflate';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, openPacketBackend, type PacketBackend } from '../src/server/graphql/index.js';
import { pageText } from './helpers/pdf.js';
import { pdfsig, tempDir, tool } from './helpers/signing.js';
import { tokenOf, WebhookReceiver } from './helpers/workflow.js';
import { basic, PROD_KEY, startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
let server: TestServer;
let client: InstanceType<typeof Anvil>;
let tmp: { dir: string; remove: () => Promise<void> };
let backend: PacketBackend;
let uploadPdf: Uint8Array;
let hooks: WebhookReceiver;

/** A one-page PDF carrying 1.5 MB of incompressible attachment: its base64 JSON body is over 2 MiB. */
async function bigPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Uploaded rental agreement', { x: 72, y: 720, size: 16, font });
  await doc.attach(randomBytes(1_500_000), 'noise.bin', { mimeType: 'application/octet-stream' });
  return doc.save({ useObjectStreams: false });
}

beforeAll(async () => {
  tmp = await tempDir('castpress-graphql-');
  uploadPdf = await bigPdf();
  hooks = await WebhookReceiver.start();
  let base = '';
  const packets = new LazyPacketBackend(async () => {
    backend = await openPacketBackend({
      dataDir: tmp.dir,
      engine: server.engine,
      baseUrl: base,
      allowHosts: [hooks.host],
      pollMs: 50,
    });
    return backend;
  });
  server = await startTestServer({ packets });
  base = server.base;
  client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await hooks?.close();
  await tmp?.remove();
}, 60_000);

const sigField = (id: string, type: string, y: number) => ({
  id,
  type,
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});

function variables(upload: unknown) {
  return {
    name: 'Rental 7',
    organizationEid: 'org-ignored',
    signatureProvider: 'castpress',
    createCastTemplatesFromUploads: false,
    isDraft: true,
    isTest: true,
    allowUpdates: true,
    webhookURL: hooks.url,
    files: [
      {
        id: 'agreement',
        title: 'Agreement',
        file: upload,
        fields: [
          sigField('tenantSig', 'signature', 200),
          { id: 'rent', type: 'shortText', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 20 } },
        ],
      },
      {
        id: 'notes',
        filename: 'notes.pdf',
        title: 'House rules',
        fontSize: 12,
        textColor: '#222222',
        fields: [
          { heading: 'House rules' },
          { content: 'No pets on the **balcony**.' },
          sigField('ownerSig', 'signature', 400),
        ],
      },
    ],
    signers: [
      {
        id: 'tenant',
        name: 'Ada Tenant',
        email: 'ada@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'agreement', fieldId: 'tenantSig' }],
      },
      {
        id: 'owner',
        name: 'Lin Owner',
        email: 'lin@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'notes', fieldId: 'ownerSig' }],
      },
    ],
    data: { payloads: { agreement: { data: { rent: '$900' } } } },
  };
}

type Gql = {
  statusCode: number;
  data?: { data?: Record<string, any>; errors?: unknown };
  errors?: Array<Record<string, any>>;
};

function ok(result: Gql): Record<string, any> {
  expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
  expect(result.statusCode).toBe(200);
  const body = result.data as Record<string, unknown>;
  // The client treats these top-level keys as failure.
  expect(Object.keys(body)).toEqual(['data']);
  return body.data as Record<string, any>;
}

describe('@anvilco/anvil against castpress GraphQL', () => {
  let packetEid = '';
  let groupEid = '';
  let signers: Array<{ eid: string; aliasId: string }> = [];

  it('createEtchPacket: base64 upload over 2 MiB of JSON and a Markdown file; client-only arguments accepted', async () => {
    const upload = {
      data: Buffer.from(uploadPdf).toString('base64'),
      filename: 'agreement.pdf',
      mimetype: 'application/pdf',
    };
    const result = (await client.createEtchPacket({ variables: variables(upload) })) as unknown as Gql;
    const data = ok(result);
    const packet = data.createEtchPacket;
    expect(packet).toMatchObject({
      name: 'Rental 7',
      status: 'draft',
      isTest: true,
      allowUpdates: true,
      numberRemainingSigners: 2,
    });
    expect(packet.documentGroup.files.map((f: { filename: string }) => f.filename)).toEqual([
      'agreement.pdf',
      'notes.pdf',
    ]);
    expect(packet.documentGroup.signers.map((s: { aliasId: string; status: string }) => [s.aliasId, s.status])).toEqual(
      [
        ['tenant', 'draft'],
        ['owner', 'draft'],
      ],
    );
    packetEid = packet.eid;
    groupEid = packet.documentGroup.eid;
    signers = packet.documentGroup.signers;
  });

  it('getEtchPacket, sendEtchPacket and updateEtchPacket through requestGraphQL', async () => {
    const got = ok((await client.getEtchPacket({ variables: { eid: packetEid } })) as unknown as Gql).etchPacket;
    expect(got).toMatchObject({ eid: packetEid, id: packetEid, status: 'draft' });

    const sent = ok(
      (await client.requestGraphQL(
        {
          query: 'mutation($eid: String!){ sendEtchPacket(eid: $eid){ eid name status } }',
          variables: { eid: packetEid },
        },
        { dataType: 'json' },
      )) as unknown as Gql,
    );
    expect(sent.sendEtchPacket).toEqual({ eid: packetEid, name: 'Rental 7', status: 'sent' });

    const updated = ok(
      (await client.requestGraphQL(
        {
          query:
            'mutation U($eid: String!, $payload: JSON, $m: Boolean){ updateEtchPacket(eid: $eid, name: "Rental 7b", payload: $payload, mergePayloads: $m, waitForDocumentGroupUpdate: true){ eid name isTest payload } }',
          variables: { eid: packetEid, payload: { agreement: { data: { rent: '$950' } } }, m: true },
        },
        { dataType: 'json' },
      )) as unknown as Gql,
    );
    expect(updated.updateEtchPacket).toMatchObject({ eid: packetEid, name: 'Rental 7b', isTest: true });
    expect(JSON.stringify(updated.updateEtchPacket.payload)).toContain('$950');
  });

  it('updateSigner, generateEtchSignUrl, expireSignerTokens; signing completes the packet; downloadDocuments gives a valid zip of sealed PDFs', async () => {
    const owner = signers.find((s) => s.aliasId === 'owner')!;
    const tenant = signers.find((s) => s.aliasId === 'tenant')!;
    const renamed = ok(
      (await client.requestGraphQL(
        {
          query: 'mutation($eid: String!, $name: String){ updateSigner(eid: $eid, name: $name){ eid name email } }',
          variables: { eid: owner.eid, name: 'Lin Landlord' },
        },
        { dataType: 'json' },
      )) as unknown as Gql,
    );
    expect(renamed.updateSigner).toEqual({ eid: owner.eid, name: 'Lin Landlord', email: 'lin@example.com' });

    // Not complete yet: no download.
    const early = (await client.downloadDocuments(groupEid)) as unknown as Gql;
    expect(early.statusCode).toBe(409);

    const first = await client.generateEtchSignUrl({ variables: { signerEid: tenant.eid, clientUserId: 'u-ada' } });
    expect(first.errors).toBeUndefined();
    expect(first.url).toMatch(new RegExp(`^${server.base}/sign/${tenant.eid}\\?token=`));
    const expired = ok(
      (await client.requestGraphQL(
        {
          query: 'mutation($s: String!){ expireSignerTokens(signerEid: $s){ signerEid expired } }',
          variables: { s: tenant.eid },
        },
        { dataType: 'json' },
      )) as unknown as Gql,
    );
    expect(expired.expireSignerTokens).toEqual({ signerEid: tenant.eid, expired: 1 });
    const stale = await backend.service
      .submitSigning({ ...tokenOf(first.url!), inputs: { signature: { type: 'typed', text: 'Ada' } } })
      .catch((e: unknown) => e);
    expect((stale as { errorType?: string }).errorType).toBe('tokenExpired');

    for (const s of [tenant, owner]) {
      const { url, errors } = await client.generateEtchSignUrl({
        variables: { signerEid: s.eid, clientUserId: `u-${s.aliasId}` },
      });
      expect(errors).toBeUndefined();
      await backend.service.submitSigning({
        ...tokenOf(url!),
        inputs: {
          signature: {
            type: 'drawn',
            strokes: [
              [
                { x: 0, y: 0 },
                { x: 40, y: 15 },
                { x: 80, y: 0 },
              ],
            ],
          },
        },
      });
    }
    const done = ok((await client.getEtchPacket({ variables: { eid: packetEid } })) as unknown as Gql).etchPacket;
    expect(done.status).toBe('complete');

    const zip = (await client.downloadDocuments(groupEid)) as unknown as {
      statusCode: number;
      data: Buffer;
      response: { headers: { get(n: string): string | null } };
      errors?: unknown;
    };
    expect(zip.errors).toBeUndefined();
    expect(zip.statusCode).toBe(200);
    expect(zip.response.headers.get('content-type')).toBe('application/zip');
    expect(zip.response.headers.get('content-disposition')).toMatch(/^attachment; filename="Rental 7b\.zip"/);
    const file = path.join(tmp.dir, 'docs.zip');
    await writeFile(file, zip.data);
    const test = await tool('unzip', ['-t', file]);
    expect(test.stdout).toContain('No errors detected');
    const entries = unzipSync(new Uint8Array(zip.data));
    expect(Object.keys(entries)).toEqual(['agreement.pdf', 'notes.pdf']);
    for (const [name, bytes] of Object.entries(entries)) {
      const pdfFile = path.join(tmp.dir, name);
      await writeFile(pdfFile, bytes);
      const report = await pdfsig(pdfFile);
      expect(report.signatures.length, report.text).toBeGreaterThan(0);
      const last = report.signatures.at(-1)!;
      expect(last.valid, report.text).toBe(true);
      expect(last.total, report.text).toBe(true);
    }
    expect((await pageText(entries['agreement.pdf']!)).join('\n')).toContain('$950');

    // One file, by the downloadURL the packet lists.
    const one = await fetch(done.documentGroup.files[1].downloadURL, { headers: { authorization: basic(PROD_KEY) } });
    expect(one.status).toBe(200);
    expect(one.headers.get('content-type')).toBe('application/pdf');
    expect(Buffer.from(await one.arrayBuffer()).equals(Buffer.from(entries['notes.pdf']!))).toBe(true);
    const none = await fetch(`${server.base}/api/document-group/${groupEid}/missing.pdf`, {
      headers: { authorization: basic(PROD_KEY) },
    });
    expect(none.status).toBe(404);
    const noKey = await fetch(`${server.base}/api/document-group/${groupEid}.zip`);
    expect(noKey.status).toBe(401);

    // Updates are refused once complete, in GraphQL's error form.
    const late = (await client.requestGraphQL(
      {
        query: 'mutation($eid: String!){ updateEtchPacket(eid: $eid, payload: {}){ eid } }',
        variables: { eid: packetEid },
      },
      { dataType: 'json' },
    )) as unknown as Gql;
    expect(late.statusCode).toBe(409);
    expect(late.errors?.[0]).toMatchObject({ extensions: { name: 'PacketStateError', status: 409 } });
    // The packet's webhook on loopback is delivered because its host is allowed (--allow-host).
    for (let i = 0; i < 100 && hooks.accepted('etchPacketComplete').length === 0; i++)
      await new Promise((r) => setTimeout(r, 50));
    expect(hooks.accepted('signerComplete')).toHaveLength(2);
    expect(hooks.accepted('etchPacketComplete')[0]?.body.data).toMatchObject({
      downloadZipURL: `${server.base}/api/document-group/${groupEid}.zip`,
    });
    // The SQLite store and the generated signing CA live in the data folder.
    expect(await readdir(tmp.dir)).toEqual(expect.arrayContaining(['packets', 'signing']));
    expect(await readdir(path.join(tmp.dir, 'packets'))).toContain('packets.db');
  }, 120_000);

  it('GraphQL multipart upload (operations, map, file parts) through prepareGraphQLFile', async () => {
    const file = Anvil.prepareGraphQLFile(Buffer.from(uploadPdf), {
      filename: 'multipart.pdf',
      mimetype: 'application/pdf',
    });
    const vars = variables(file);
    const data = ok((await client.createEtchPacket({ variables: vars })) as unknown as Gql);
    const files = data.createEtchPacket.documentGroup.files as Array<{ filename: string }>;
    expect(files.map((f) => f.filename)).toEqual(['multipart.pdf', 'notes.pdf']);
  });

  it('errors come back in GraphQL form with the typed error in extensions', async () => {
    const bad = (await client.createEtchPacket({
      variables: variables({ data: 'not base64 !!', filename: 'x.pdf', mimetype: 'application/pdf' }),
    })) as unknown as Gql;
    expect(bad.statusCode).toBe(400);
    expect(bad.errors?.[0]?.message).toBeTruthy();
    expect(bad.errors?.[0]?.extensions?.name).toBe('ValidationError');
    expect(JSON.stringify(bad.errors?.[0]?.extensions?.fields)).toContain('files');

    const missing = (await client.getEtchPacket({ variables: { eid: 'pkt_nope' } })) as unknown as Gql;
    expect(missing.statusCode).toBeGreaterThanOrEqual(400);
    expect(missing.errors?.[0]?.message).toMatch(/pkt_nope/);

    const syntax = (await client.requestGraphQL(
      { query: 'mutation { nope }' },
      { dataType: 'json' },
    )) as unknown as Gql;
    expect(syntax.statusCode).toBe(400);
    expect(syntax.errors?.[0]?.message).toMatch(/nope/);

    const noVar = (await client.requestGraphQL(
      { query: 'query($eid: String!){ etchPacket(eid: $eid){ eid } }' },
      { dataType: 'json' },
    )) as unknown as Gql;
    expect(noVar.statusCode).toBe(400);
    expect(noVar.errors?.[0]?.message).toMatch(/\$eid/);

    const weld = (await client.requestGraphQL(
      { query: '{ weld(eid: "w1"){ eid title weldDatas { eid status } } }' },
      { dataType: 'json' },
    )) as unknown as Gql;
    expect(weld.statusCode).toBe(404);
    expect(weld.errors?.[0]?.extensions?.name).toBe('NotFoundError');

    const wrongKey = new Anvil({ apiKey: 'no-such-key', baseURL: server.base });
    const denied = (await wrongKey.getEtchPacket({ variables: { eid: 'x' } })) as unknown as Gql;
    expect(denied.statusCode).toBe(401);
    expect(denied.errors?.[0]).toMatchObject({ message: 'Invalid API key.' });
  });

  it('rate-limit headers on GraphQL answers', async () => {
    const res = await fetch(`${server.base}/graphql`, {
      method: 'POST',
      headers: { authorization: basic(PROD_KEY), 'content-type': 'application/json' },
      body: JSON.stringify({ query: '{ etchPacket(eid: "x"){ eid } }' }),
    });
    expect(res.headers.get('x-ratelimit-limit')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-interval-ms')).toBeTruthy();
    const body = (await res.json()) as { errors: Array<{ message: string }> };
    expect(body.errors[0]!.message).toBeTruthy();
  });

  it('errors before the operation runs are in GraphQL form too: bad multipart map, a prototype path, bad JSON', async () => {
    const post = (body: BodyInit, type?: string) =>
      fetch(`${server.base}/graphql`, {
        method: 'POST',
        headers: { authorization: basic(PROD_KEY), ...(type ? { 'content-type': type } : {}) },
        body,
      });
    const form = new FormData();
    form.append(
      'operations',
      JSON.stringify({
        query: 'mutation($f:[EtchFile!]){ createEtchPacket(files:$f){ eid } }',
        variables: { f: [{ id: 'a', file: null, fields: [] }] },
      }),
    );
    form.append('map', JSON.stringify({ 1: ['variables.f.0.file'] }));
    const res = await post(form);
    expect(res.status).toBe(400);
    const body = (await res.json()) as {
      errors: Array<{ message: string; extensions: { name: string; fields: Array<{ property: string }> } }>;
    };
    expect(Object.keys(body)).toEqual(['errors']);
    expect(body.errors[0]!.message).toMatch(/No file part named "1"/);
    expect(body.errors[0]!.extensions.fields[0]!.property).toBe('map.1');

    const proto = new FormData();
    proto.append('operations', JSON.stringify({ query: '{ etchPacket(eid: "x"){ eid } }' }));
    proto.append('map', JSON.stringify({ 1: ['__proto__.polluted'] }));
    proto.append('1', new Blob([new Uint8Array([1, 2, 3])]), 'x.pdf');
    const refused = await post(proto);
    expect(refused.status).toBe(400);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();

    const broken = await post('{"query": ', 'application/json');
    expect(broken.status).toBe(400);
    expect(((await broken.json()) as { errors: Array<{ message: string }> }).errors[0]!.message).toMatch(
      /Invalid JSON/,
    );
  });
});
