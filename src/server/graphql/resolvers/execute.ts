/**
 * One GraphQL request against the packet service: parse, validate, execute,
 * and the response in GraphQL's `{data}` / `{data, errors}` form. A typed
 * castpress error keeps its name, status and field paths in `extensions`; the
 * Node client treats any top-level `errors` as failure, so success bodies carry
 * only `data`.
 */
import { execute, GraphQLError, parse, validate, type ExecutionResult, type GraphQLSchema } from 'graphql';
import { isCastpressError, NotFoundError } from '../../../errors/index.js';
import type { PacketScope, PacketService } from '../../../packets/index.js';
import type { WorkflowService } from '../../../workflows/index.js';
import { adoptTypedVariables, costErrors, variableErrors } from '../contract/index.js';
import type { CastResolvers } from './casts.js';

/** A GraphQL request's body: JSON, or a multipart request's `operations` with its files put in (../uploads.ts). */
export interface GraphQLRequestBody {
  query?: unknown;
  variables?: unknown;
  operationName?: unknown;
}

export interface GraphQLResponse {
  status: number;
  body: { data?: unknown; errors?: unknown[] };
}

/** GraphQL gives `null` for a variable sent as null; the packet request's validation wants it absent. */
function defined(args: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(args).filter(([, v]) => v !== null && v !== undefined));
}

/** Server-side checks the service cannot make (they depend on the server's configuration). */
export interface GraphQLChecks {
  /** Runs on createEtchPacket's arguments before the service; throws a typed error to refuse. */
  createEtchPacket?: (args: Record<string, unknown>) => void;
  /** Given the created packet's warnings (`EtchPacket.warnings`) when there are any: the route sends them as headers. */
  warnings?: (lines: readonly string[]) => void;
}

const noWorkflows = (eid: string): Error =>
  Object.assign(new Error(`No workflow "${eid}": castpress serves no workflows (Welds)`), {
    castpress: { name: 'NotFoundError', status: 404 },
  });

function castsOf(casts: CastResolvers | undefined): CastResolvers {
  if (!casts)
    throw new NotFoundError('This server keeps no templates of its own (createCast, cast, publishCast)', 'eid');
  return casts;
}

/** Root resolvers: each operation of the spec is one service call, made in the caller's scope (its key's organization). */
function rootValue(
  service: () => Promise<PacketService>,
  checks: GraphQLChecks,
  scope: PacketScope | undefined,
  welds?: () => Promise<WorkflowService>,
  casts?: CastResolvers,
) {
  const call =
    <R>(run: (s: PacketService, args: Record<string, unknown>) => Promise<R>) =>
    async (args: Record<string, unknown>) =>
      run(await service(), defined(args));
  const withId = <T extends { eid: string }>(v: T) => ({ ...v, id: v.eid });
  return {
    createEtchPacket: call(async (s, a) => {
      checks.createEtchPacket?.(a);
      const created = await s.createEtchPacket(a, scope);
      if (created.warnings.length > 0) checks.warnings?.(created.warnings);
      return withId(created);
    }),
    sendEtchPacket: call(async (s, a) => withId(await s.sendEtchPacket(a, scope))),
    generateEtchSignURL: call((s, a) => s.generateEtchSignURL(a, scope)),
    updateEtchPacket: call(async (s, a) => {
      const { waitForDocumentGroupUpdate: _ignored, ...rest } = a;
      return withId(await s.updateEtchPacket(rest, scope));
    }),
    updateSigner: call(async (s, a) => withId(await s.updateSigner(a, scope))),
    expireSignerTokens: call((s, a) => s.expireSignerTokens(a, scope)),
    etchPacket: call(async (s, a) => withId(await s.etchPacket(a, scope))),
    // Workflows (Welds): served with `--workflows DIR` (src/workflows); without it they answer a typed 404.
    weld: async (args: Record<string, unknown>) => {
      if (welds) return (await welds()).weld(defined(args), scope);
      throw noWorkflows(String(args.eid ?? args.slug ?? ''));
    },
    forgeSubmit: async (args: Record<string, unknown>) => {
      if (welds) return (await welds()).forgeSubmit(defined(args), scope);
      throw noWorkflows(String(args.forgeEid ?? ''));
    },
    // Templates (Casts): the server's template store, in the caller's organization.
    createCast: (args: Record<string, unknown>) => castsOf(casts).createCast(defined(args)),
    cast: (args: Record<string, unknown>) => castsOf(casts).cast(defined(args)),
    publishCast: (args: Record<string, unknown>) => castsOf(casts).publishCast(defined(args)),
    // Embedded editing: a single-use link to one template's editor in the dashboard.
    generateEmbedURL: (args: Record<string, unknown>) => castsOf(casts).generateEmbedURL(defined(args)),
  };
}

