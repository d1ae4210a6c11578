/**
 * createEtchPacket's typed inputs (`EtchFile`, `EtchSigner`, `SignerField`), driven by the hosted
 * service's own Node client (`@anvilco/anvil`, unmodified) against a castpress server on loopback:
 * introspection shows them; the client's default mutation (which declares `$signers: [JSON!]`, as
 * the hosted schema takes) is checked against them by GraphQL, a misspelled key refused with its
 * path before anything runs; every file kind the client sends (multipart upload, base64 upload,
 * template reference, HTML, Markdown) still makes a packet.
 */
import anvilModule from '@anvilco/anvil';
import { PDFDocument, StandardFonts } from '@cantoo/pdf-lib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, openPacketBackend } from '../src/server/graphql/index.js';
import { tempDir } from './helpers/signing.js';
import { EID, PROD_KEY, startTestServer, type TestServer } from './server-setup.js';

const Anvil = anvilModule.default;
let server: TestServer;
let client: InstanceType<typeof Anvil>;
let tmp: { dir: string; remove: () => Promise<void> };
let pdf: Uint8Array;

beforeAll(async () => {
  tmp = await tempDir('castpress-graphql-inputs-');
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText('Lease', { x: 72, y: 720, size: 16, font });
  pdf = await doc.save();
  let base = '';
  const packets = new LazyPacketBackend(() =>
    openPacketBackend({ dataDir: tmp.dir, engine: server.engine, baseUrl: base, pollMs: 50 }),
  );
  server = await startTestServer({ packets });
  base = server.base;
  client = new Anvil({ apiKey: PROD_KEY, baseURL: server.base });
}, 60_000);

afterAll(async () => {
  await server?.close();
  await tmp?.remove();
}, 60_000);

interface Gql {
  statusCode: number;
  data?: { data?: Record<string, any> };
  errors?: Array<{ message: string; extensions?: { name?: string; status?: number; fields?: FieldError[] } }>;
}
interface FieldError {
  property: string;
  message: string;
}
interface TypeRef {
  kind: string;
  name: string | null;
  ofType: TypeRef | null;
}

/** `[EtchSigner!]` from an introspected type reference. */
const typeName = (t: TypeRef): string =>
  t.kind === 'NON_NULL' ? `${typeName(t.ofType!)}!` : t.kind === 'LIST' ? `[${typeName(t.ofType!)}]` : t.name!;

const TYPE_REF = 'kind name ofType { kind name ofType { kind name ofType { kind name } } }';

async function gql(query: string, variables: Record<string, unknown> = {}): Promise<Gql> {
  return (await client.requestGraphQL({ query, variables }, { dataType: 'json' })) as unknown as Gql;
}

const sigField = (id: string, y: number) => ({
  id,
  type: 'signature',
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});

const signer = (extra: Record<string, unknown> = {}) => ({
  id: 'tenant',
  name: 'Ada Tenant',
  email: 'ada@example.com',
  signerType: 'embedded',
  fields: [{ fileId: 'lease', fieldId: 'tenantSig' }],
  ...extra,
});

