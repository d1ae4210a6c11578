/**
 * The REST routes' OpenAPI 3.1 document at `GET /openapi.json` and the GraphQL schema at
 * `GET /graphql/schema.graphql`. @fastify/swagger collects the routes as they are
 * registered (paths, methods, path parameters); the request bodies are added here, when the
 * document is first asked for, from the zod schemas the routes validate with (src/schema's
 * `*JsonSchema`, converted by zod's own `z.toJSONSchema`), not written by hand. The schemas are
 * not set on the routes themselves: the handlers keep validating with zod (every problem at once,
 * typed errors with property paths), so fastify's own validator and serializer never see them.
 * The signing page's routes (HTML and the page's own JSON) are not part of the API: hidden.
 *
 * Every operation has a stable `operationId`, its `security` (the API key as HTTP Basic user name,
 * as the hosted API asks; `[]` for what needs none) and the 4xx answers it gives, each a shared
 * response of `components.responses` (`/graphql` answers in GraphQL's `{errors}` form). The
 * document's `servers` entry is the `--public-url`, else the address the server listens on (`/`,
 * where the document was read, when it listens on every address); `info.version` is the package's.
 */
import { readFile } from 'node:fs/promises';
import type { AddressInfo } from 'node:net';
import type { FastifyInstance, FastifySchema } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { printSchema } from 'graphql';
import { z } from 'zod';
import { fillRequestJsonSchema, generateRequestJsonSchema, type JsonSchema } from '../../schema/index.js';
import { packetSchema } from '../graphql/index.js';
import { organizationSettingsSchema } from '../../packets/index.js';
import { packageVersion } from '../../engine/index.js';
import { graphqlErrors, withErrorResponses, type OperationErrors } from './errors.js';

const OPENAPI_PATH = '/openapi.json';
const GRAPHQL_SCHEMA_PATH = '/graphql/schema.graphql';

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const pdfResponse = (description: string) => ({
  description,
  content: {
    'application/pdf': { schema: { type: 'string', contentEncoding: 'binary' } },
    'application/json': {
      schema: z.toJSONSchema(z.object({ url: z.string() }), { target: 'draft-2020-12' }) as JsonSchema,
    },
  },
});

/** One operation's part of the document besides what @fastify/swagger finds on the route. */
interface Described extends FastifySchema, OperationErrors {
  operationId: string;
  summary: string;
  tags: string[];
  /** Whether it asks for the API key, the metrics token, or nothing. */
  auth: 'apiKey' | 'metricsToken' | 'none';
  [key: string]: unknown;
}

/** The 4xx of the REST routes behind the API key (auth.ts, concurrency.ts, body.ts, json-body.ts). */
const keyed = { 401: 'No API key, or an unknown one', 429: 'A development key over its concurrency' } as const;
const bodied = {
  ...keyed,
  400: 'The body (or a file in it) does not have the expected shape, or is not valid JSON or multipart: every problem, by property path',
  413: 'The body is larger than the server accepts',
  415: 'Neither JSON nor multipart/form-data',
} as const;

