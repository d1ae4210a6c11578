/**
 * The 4xx answers of each operation (`errorsOf` its operationId) as references to shared responses
 * (@fastify/swagger writes every response out in full), with the components they name.
 */

import type { SwaggerTransformObject } from '@fastify/swagger';
import { z } from 'zod';

/** `{name, message, fields: [{message, property}]}`: every error body (src/errors `ErrorBody`). */
const errorBody = z.object({
  name: z.string(),
  message: z.string(),
  fields: z.array(z.object({ message: z.string(), property: z.string() })),
});

/** `{errors: [{message, extensions: {name, status, fields}}]}`: how `/graphql` answers an error (graphql/execute.ts). */
export const graphqlErrors = z.object({
  errors: z.array(
    z.object({
      message: z.string(),
      extensions: z.object({ name: z.string(), status: z.number().int(), fields: errorBody.shape.fields.optional() }),
    }),
  ),
});

export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 410 | 413 | 415 | 422 | 429;

/** The shared 4xx answers: name in `components.responses`, what they mean, the headers they carry. */
const ERROR_RESPONSES: Record<ErrorStatus, { name: string; description: string; headers?: Record<string, unknown> }> = {
  400: {
    name: 'BadRequest',
    description: 'The request does not have the expected shape: every problem, by property path',
  },
  401: {
    name: 'Unauthorized',
    description: 'No credentials, or unknown ones',
    headers: {
      'WWW-Authenticate': { description: 'The scheme to authenticate with', schema: { type: 'string' } },
    },
  },
  403: { name: 'Forbidden', description: 'The credentials are known but may not do this' },
  404: { name: 'NotFound', description: 'No such resource (or one of another organization)' },
  409: { name: 'Conflict', description: 'The resource is not in a state that allows this' },
  410: { name: 'Gone', description: 'The link has expired' },
  413: { name: 'PayloadTooLarge', description: 'The body (or a part or file of it) is larger than the server accepts' },
  415: { name: 'UnsupportedMediaType', description: 'The Content-Type is not one the operation takes' },
  422: { name: 'UnprocessableContent', description: 'A PDF the request names or carries cannot be read' },
  429: {
    name: 'TooManyRequests',
    description: 'A development key has as many requests in flight as it may',
    headers: {
      'Retry-After': { description: 'Seconds to wait before trying again', schema: { type: 'integer', minimum: 0 } },
    },
  },
};

/** Where an operation's 4xx answers come from: the REST error body, or GraphQL's `{errors}`. */
export type ErrorForm = 'rest' | 'graphql';
const componentName = (status: ErrorStatus, form: ErrorForm) =>
  `${form === 'graphql' ? 'GraphQL' : ''}${ERROR_RESPONSES[status].name}`;

/** The OpenAPI document as @fastify/swagger hands it to `transformObject`. */
export type OpenApiObject = Extract<Parameters<SwaggerTransformObject>[0], { openapiObject: unknown }>['openapiObject'];
type SchemaObject = NonNullable<NonNullable<OpenApiObject['components']>['schemas']>[string];
const schemaObject = (schema: z.ZodType): SchemaObject =>
  z.toJSONSchema(schema, { target: 'draft-2020-12' }) as SchemaObject;

/** The shared 4xx answers the operations name, each one once (a component nobody names is not emitted). */
function errorComponents(used: ReadonlyMap<string, [ErrorStatus, ErrorForm]>) {
  const responses: Record<string, unknown> = {};
  for (const [name, [status, form]] of [...used].sort(([a], [b]) => a.localeCompare(b))) {
    const { description, headers } = ERROR_RESPONSES[status];
    const schema = { $ref: `#/components/schemas/${form === 'graphql' ? 'GraphQLErrors' : 'Error'}` };
    responses[name] = { description, ...(headers ? { headers } : {}), content: { 'application/json': { schema } } };
  }
  return responses;
}

/** What an operation answers besides success: each 4xx with what it means there, and the form of its body. */
export interface OperationErrors {
  errors?: Partial<Record<ErrorStatus, string>>;
  errorForm?: ErrorForm;
}

export function withErrorResponses(
  doc: OpenApiObject,
  errorsOf: (operationId: string) => OperationErrors | undefined,
): OpenApiObject {
  const used = new Map<string, [ErrorStatus, ErrorForm]>();
  for (const item of Object.values(doc.paths ?? {}))
    for (const op of Object.values(item ?? {})) {
      if (typeof op !== 'object' || op === null || !('responses' in op)) continue;
      const mine = typeof op.operationId === 'string' ? errorsOf(op.operationId) : undefined;
      const form = mine?.errorForm ?? 'rest';
      for (const [code, description] of Object.entries(mine?.errors ?? {})) {
        const status = Number(code) as ErrorStatus;
        const name = componentName(status, form);
        used.set(name, [status, form]);
        op.responses = { ...op.responses, [code]: { $ref: `#/components/responses/${name}`, description } };
      }
    }
  const forms = new Set([...used.values()].map(([, form]) => form));
  return {
    ...doc,
    components: {
      ...doc.components,
      schemas: {
        ...doc.components?.schemas,
        ...(forms.has('rest') ? { Error: schemaObject(errorBody) } : {}),
        ...(forms.has('graphql') ? { GraphQLErrors: schemaObject(graphqlErrors) } : {}),
      },
      responses: errorComponents(used),
    },
  } as OpenApiObject;
}
