/**
 * Templates over GraphQL through the unmodified `@anvilco/anvil` client's `requestGraphQL`:
 * `createCast` from a multipart upload (detection on: a fillable PDF's fields) and from the base64
 * form (detection off), the `cast` query, `publishCast`; the same store the dashboard edits, so an
 * edit there shows in the next `versionNumber=-1` fill while the default fill keeps the published
 * version; another organization's key gets GraphQL 404s.
 */
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../src/server/index.js';
import { DashboardClient, fillablePdf, labelledPdf, textField } from './helpers/dashboard.js';
import { itemsInRect, joinItems, readText } from './helpers/pdf.js';
import { tempDir } from './helpers/signing.js';

const Anvil = anvilModule.default;
type Client = InstanceType<typeof Anvil>;
const ACME = 'prod-acme-cast-key-0123456789';
const GLOBEX = 'prod-globex-cast-key-0123456789';

const CAST_FIELDS =
  'eid name title isTemplate versionNumber latestVersionNumber hasUnpublishedChanges fields versions { versionNumber publishedAt publishedBy }';
const CREATE = `mutation CreateCast($title: String, $name: String, $file: Upload!, $isTemplate: Boolean, $detectFields: Boolean, $organizationEid: String) {
  createCast(title: $title, name: $name, file: $file, isTemplate: $isTemplate, detectFields: $detectFields, organizationEid: $organizationEid) { ${CAST_FIELDS} }
}`;
const CAST = `query Cast($eid: String!, $versionNumber: Int) { cast(eid: $eid, versionNumber: $versionNumber) { ${CAST_FIELDS} } }`;
const PUBLISH = `mutation Publish($eid: String!) { publishCast(eid: $eid) { ${CAST_FIELDS} } }`;

interface Cast {
  eid: string;
  name: string;
  title: string;
  isTemplate: boolean;
  versionNumber: number;
  latestVersionNumber: number | null;
  hasUnpublishedChanges: boolean;
  fields: Array<{
    id: string;
    alias?: string;
    type: string;
    rect: { x: number; y: number; width: number; height: number };
  }>;
  versions: Array<{ versionNumber: number; publishedAt: string; publishedBy: string }>;
}
type Answer = {
  statusCode: number;
  data?: { data?: Record<string, unknown> };
  errors?: Array<{
    message: string;
    extensions?: { name?: string; status?: number; fields?: Array<{ property: string }> };
  }>;
};

let tmp: { dir: string; remove: () => Promise<void> };
let server: RunningServer;
let acme: Client;
let globex: Client;