describe('createEtchPacket typed inputs', () => {
  it('introspection shows EtchFile, EtchSigner and SignerField as input types, and createEtchPacket takes them', async () => {
    const inputFields = async (name: string) => {
      const r = await gql(`{ __type(name: "${name}") { kind inputFields { name type { ${TYPE_REF} } } } }`);
      expect(r.errors, JSON.stringify(r.errors)).toBeUndefined();
      const t = r.data!.data!.__type as { kind: string; inputFields: Array<{ name: string; type: TypeRef }> } | null;
      expect(t, `${name} is in the schema`).not.toBeNull();
      expect(t!.kind).toBe('INPUT_OBJECT');
      return Object.fromEntries(t!.inputFields.map((f) => [f.name, typeName(f.type)]));
    };
    expect(await inputFields('EtchSigner')).toMatchObject({
      id: 'String!',
      name: 'String',
      email: 'String',
      signerType: 'String',
      routingOrder: 'Int',
      acceptEachField: 'Boolean',
      enableEmails: 'JSON',
      redirectURL: 'String',
      fields: '[SignerField!]',
      tokenValidForMinutes: 'Int',
      isPending: 'Boolean',
    });
    expect(await inputFields('SignerField')).toEqual({ fileId: 'String!', fieldId: 'String!' });
    expect(await inputFields('EtchFile')).toMatchObject({
      id: 'String!',
      castEid: 'String',
      file: 'Upload',
      markup: 'JSON',
      fields: '[JSON!]',
      filename: 'String',
      title: 'String',
      fontSize: 'Int',
    });

    const mutation = await gql(`{ __type(name: "Mutation") { fields { name args { name type { ${TYPE_REF} } } } } }`);
    const fields = mutation.data!.data!.__type.fields as Array<{
      name: string;
      args: Array<{ name: string; type: TypeRef }>;
    }>;
    const args = Object.fromEntries(
      fields.find((f) => f.name === 'createEtchPacket')!.args.map((a) => [a.name, typeName(a.type)]),
    );
    // Free-form or tolerant values stay JSON, as the hosted schema has them.
    expect(args).toMatchObject({
      files: '[EtchFile!]',
      signers: '[EtchSigner!]',
      data: 'JSON',
      signaturePageOptions: 'JSON',
      enableEmails: 'JSON',
    });
  });

  it("a misspelled signer key in the client's default mutation is refused by GraphQL, with its path, before anything runs", async () => {
    const { email: _email, ...misspelled } = signer({ emial: 'ada@example.com' });
    const result = (await client.createEtchPacket({
      variables: {
        name: 'Typo',
        isDraft: true,
        files: [
          {
            id: 'lease',
            title: 'Lease',
            file: Anvil.prepareGraphQLFile(Buffer.from(pdf), { filename: 'lease.pdf' }),
            fields: [sigField('tenantSig', 200)],
          },
        ],
        signers: [misspelled],
      },
    })) as unknown as Gql;
    expect(result.statusCode).toBe(400);
    expect(result.errors).toHaveLength(1);
    const error = result.errors![0]!;
    expect(error.extensions).toMatchObject({ name: 'GraphQLValidationError', status: 400 });
    expect(error.extensions!.fields).toEqual([
      { property: 'signers[0].emial', message: expect.stringMatching(/not defined by type "EtchSigner".*"email"/) },
    ]);
    expect(error.message).toMatch(/^signers\[0\]\.emial: /);
    // Refused before the operation ran: no data at all, and no packet was made.
    expect(result.data).toBeUndefined();
  });

  it("a wrong shape deeper in is named by its path too: a signer's field reference, its routing order, a file key", async () => {
    const result = (await client.createEtchPacket({
      variables: {
        name: 'Shapes',
        isDraft: true,
        files: [
          {
            id: 'lease',
            title: 'Lease',
            file: { data: Buffer.from(pdf).toString('base64'), filename: 'lease.pdf', mimetype: 'application/pdf' },
            fields: [sigField('tenantSig', 200)],
            colour: '#000000',
          },
        ],
        signers: [signer({ fields: [{ fileId: 'lease', field: 'tenantSig' }], routingOrder: 'first' })],
      },
    })) as unknown as Gql;
    expect(result.statusCode).toBe(400);
    const properties = result.errors!.flatMap((e) => e.extensions!.fields!.map((f) => f.property));
    expect(properties.sort()).toEqual([
      'files[0].colour',
      'signers[0].fields[0].field',
      'signers[0].fields[0].fieldId',
      'signers[0].routingOrder',
    ]);
  });

  it('the answer stays bounded: at most 50 errors, and a long bad value is not echoed whole', async () => {
    const result = (await client.createEtchPacket({
      variables: {
        name: 'Many',
        isDraft: true,
        files: [{ id: 'lease', castEid: EID, fontSize: 'x'.repeat(100_000) }],
        signers: Array.from({ length: 200 }, (_, i) => signer({ id: `s${i}`, colour: 'red' })),
      },
    })) as unknown as Gql;
    expect(result.statusCode).toBe(400);
    expect(result.errors).toHaveLength(50);
    const first = result.errors![0]!;
    expect(first.extensions!.fields![0]!.property).toBe('files[0].fontSize');
    expect(first.message.length).toBeLessThan(400);
    expect(result.errors![1]!.extensions!.fields![0]!.property).toBe('signers[0].colour');
  });

  it('every file kind the client sends still makes a packet: multipart and base64 uploads, a template, HTML, Markdown', async () => {
    const result = (await client.createEtchPacket({
      variables: {
        name: 'All kinds',
        isDraft: true,
        isTest: true,
        files: [
          {
            id: 'lease',
            title: 'Lease',
            file: Anvil.prepareGraphQLFile(Buffer.from(pdf), { filename: 'lease.pdf', mimetype: 'application/pdf' }),
            fields: [sigField('tenantSig', 200)],
            // What the hosted API's Python client sends on every upload.
            fontSize: 14,
            textColor: '#000000',
          },
          {
            id: 'annex',
            title: 'Annex',
            file: { data: Buffer.from(pdf).toString('base64'), filename: 'annex.pdf', mimetype: 'application/pdf' },
            fields: [sigField('annexSig', 300)],
          },
          { id: 'template', castEid: EID, filename: 'template.pdf' },
          {
            id: 'rules',
            filename: 'rules.pdf',
            title: 'Rules',
            markup: { html: '<h1>Rules</h1><p>No pets.</p>', css: 'h1 { color: #222; }' },
            fields: [sigField('rulesSig', 400)],
          },
          {
            id: 'notes',
            filename: 'notes.pdf',
            title: 'Notes',
            fontSize: 12,
            includeTimestamp: false,
            fields: [{ content: 'Keys are returned at the end.' }, sigField('notesSig', 500)],
          },
        ],
        signers: [
          signer({
            fields: [
              { fileId: 'lease', fieldId: 'tenantSig' },
              { fileId: 'annex', fieldId: 'annexSig' },
              { fileId: 'rules', fieldId: 'rulesSig' },
              { fileId: 'notes', fieldId: 'notesSig' },
            ],
            enableEmails: ['etchComplete'],
          }),
        ],
        data: { payloads: { template: { data: { name: 'Ada Tenant' } } } },
      },
    })) as unknown as Gql;
    expect(result.errors, JSON.stringify(result.errors)).toBeUndefined();
    expect(result.statusCode).toBe(200);
    const packet = result.data!.data!.createEtchPacket;
    expect(packet.documentGroup.files.map((f: { filename: string }) => f.filename)).toEqual([
      'lease.pdf',
      'annex.pdf',
      'template.pdf',
      'rules.pdf',
      'notes.pdf',
    ]);
    expect(packet.documentGroup.signers.map((s: { aliasId: string }) => s.aliasId)).toEqual(['tenant']);
    // Five files, one of them printed by Chromium: as the other packet tests that print HTML, more than the default minute.
  }, 180_000);

  it('a query declared with the typed inputs (what codegen writes) works the same; the zod checks still run behind GraphQL', async () => {
    const query = `mutation($files: [EtchFile!], $signers: [EtchSigner!]) {
      createEtchPacket(name: "Typed", isDraft: true, files: $files, signers: $signers) { eid documentGroup { signers { aliasId } } } }`;
    const files = [
      {
        id: 'lease',
        title: 'Lease',
        file: { data: Buffer.from(pdf).toString('base64'), filename: 'lease.pdf', mimetype: 'application/pdf' },
        fields: [sigField('tenantSig', 200)],
      },
    ];
    const made = await gql(query, { files, signers: [signer()] });
    expect(made.errors, JSON.stringify(made.errors)).toBeUndefined();
    expect(made.data!.data!.createEtchPacket.documentGroup.signers).toEqual([{ aliasId: 'tenant' }]);

    // Well typed, but not a valid email: the packet request's own validation answers, as before.
    const bad = await gql(query, { files, signers: [signer({ email: 'not-an-email' })] });
    expect(bad.statusCode).toBe(400);
    expect(bad.errors![0]!.extensions).toMatchObject({
      name: 'ValidationError',
      fields: [{ property: 'signers[0].email', message: 'Must be a valid email address' }],
    });
  });
});
