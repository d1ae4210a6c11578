/**
 * The REST routes' OpenAPI document at GET /openapi.json: valid OpenAPI 3.1 by a maintained
 * validator, and saying what the routes do on three requests (a good generate body is accepted by both
 * the document and the server, a bad one refused by both at the same property, a fill asking for a link
 * answers with the JSON the document describes). The GraphQL schema is printed at GET /graphql/schema.graphql.
 */
import { readFile } from 'node:fs/promises';
import { Validator } from '@seriousme/openapi-schema-validator';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { buildSchema, printSchema } from 'graphql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LazyPacketBackend, packetSchema } from '../src/server/graphql/index.js';
import { EID, PROD_KEY, basic, startTestServer, type TestServer } from './server-setup.js';

type Json = Record<string, unknown>;
interface Response {
  $ref?: string;
  description?: string;
  headers?: Record<string, { schema: Json }>;
  content?: Record<string, { schema: Json }>;
}
interface Operation {
  operationId?: string;
  summary?: string;
  requestBody?: { content: Record<string, { schema: Json }> };
  responses: Record<string, Response>;
  security?: unknown[];
}
interface Document {
  openapi: string;
  info: { version: string };
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, Json>; responses: Record<string, Response> };
}

let s: TestServer;
let doc: Document;
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
    expect(operation('/health', 'get').security).toEqual([]);
  });

  it('names every operation (unique camelCase operationId), says its security and the 4xx answers each really gives', () => {
    const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, op]) => ({ at: `${method.toUpperCase()} ${path}`, op })),
    );
    const ids = ops.map(({ op }) => op.operationId);
    expect(new Set(ids).size).toBe(ops.length);
    for (const { at, op } of ops) {
      expect(op.operationId, at).toMatch(/^[a-z][A-Za-z0-9]*$/);
      expect(op.summary, at).toBeTruthy();
      expect(Array.isArray(op.security), at).toBe(true);
    }
    const errors = Object.fromEntries(
      ops.map(({ at, op }) => [
        `${at} ${op.operationId}`,
        Object.keys(op.responses)
          .filter((code) => code.startsWith('4'))
          .join(' '),
      ]),
    );
    // What the routes answer (docs/reference/http-api.md, "Errors"); the probes and the references answer no 4xx.
    expect(errors).toEqual({
      'POST /api/v1/fill/{file} fillPdf': '400 401 404 413 415 422 429',
      'POST /api/v1/generate-pdf generatePdf': '400 401 413 415 429',
      'GET /download/{file} downloadPdf': '404 410',
      'POST /graphql graphql': '400 401 404 409 413 415 422 429',
      'GET /api/document-group/{eid} downloadDocumentGroupZip': '401 404 409 429',
      'GET /api/document-group/{eid}/{filename} downloadDocumentGroupFile': '401 404 409 429',
      'GET /health getHealth': '',
      'GET /ready getReadiness': '',
      'GET /openapi.json getOpenApiDocument': '',
      'GET /graphql/schema.graphql getGraphqlSchema': '',
    });
    const keyed = ops.filter(({ op }) => JSON.stringify(op.security) === JSON.stringify([{ apiKey: [] }]));
    expect(keyed.map(({ at }) => at).sort()).toEqual(
      [
        'GET /api/document-group/{eid}',
        'GET /api/document-group/{eid}/{filename}',
        'POST /api/v1/fill/{file}',
        'POST /api/v1/generate-pdf',
        'POST /graphql',
      ].sort(),
    );
    for (const { op } of ops.filter((o) => !keyed.includes(o))) expect(op.security).toEqual([]);
    // HTTP Basic, the key as user name, as the hosted API asks.
    expect(doc).toMatchObject({ components: { securitySchemes: { apiKey: { type: 'http', scheme: 'basic' } } } });
  });

  it('shares the 4xx answers as components: the error shape, WWW-Authenticate on 401, Retry-After on 429', () => {
    const fill = operation('/api/v1/fill/{file}', 'post');
    for (const [code, response] of Object.entries(fill.responses).filter(([c]) => c.startsWith('4'))) {
      expect(response.$ref, code).toMatch(/^#\/components\/responses\/[A-Za-z]+$/);
      expect(response.description, code).toBeTruthy();
    }
    const shared = (op: Operation, code: string): Response =>
      doc.components.responses[op.responses[code]!.$ref!.split('/').pop()!]!;
    expect(shared(fill, '400').content!['application/json']!.schema).toEqual({ $ref: '#/components/schemas/Error' });
    expect(doc.components.schemas.Error).toMatchObject({
      type: 'object',
      required: ['name', 'message', 'fields'],
      properties: { fields: { type: 'array', items: { required: ['message', 'property'] } } },
    });
    expect(shared(fill, '429').headers?.['Retry-After']?.schema).toMatchObject({ type: 'integer' });
    expect(shared(fill, '401').headers).toHaveProperty('WWW-Authenticate');
    // /graphql answers its errors in GraphQL's form.
    const graphql = operation('/graphql', 'post');
    expect(shared(graphql, '400').content!['application/json']!.schema).toEqual({
      $ref: '#/components/schemas/GraphQLErrors',
    });
    expect(shared(graphql, '429').headers).toHaveProperty('Retry-After');
  });

  it("has the package's version and this server's address as its server", async () => {
    const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8')) as { version: string };
    expect(doc.info.version).toBe(pkg.version);
    expect(doc.servers).toEqual([{ url: s.base }]);
    const behind = await startTestServer({ publicUrl: 'https://pdf.example.test/castpress/' });
    try {
      const other = (await (await fetch(`${behind.base}/openapi.json`)).json()) as Document;
      expect(other.servers).toEqual([{ url: 'https://pdf.example.test/castpress' }]);
    } finally {
      await behind.close();
    }
  });

  it('answers the documented 401 and 404 (body shape and headers as the shared responses say)', async () => {
    const fill = operation('/api/v1/fill/{file}', 'post');
    const res = await fetch(`${s.base}/api/v1/fill/${EID}.pdf`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    });
    expect(res.status).toBe(401);
    expect(res.headers.get('www-authenticate')).toMatch(/^Basic/);
    const validate = ajv.compile({ $ref: '#/components/schemas/Error', components: doc.components });
    expect(validate(await res.json()), JSON.stringify(validate.errors)).toBe(true);
    expect(fill.responses['401']).toBeDefined();
    const missing = await fetch(`${s.base}/download/nothere.pdf?expires=1&signature=x`);
    expect(missing.status).toBe(404);
    expect(validate(await missing.json())).toBe(true);
    expect(operation('/download/{file}', 'get').responses['404']).toBeDefined();
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
    const documented = doc.components.responses[op.responses['400']!.$ref!.split('/').pop()!]!;
    const schema = documented.content!['application/json']!.schema;
    expect(ajv.validate({ ...schema, components: doc.components }, answer)).toBe(true);
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