function formatError(
  e: GraphQLError,
  onUnexpected: (err: unknown) => void,
): { status: number; json: Record<string, unknown> } {
  const original = e.originalError;
  const base: Record<string, unknown> = { message: e.message };
  if (e.locations) base.locations = e.locations;
  if (e.path) base.path = e.path;
  if (original && isCastpressError(original)) {
    // A SignerError's errorType (the spec's signerError kinds) goes beside the error's name.
    const errorType = 'errorType' in original ? original.errorType : undefined;
    return {
      status: original.status,
      json: {
        ...base,
        extensions: {
          name: original.name,
          status: original.status,
          fields: original.fields,
          ...(errorType ? { errorType } : {}),
        },
      },
    };
  }
  const tagged = (original as { castpress?: { name: string; status: number } } | undefined)?.castpress;
  if (tagged)
    return {
      status: tagged.status,
      json: { ...base, extensions: { ...tagged, fields: [{ property: 'eid', message: e.message }] } },
    };
  if (original) {
    onUnexpected(original);
    return {
      status: 500,
      json: { ...base, message: 'Internal error', extensions: { name: 'InternalError', status: 500 } },
    };
  }
  // Syntax and validation errors of the query itself; a variable's value names its own property (../schema/variables.ts).
  const fields = e.extensions.fields ?? [{ property: 'query', message: e.message }];
  return {
    status: 400,
    json: { ...base, extensions: { name: 'GraphQLValidationError', status: 400, fields } },
  };
}

export async function runGraphQL(
  schema: GraphQLSchema,
  body: GraphQLRequestBody,
  service: () => Promise<PacketService>,
  onUnexpected: (err: unknown) => void,
  checks: GraphQLChecks = {},
  /** The caller's scope (its API key); undefined sees every packet (library use, no server). */
  scope?: PacketScope,
  /** The workflows the query `weld` answers from (`--workflows`); without them it is a 404. */
  welds?: () => Promise<WorkflowService>,
  /** `createCast`, `cast`, `publishCast` for the caller (the server's template store). */
  casts?: CastResolvers,
): Promise<GraphQLResponse> {
  const bad = (message: string): GraphQLResponse => ({
    status: 400,
    body: { errors: [{ message, extensions: { name: 'GraphQLValidationError', status: 400 } }] },
  });
  if (body === null || typeof body !== 'object') return bad('The body must be a GraphQL request object');
  if (typeof body.query !== 'string' || body.query.trim() === '')
    return bad('Missing "query": the GraphQL document to run');
  if (
    body.variables !== undefined &&
    body.variables !== null &&
    (typeof body.variables !== 'object' || Array.isArray(body.variables))
  ) {
    return bad('"variables" must be an object');
  }
  if (body.operationName !== undefined && body.operationName !== null && typeof body.operationName !== 'string')
    return bad('"operationName" must be a string');
  let parsed;
  try {
    parsed = parse(body.query, { maxTokens: 10_000 });
  } catch (e) {
    return { status: 400, body: { errors: [formatError(e as GraphQLError, onUnexpected).json] } };
  }
  const refuse = (errors: readonly GraphQLError[]): GraphQLResponse => ({
    status: 400,
    body: { errors: errors.map((e) => formatError(e, onUnexpected).json) },
  });
  // graphql's own rules only after the cost rules pass: some are quadratic in repeated fields
  // (1,100 copies of one field, within the token limit, took ~0.9 s of OverlappingFieldsCanBeMerged).
  const tooCostly = costErrors(schema, parsed);
  if (tooCostly.length > 0) return refuse(tooCostly);
  const document = adoptTypedVariables(schema, parsed);
  const invalid = validate(schema, document);
  if (invalid.length > 0) return refuse(invalid);
  const variableValues = (body.variables as Record<string, unknown> | null | undefined) ?? undefined;
  const operationName = (body.operationName as string | null | undefined) ?? undefined;
  const badValues = variableErrors(schema, document, operationName, variableValues ?? {});
  if (badValues.length > 0) return refuse(badValues);
  const result: ExecutionResult = await execute({
    schema,
    document,
    rootValue: rootValue(service, checks, scope, welds, casts),
    variableValues,
    operationName,
  });
  if (!result.errors?.length) return { status: 200, body: { data: result.data ?? null } };
  const errors = result.errors.map((e) => formatError(e, onUnexpected));
  // Nothing answered: the status of the (first) error, as the REST routes would give; a partial answer stays 200.
  const answered = result.data && Object.values(result.data).some((v) => v !== null);
  return {
    status: answered ? 200 : errors[0]!.status,
    body: { data: result.data ?? null, errors: errors.map((e) => e.json) },
  };
}