beforeAll(async () => {
  tmp = await tempDir('castpress-graphql-cast-');
  server = await startServer({
    port: 0,
    config: {
      keys: [
        { key: ACME, kind: 'production', organization: 'acme', label: 'Ada at Acme' },
        { key: GLOBEX, kind: 'production', organization: 'globex' },
      ],
    },
    packets: { dataDir: path.join(tmp.dir, 'data'), deliver: false },
    renderPool: { threads: 2 },
    fetch: false,
  });
  acme = new Anvil({ apiKey: ACME, baseURL: server.url });
  globex = new Anvil({ apiKey: GLOBEX, baseURL: server.url });
}, 120_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

async function gql(client: Client, query: string, variables: Record<string, unknown>): Promise<Answer> {
  return (await client.requestGraphQL({ query, variables })) as unknown as Answer;
}

function data<T>(a: Answer, root: string): T {
  expect(a.errors, JSON.stringify(a.errors)).toBeUndefined();
  expect(a.statusCode).toBe(200);
  return a.data!.data![root] as T;
}

const base64 = (bytes: Uint8Array, filename: string) => ({
  data: Buffer.from(bytes).toString('base64'),
  filename,
  mimetype: 'application/pdf',
});

describe('createCast', () => {
  it("from a multipart upload with detectFields: the fillable PDF's fields are the cast's, published as version 1, and it fills by EID", async () => {
    const file = Anvil.prepareGraphQLFile(Buffer.from(await fillablePdf()), {
      filename: 'rental-form.pdf',
      mimetype: 'application/pdf',
    });
    const cast = data<Cast>(
      await gql(acme, CREATE, {
        title: 'Rental form',
        file,
        isTemplate: true,
        detectFields: true,
        organizationEid: 'ignored',
      }),
      'createCast',
    );
    expect(cast).toMatchObject({
      eid: expect.stringMatching(/^tpl[A-Za-z0-9]+$/),
      name: 'Rental form',
      title: 'Rental form',
      isTemplate: true,
      versionNumber: 1,
      latestVersionNumber: 1,
      hasUnpublishedChanges: false,
      versions: [{ versionNumber: 1, publishedAt: expect.any(String), publishedBy: 'Ada at Acme' }],
    });
    expect(cast.fields.map((f) => [f.alias, f.type])).toEqual([
      ['name', 'shortText'],
      ['rent', 'shortText'],
      ['pets', 'checkbox'],
    ]);
    const filled = (await acme.fillPDF(cast.eid, {
      data: { name: 'Ada Lovelace', rent: '950' },
    })) as unknown as {
      statusCode: number;
      data: Buffer;
    };
    expect(filled.statusCode).toBe(200);
    const [page] = await readText(new Uint8Array(filled.data));
    expect(joinItems(itemsInRect(page!, cast.fields[0]!.rect, 2))).toBe('Ada Lovelace');
    expect(joinItems(itemsInRect(page!, cast.fields[1]!.rect, 2))).toBe('950');
  });

  it('from a base64 upload with detection off: no fields; named after the file without a title', async () => {
    const cast = data<Cast>(
      await gql(acme, CREATE, { file: base64(await labelledPdf('Plain'), 'Plain terms.pdf') }),
      'createCast',
    );
    expect(cast).toMatchObject({ name: 'Plain terms', title: 'Plain terms', versionNumber: 1, fields: [] });
  });

  it('refuses a file that is not a PDF or DOCX (422 on file) and an operation without a file (400)', async () => {
    const bad = await gql(acme, CREATE, {
      file: { data: Buffer.from('hello there').toString('base64'), filename: 'x.pdf', mimetype: 'application/pdf' },
    });
    expect(bad.statusCode).toBe(422);
    expect(bad.errors?.[0]?.extensions).toMatchObject({
      name: 'InvalidPdfError',
      status: 422,
      fields: [{ property: 'file' }],
    });
    const none = await gql(acme, 'mutation { createCast(title: "x") { eid } }', {});
    expect(none.statusCode).toBe(400);
    expect(none.errors?.[0]?.extensions?.name).toBe('GraphQLValidationError');
  });
});

describe('cast, publishCast and the dashboard', () => {
  it('an edit in the dashboard shows in the next fill with versionNumber -1, while the default fill keeps the published version; publishCast makes it the default', async () => {
    const created = data<Cast>(
      await gql(acme, CREATE, { title: 'Notice', file: base64(await labelledPdf('NOTICE'), 'notice.pdf') }),
      'createCast',
    );
    // Version 1 has no fields. The dashboard adds one to the working version.
    const dashboard = new DashboardClient(server.url);
    expect((await dashboard.signIn(ACME)).status).toBe(200);
    const edit = await dashboard.call('PUT', `/dashboard/api/templates/${created.eid}/working`, {
      body: { title: 'Notice', fields: [textField('tenant', 300)] },
    });
    expect(edit.status, JSON.stringify(edit.json)).toBe(200);

    const fill = async (versionNumber?: number) => {
      const r = (await acme.fillPDF(
        created.eid,
        { data: { tenant: 'Grace Hopper' } },
        versionNumber === undefined ? {} : { versionNumber },
      )) as unknown as {
        statusCode: number;
        data: Buffer;
      };
      expect(r.statusCode).toBe(200);
      const [page] = await readText(new Uint8Array(r.data));
      return joinItems(itemsInRect(page!, { x: 72, y: 300, width: 300, height: 24 }));
    };
    expect(await fill(-1)).toBe('Grace Hopper');
    expect(await fill()).toBe('');

    const published = data<Cast>(await gql(acme, CAST, { eid: created.eid }), 'cast');
    expect(published).toMatchObject({
      versionNumber: 1,
      latestVersionNumber: 1,
      hasUnpublishedChanges: true,
      fields: [],
    });
    const working = data<Cast>(await gql(acme, CAST, { eid: created.eid, versionNumber: -1 }), 'cast');
    expect(working.versionNumber).toBe(-1);
    expect(working.fields.map((f) => f.id)).toEqual(['tenant']);

    const two = data<Cast>(await gql(acme, PUBLISH, { eid: created.eid }), 'publishCast');
    expect(two).toMatchObject({ versionNumber: 2, latestVersionNumber: 2, hasUnpublishedChanges: false });
    expect(two.versions.map((v) => [v.versionNumber, v.publishedBy])).toEqual([
      [1, 'Ada at Acme'],
      [2, 'Ada at Acme'],
    ]);
    expect(await fill()).toBe('Grace Hopper');
    expect(data<Cast>(await gql(acme, CAST, { eid: created.eid }), 'cast').versionNumber).toBe(2);
    // The dashboard's version list shows the version GraphQL published.
    const detail = await dashboard.call('GET', `/dashboard/api/templates/${created.eid}`);
    expect(detail.json).toMatchObject({ publishedVersion: 2 });
  });

  it("another organization's key: cast and publishCast are GraphQL 404s, and its dashboard lists nothing of it", async () => {
    const created = data<Cast>(
      await gql(acme, CREATE, { file: base64(await labelledPdf('Private'), 'private.pdf') }),
      'createCast',
    );
    for (const [query, root] of [
      [CAST, 'cast'],
      [PUBLISH, 'publishCast'],
    ] as const) {
      const r = await gql(globex, query, { eid: created.eid });
      expect(r.statusCode, root).toBe(404);
      expect(r.errors?.[0]?.extensions).toMatchObject({ name: 'NotFoundError', status: 404 });
      expect(r.data?.data?.[root] ?? null).toBeNull();
    }
    const theirs = new DashboardClient(server.url);
    await theirs.signIn(GLOBEX);
    const list = (await theirs.call('GET', '/dashboard/api/templates')).json as { templates: Array<{ eid: string }> };
    expect(list.templates.map((t) => t.eid)).not.toContain(created.eid);
    // Still version 1 for its owner: the refused publish changed nothing.
    expect(data<Cast>(await gql(acme, CAST, { eid: created.eid }), 'cast').latestVersionNumber).toBe(1);
  });
});
