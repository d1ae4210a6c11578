/**
 * The REST routes' OpenAPI 3.1 document at `GET /openapi.json` and the GraphQL schema at
 * `GET /graphql/schema.graphql` (issue 34). @fastify/swagger collects the routes as they are
 * registered (paths, methods, path parameters); the request bodies are added here, when the
 * document is first asked for, from the zod schemas the routes validate with (src/schema's
 * `*JsonSchema`, converted by zod's own `z.toJSONSchema`), not written by hand. The schemas are
 * not set on the routes themselves: the handlers keep validating with zod (every problem at once,
 * typed errors with property paths), so fastify's own validator and serializer never see them.
 * The signing page's routes (HTML and the page's own JSON) are not part of the API: hidden.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import fastifySwagger from '@fastify/swagger';
import { printSchema } from 'graphql';
import { z } from 'zod';
import { fillRequestJsonSchema, generateRequestJsonSchema, type JsonSchema } from '../schema/index.js';
import { packetSchema } from './graphql/index.js';
import { organizationSettingsSchema } from '../packets/index.js';

export const OPENAPI_PATH = '/openapi.json';
export const GRAPHQL_SCHEMA_PATH = '/graphql/schema.graphql';

/** `{name, message, fields: [{message, property}]}`: every error body (src/errors `ErrorBody`). */
const errorBody = z.object({
  name: z.string(),
  message: z.string(),
  fields: z.array(z.object({ message: z.string(), property: z.string() })),
});
const errorJson = (): JsonSchema => z.toJSONSchema(errorBody, { target: 'draft-2020-12' }) as JsonSchema;

const json = (schema: JsonSchema, description: string) => ({
  description,
  content: { 'application/json': { schema } },
});
const errorResponse = (description: string) => json(errorJson(), description);
const pdfResponse = (description: string) => ({
  description,
  content: {
    'application/pdf': { schema: { type: 'string', contentEncoding: 'binary' } },
    'application/json': {
      schema: z.toJSONSchema(z.object({ url: z.string() }), { target: 'draft-2020-12' }) as JsonSchema,
    },
  },
});

const renderErrors = {
  400: errorResponse('The body (or a file in it) does not have the expected shape: every problem, by property path'),
  401: errorResponse('No API key, or an unknown one (HTTP Basic: the key as user name)'),
  404: errorResponse('No such template'),
  413: errorResponse('The body is larger than the server accepts'),
  415: errorResponse('Neither JSON nor multipart/form-data'),
  429: errorResponse('Too many requests at once for this key'),
};