/** What the document says of each route, keyed `METHOD url`; the bodies are built on first use. */
function descriptions(options: OpenApiOptions): Record<string, Described> {
  return {
    'POST /api/v1/fill/{file}': {
      operationId: 'fillPdf',
      auth: 'apiKey',
      errors: {
        ...bodied,
        400: `${bodied[400]}; or versionNumber is not an integer`,
        404: 'No such template, or no such version of it',
        422: 'The template PDF cannot be read',
      },
      summary: 'Fill a PDF template (`{castEid}.pdf`) with data',
      tags: ['render'],
      consumes: ['application/json', 'multipart/form-data'],
      querystring: {
        type: 'object',
        properties: { versionNumber: { type: 'integer', description: 'omitted or -2: latest published, -1: working' } },
      },
      body: fillRequestJsonSchema(),
      response: { 200: pdfResponse('The filled PDF, or `{url}` when outputFormat is "url"') },
    },
    'POST /api/v1/generate-pdf': {
      operationId: 'generatePdf',
      auth: 'apiKey',
      errors: bodied,
      summary: 'Generate a PDF from Markdown blocks or HTML and CSS',
      tags: ['render'],
      consumes: ['application/json', 'multipart/form-data'],
      body: generateRequestJsonSchema(),
      response: { 200: pdfResponse('The PDF, or `{url}` when outputFormat is "url"') },
    },
    'GET /download/{file}': {
      operationId: 'downloadPdf',
      auth: 'none',
      errors: {
        404: 'Unknown or wrongly signed link, or one the store no longer holds',
        410: 'A genuine link past its lifetime',
      },
      summary: 'A PDF behind a signed link (`outputFormat: "url"`); the signature is the credential',
      tags: ['render'],
      querystring: {
        type: 'object',
        properties: { expires: { type: 'string' }, signature: { type: 'string' } },
        required: ['expires', 'signature'],
      },
      response: {
        200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string' } } } },
      },
    },
    'GET /health': {
      operationId: 'getHealth',
      auth: 'none',
      summary: 'Liveness: the process serves',
      tags: ['operations'],
      response: {
        200: json(z.toJSONSchema(z.object({ status: z.literal('ok') })) as JsonSchema, 'Alive'),
      },
    },
    'GET /ready': {
      operationId: 'getReadiness',
      auth: 'none',
      summary: 'Readiness: Chromium, the packet store and the queue answer',
      tags: ['operations'],
      response: {
        200: json(readiness(), 'Every check passed'),
        503: json(readiness(), 'A check failed; its message says which dependency'),
      },
    },
    'GET /metrics': {
      operationId: 'getMetrics',
      ...(options.metricsToken
        ? { auth: 'metricsToken', errors: { 401: 'No metrics token, or a wrong one' } }
        : { auth: 'none' }),
      summary: "Prometheus metrics (served with --metrics): the server's own and the process's runtime metrics",
      tags: ['operations'],
      response: {
        200: { description: 'Prometheus text exposition', content: { 'text/plain': { schema: { type: 'string' } } } },
      },
    },
    'POST /graphql': {
      operationId: 'graphql',
      auth: 'apiKey',
      errorForm: 'graphql',
      errors: {
        ...bodied,
        400: 'The query does not parse or validate, is over the cost limits, or its variables do not have the expected shape',
        404: 'No such packet, signer or document group (of this organization); the answer of an operation that answered nothing',
        409: 'The packet is not in a state that allows the operation',
        422: 'A PDF in the packet (an upload or a template) cannot be read',
        413: 'The body, an upload or the packet is larger than the server accepts',
      },
      summary: `Signature packets (GraphQL; the schema is at ${GRAPHQL_SCHEMA_PATH})`,
      tags: ['packets'],
      consumes: ['application/json', 'multipart/form-data'],
      body: z.toJSONSchema(
        z.object({
          query: z.string(),
          variables: z.record(z.string(), z.unknown()).optional(),
          operationName: z.string().optional(),
        }),
      ) as JsonSchema,
      response: {
        200: json(
          z.toJSONSchema(z.object({ data: z.unknown(), errors: graphqlErrors.shape.errors.optional() })) as JsonSchema,
          'The data; with `errors` beside it when some fields failed',
        ),
      },
    },
    'GET /api/organization': {
      operationId: 'getOrganizationSettings',
      auth: 'apiKey',
      errors: { ...keyed, 404: 'The file has no settings for this organization' },
      summary: "The settings of the API key's organization (served with --org; webhook.hmacSecret never returned)",
      tags: ['organization'],
      response: {
        200: json(organizationJson('output'), 'The settings as the --org file holds them'),
      },
    },
    'PUT /api/organization': {
      operationId: 'replaceOrganizationSettings',
      auth: 'apiKey',
      errors: {
        ...bodied,
        400: 'The body does not have the settings shape: every problem, by property path',
        403: 'A development key',
        409: 'The file on disk does not check, or one settings object serves several organizations',
        415: 'Not JSON',
      },
      summary: "Replaces the settings of the API key's organization; written to the --org file and in force at once",
      tags: ['organization'],
      consumes: ['application/json'],
      body: organizationJson('input'),
      response: {
        200: json(organizationJson('output'), 'The settings now in force'),
      },
    },
    'GET /api/document-group/{eid}': {
      operationId: 'downloadDocumentGroupZip',
      auth: 'apiKey',
      errors: { ...keyed, ...groupErrors },
      summary: "A completed packet's documents as a zip (`{eid}` is `{documentGroupEid}.zip`)",
      tags: ['packets'],
      response: {
        200: { description: 'The zip', content: { 'application/zip': { schema: { type: 'string' } } } },
      },
    },
    'GET /api/document-group/{eid}/{filename}': {
      operationId: 'downloadDocumentGroupFile',
      auth: 'apiKey',
      errors: { ...keyed, ...groupErrors, 404: `${groupErrors[404]}, or no such document in it` },
      summary: "One of a completed packet's documents",
      tags: ['packets'],
      response: {
        200: { description: 'The document', content: { 'application/pdf': { schema: { type: 'string' } } } },
      },
    },
    [`GET ${OPENAPI_PATH}`]: {
      operationId: 'getOpenApiDocument',
      auth: 'none',
      summary: 'This document',
      tags: ['reference'],
      response: { 200: { description: 'The OpenAPI document', content: { 'application/json': { schema: {} } } } },
    },
    [`GET ${GRAPHQL_SCHEMA_PATH}`]: {
      operationId: 'getGraphqlSchema',
      auth: 'none',
      summary: 'The GraphQL schema (SDL)',
      tags: ['reference'],
      response: { 200: { description: 'The schema', content: { 'text/plain': { schema: { type: 'string' } } } } },
    },
  };
}

