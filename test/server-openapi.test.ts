/**
 * The REST routes' OpenAPI document (issue 34) at GET /openapi.json: valid OpenAPI 3.1 by a maintained
 * validator, and saying what the routes do on three requests (a good generate body is accepted by both
 * the document and the server, a bad one refused by both at the same property, a fill asking for a link
 * answers with the JSON the document describes). The GraphQL schema is printed at GET /graphql/schema.graphql.
 */
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, packetSchema } from '../src/server/graphql/index.js';
import { EID, PROD_KEY, basic, startTestServer, type TestServer } from './server-setup.js';

type Json = Record<string, unknown>;
interface Operation {
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, { content?: Record<string, { schema: Json }> }>;
  security?: unknown[];
}

let s: TestServer;
let doc: { openapi: string; paths: Record<string, Record<string, Operation>> };
beforeAll(async () => {
  // Packets never opened here: the schema route needs no store.
  s = await startTestServer({
    packets: new LazyPacketBackend(async () => {
      throw new Error('not opened in this test');
    }),
  });
  const res = await fetch(`${s.base}/openapi.json`);
  expect(res.status).toBe(200);
  expect(res.headers.get('content-type')).toMatch(/^application\/json/);
  doc = (await res.json()) as typeof doc;
});
afterAll(async () => {
  await s?.close();
});

const operation = (path: string, method: string): Operation => {
  const op = doc.paths[path]?.[method];
  if (!op) throw new Error(`no ${method} ${path} in the document`);
  return op;
};
const ajv = new Ajv2020({ strict: false, allErrors: true });
const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { authorization: basic(PROD_KEY), 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

describe('GET /openapi.json', () => {
  it('is a valid OpenAPI 3.1 document (validated by @seriousme/openapi-schema-validator)', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const result = await new Validator().validate(doc as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
  });

  it('lists the REST routes and hides the signing page', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(
      [
        '/api/document-group/{eid}',
        '/api/document-group/{eid}/{filename}',
        '/api/v1/fill/{file}',
        '/api/v1/generate-pdf',
        '/download/{file}',
        '/graphql',
        '/graphql/schema.graphql',
        '/health',
        '/openapi.json',
        '/ready',
      ].sort(),
    );
    expect(operation('/api/v1/fill/{file}', 'post').security).toEqual([{ apiKey: [] }]);
    expect(operation('/health', 'get').security).toBeUndefined();
  });

  it('request 1: a Markdown body the document accepts is rendered (200, application/pdf as documented)', async () => {
    const op = operation('/api/v1/generate-pdf', 'post');
    const body = { title: 'Doc', data: [{ heading: 'Hello', content: 'From the OpenAPI test' }], fontSize: 12 };
    expect(ajv.validate(op.requestBody!.content['application/json']!.schema, body)).toBe(true);
    const res = await fetch(`${s.base}/api/v1/generate-pdf`, post(body));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(Object.keys(op.responses['200']!.content!)).toContain('application/pdf');
    expect(
      Buffer.from(await res.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('request 2: a body the document refuses is a 400 naming the same property, in the documented error shape', async () => {
    const op = operation('/api/v1/generate-pdf', 'post');
    const body = { data: [{ heading: 'Hello', textColor: 'not a colour' }] };
    const validate = ajv.compile(op.requestBody!.content['application/json']!.schema);
    expect(validate(body)).toBe(false);
    // The markdown branch of the union names the block's property.
    expect(validate.errors?.map((e) => e.instancePath)).toContain('/data/0/textColor');
    const res = await fetch(`${s.base}/api/v1/generate-pdf`, post(body));
    expect(res.status).toBe(400);
    const answer = (await res.json()) as { fields: Array<{ property: string }> };
    expect(ajv.validate(op.responses['400']!.content!['application/json']!.schema, answer)).toBe(true);
    expect(answer.fields.map((f) => f.property)).toEqual(['data[0].textColor']);
  });

  it('request 3: a fill asking for a link answers the documented JSON {url}', async () => {
    const op = operation('/api/v1/fill/{file}', 'post');
    const body = { data: { name: 'Ada' }, outputFormat: 'url' };
    expect(ajv.validate(op.requestBody!.content['application/json']!.schema, body)).toBe(true);
    const res = await fetch(`${s.base}/api/v1/fill/${EID}.pdf`, post(body));
    expect(res.status).toBe(200);
    const answer = (await res.json()) as { url: string };
    expect(ajv.validate(op.responses['200']!.content!['application/json']!.schema, answer)).toBe(true);
    expect(answer.url).toMatch(/\/download\/[A-Za-z0-9_-]+\.pdf\?expires=/);
    // ...and the link is a route of the document.
    expect(doc.paths['/download/{file}']?.get).toBeDefined();
  });
});

describe('GET /graphql/schema.graphql', () => {
  it('prints the packet schema the /graphql route executes', async () => {
    const res = await fetch(`${s.base}/graphql/schema.graphql`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    const text = await res.text();
    expect(printSchema(buildSchema(text))).toBe(printSchema(packetSchema()));
    expect(text).toContain('createEtchPacket(');
  });

  it('is absent from a server without packets', async () => {
    const plain = await startTestServer();
    try {
      expect((await fetch(`${plain.base}/graphql/schema.graphql`)).status).toBe(404);
      const paths = Object.keys(((await (await fetch(`${plain.base}/openapi.json`)).json()) as typeof doc).paths);
      expect(paths).not.toContain('/graphql');
    } finally {
      await plain.close();
    }
  });
});