/** What the document says of each route, keyed `METHOD url`; the bodies are built on first use. */
function descriptions(): Record<string, FastifySchema & Record<string, unknown>> {
  return {
    'POST /api/v1/fill/{file}': {
      summary: 'Fill a PDF template (`{castEid}.pdf`) with data',
      tags: ['render'],
      consumes: ['application/json', 'multipart/form-data'],
      querystring: {
        type: 'object',
        properties: { versionNumber: { type: 'integer', description: 'omitted or -2: latest published, -1: working' } },
      },
      body: fillRequestJsonSchema(),
      response: { 200: pdfResponse('The filled PDF, or `{url}` when outputFormat is "url"'), ...renderErrors },
    },
    'POST /api/v1/generate-pdf': {
      summary: 'Generate a PDF from Markdown blocks or HTML and CSS',
      tags: ['render'],
      consumes: ['application/json', 'multipart/form-data'],
      body: generateRequestJsonSchema(),
      response: { 200: pdfResponse('The PDF, or `{url}` when outputFormat is "url"'), ...renderErrors },
    },
    'GET /download/{file}': {
      summary: 'A PDF behind a signed link (`outputFormat: "url"`); the signature is the credential',
      tags: ['render'],
      querystring: {
        type: 'object',
        properties: { expires: { type: 'string' }, signature: { type: 'string' } },
        required: ['expires', 'signature'],
      },
      response: {
        200: { description: 'The PDF', content: { 'application/pdf': { schema: { type: 'string' } } } },
        404: errorResponse('Unknown, expired or wrongly signed link'),
      },
    },
    'GET /health': {
      summary: 'Liveness: the process serves',
      tags: ['operations'],
      response: {
        200: json(z.toJSONSchema(z.object({ status: z.literal('ok') })) as JsonSchema, 'Alive'),
      },
    },
    'GET /ready': {
      summary: 'Readiness: Chromium, the packet store and the queue answer',
      tags: ['operations'],
      response: {
        200: json(readiness(), 'Every check passed'),
        503: json(readiness(), 'A check failed; its message says which dependency'),
      },
    },
    'GET /metrics': {
      summary: 'Prometheus metrics (served with --metrics)',
      tags: ['operations'],
      response: {
        200: { description: 'Prometheus text exposition', content: { 'text/plain': { schema: { type: 'string' } } } },
      },
    },
    'POST /graphql': {
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
    },
    'GET /api/organization': {
      summary: "The settings of the API key's organization (served with --org; webhook.hmacSecret never returned)",
      tags: ['organization'],
      response: {
        200: json(organizationJson('output'), 'The settings as the --org file holds them'),
        404: errorResponse('The file has no settings for this organization'),
      },
    },
    'PUT /api/organization': {
      summary: "Replaces the settings of the API key's organization; written to the --org file and in force at once",
      tags: ['organization'],
      consumes: ['application/json'],
      body: organizationJson('input'),
      response: {
        200: json(organizationJson('output'), 'The settings now in force'),
        400: errorResponse('The body does not have the settings shape: every problem, by property path'),
        403: errorResponse('A development key'),
        409: errorResponse('The file on disk does not check, or one settings object serves several organizations'),
      },
    },
    'GET /api/document-group/{eid}': { summary: "A completed packet's documents as a zip", tags: ['packets'] },
    'GET /api/document-group/{eid}/{filename}': { summary: "One of a completed packet's documents", tags: ['packets'] },
    [`GET ${OPENAPI_PATH}`]: { summary: 'This document', tags: ['reference'] },
    [`GET ${GRAPHQL_SCHEMA_PATH}`]: { summary: 'The GraphQL schema (SDL)', tags: ['reference'] },
  };
}

function organizationJson(io: 'input' | 'output'): JsonSchema {
  return z.toJSONSchema(organizationSettingsSchema, { target: 'draft-2020-12', io }) as JsonSchema;
}

function readiness(): JsonSchema {
  const check = z.object({ ok: z.boolean(), message: z.string() });
  return z.toJSONSchema(
    z.object({ status: z.enum(['ready', 'unavailable']), checks: z.record(z.string(), check) }),
  ) as JsonSchema;
}

/** Registered before any route, so that it sees them all. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  let described: ReturnType<typeof descriptions> | undefined;
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'castpress',
        // The document's own version: that of the API (`/api/v1`), not the package's.
        version: '1.0.0',
        description: 'Fill PDF templates, generate PDFs from Markdown or HTML, signature packets (GraphQL).',
      },
      components: {
        securitySchemes: { apiKey: { type: 'http', scheme: 'basic', description: 'The API key as user name' } },
      },
    },
    transform: ({ schema, url, route }) => {
      described ??= descriptions();
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      // @fastify/swagger's own form of a parameter (`{file}`), as the document shows it.
      const key = `${method} ${url.replace(/:([A-Za-z0-9_]+)/g, '{$1}')}`;
      const mine = described[key];
      if (!mine) return { schema: { ...schema, hide: true }, url };
      const secured =
        key.startsWith('POST /api/') ||
        key.startsWith('POST /graphql') ||
        key.startsWith('GET /api/') ||
        key.startsWith('PUT /api/');
      return { schema: { ...schema, ...mine, ...(secured ? { security: [{ apiKey: [] }] } : {}) }, url };
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