const groupErrors = {
  404: 'No such document group (or one of another organization)',
  409: 'The packet is not complete yet',
} as const;

function organizationJson(io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(organizationSettingsSchema, { target: 'draft-2020-12', io }) as JsonSchema;
}

function readiness(): JsonSchema {
  const check = z.object({ ok: z.boolean(), message: z.string() });
  return z.toJSONSchema(
    z.object({ status: z.enum(['ready', 'unavailable']), checks: z.record(z.string(), check) }),
  ) as JsonSchema;
}

export interface OpenApiOptions {
  /** The server's public base URL (`--public-url`): the document's server. */
  publicUrl?: string;
  /** Whether `/metrics` asks for a bearer token. */
  metricsToken?: boolean;
}

const TAGS = [
  { name: 'render', description: "Fill templates and generate PDFs (the hosted API's REST operations)" },
  { name: 'packets', description: 'Signature packets: the GraphQL operations and the completed documents' },
  { name: 'organization', description: "The API key's organization settings (`--org`)" },
  { name: 'operations', description: 'Liveness, readiness and metrics for load balancers and scrapers' },
  { name: 'reference', description: 'This document and the GraphQL schema' },
];

/**
 * The public URL, else the address listened on; relative (`/`: the origin the document came from)
 * before listening or when listening on every address, which names no host a client could use.
 */
function serverUrl(publicUrl: string | undefined, listening: AddressInfo | string | null): string {
  if (publicUrl) return publicUrl.replace(/\/+$/, '');
  if (!listening || typeof listening === 'string' || ['0.0.0.0', '::'].includes(listening.address)) return '/';
  const host = listening.family === 'IPv6' ? `[${listening.address}]` : listening.address;
  return `http://${host}:${listening.port}`;
}

/** Registered before any route, so that it sees them all. */
export async function registerOpenApi(app: FastifyInstance, options: OpenApiOptions = {}): Promise<void> {
  // Built when the document is first asked for: a server nobody asks converts no schema.
  let described: ReturnType<typeof descriptions> | undefined;
  const describe = () => (described ??= descriptions(options));
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'castpress',
        version: await packageVersion(),
        description: 'Fill PDF templates, generate PDFs from Markdown or HTML, signature packets (GraphQL).',
        license: { name: 'MIT', identifier: 'MIT' },
      },
      tags: TAGS,
      components: {
        securitySchemes: {
          apiKey: { type: 'http', scheme: 'basic', description: 'The API key as user name, an empty password' },
          ...(options.metricsToken
            ? {
                metricsToken: {
                  type: 'http',
                  scheme: 'bearer',
                  description: 'The metrics token (--metrics-token-file)',
                },
              }
            : {}),
        },
      },
    },
    transform: ({ schema, url, route }) => {
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      // @fastify/swagger's own form of a parameter (`{file}`), as the document shows it.
      const key = `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
      const mine = describe()[key];
      if (!mine) return { schema: { ...schema, hide: true }, url };
      const { auth, errors: _errors, errorForm: _form, ...rest } = mine;
      const security = auth === 'none' ? [] : [{ [auth]: [] }];
      return { schema: { ...schema, ...rest, security }, url };
    },
    transformObject: (document) => {
      if (!('openapiObject' in document)) return document.swaggerObject;
      const byOperation = new Map(Object.values(describe()).map((d) => [d.operationId, d]));
      const doc = withErrorResponses(document.openapiObject, (id) => byOperation.get(id));
      return { ...doc, servers: [{ url: serverUrl(options.publicUrl, app.server.address()) }] };
    },
  });
}

/** `GET /openapi.json`, and `GET /graphql/schema.graphql` when the server has packets; neither asks for a key. */
export function referenceRoutes(app: FastifyInstance, options: { graphql: boolean }): void {
  app.get(OPENAPI_PATH, async (_request, reply) => {
    await reply.type('application/json; charset=utf-8').send(app.swagger());
  });
  if (options.graphql) {
    let sdl: string | undefined;
    app.get(GRAPHQL_SCHEMA_PATH, async (_request, reply) => {
      sdl ??= printSchema(packetSchema());
      await reply.type('text/plain; charset=utf-8').send(sdl);
    });
  }
}
