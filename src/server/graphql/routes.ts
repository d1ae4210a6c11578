/**
 * `POST /graphql` (the packet operations) and the document-group downloads,
 * registered inside the server's authenticated scope (API key, concurrency
 * slot, rate-limit headers: see app.ts).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, UnsupportedMediaTypeError, ValidationError } from '../../errors/index.js';
import {
  PacketStateError,
  visibleTo,
  type OrganizationDirectory,
  type PacketScope,
  type PacketStore,
} from '../../packets/index.js';
import { isJsonContentType } from '../http/body.js';
import { toHttpError } from '../http/errors.js';
import { headerText } from '../replies/resource-warnings.js';
import type { RenderPool } from '../pool/render-pool.js';
import { DEFAULT_JSON_BODY_LIMITS, jsonBodyParser, type JsonBodyLimits } from '../http/json-body.js';
import type { MultipartLimits } from '../http/multipart.js';
import type { LazyPacketBackend } from './backend.js';
import {
  runGraphQL,
  castResolvers,
  type CastCaller,
  type CastOperations,
  type GraphQLRequestBody,
} from './resolvers/index.js';
import { packetSchema } from './contract/index.js';
import { readGraphQLMultipart } from './uploads.js';
import { attachment, documentsZip, zipEntryNames } from './downloads/index.js';
import { allowedStylesheet, cspOrigin } from '../replies/stylesheet-origin.js';
import { stylesheetOriginsFor } from '../org/index.js';
import type { WorkflowService } from '../../workflows/index.js';

/**
 * Response header of `createEtchPacket`, one per line of the created packet's `EtchPacket.warnings`
 * (ignored `signaturePageOptions` keys, active content removed from uploads): a client that
 * selects no `warnings` (the hosted API has none) still sees what castpress ignored or changed.
 */
const PACKET_WARNING_HEADER = 'X-Castpress-Warning';

/** A JSON body with a base64 PDF is a third larger than the PDF: big enough for real documents, still bounded. */
const GRAPHQL_JSON_BODY_BYTES = 48 * 1024 * 1024;

export interface PacketRoutesOptions {
  backend: LazyPacketBackend;
  multipart: MultipartLimits;
  jsonBodyBytes?: number;
  /** Origins besides the server's own that `signaturePageOptions.style.stylesheetURL` may name (see ../signing). */
  stylesheetOrigins?: readonly string[];
  /** Each organization's settings (`--org`): its own stylesheet origins replace the server's. */
  organizations?: OrganizationDirectory;
  /** The server's public address (`--public-url`). */
  publicUrl?: string;
  /** The server's own origin (../stylesheet-origin.ts `serverOrigin`): what a stylesheet's "same origin" means. */
  origin?: () => string | undefined;
  /** The packets the request's API key may see (its organization; test packets only for a development key). */
  scopeOf: (request: FastifyRequest) => PacketScope;
  /** Worker threads that parse large JSON bodies (the render pool); without it they are parsed in-process. */
  threads?: RenderPool;
  /** Above `inlineBytes`, JSON is parsed off the event loop and may hold at most `maxValues` values. */
  json?: Partial<JsonBodyLimits>;
  /** The workflows the query `weld` answers from (`--workflows`). */
  welds?: { get(): Promise<WorkflowService> };
  /** Templates over GraphQL (createCast, cast, publishCast) and who the request's API key is. */
  casts?: CastOperations & { callerOf: (request: FastifyRequest) => CastCaller };
}

/**
 * The packet of a group, refused until every signer has signed. Another organization's group
 * is unknown (checked before the status, which would tell that it exists).
 */
async function completeGroup(store: PacketStore, groupEid: string, scope: PacketScope) {
  const packet = await store.packetByGroup(groupEid);
  if (!packet || !visibleTo(packet, scope))
    throw new NotFoundError(`No document group "${groupEid}"`, 'documentGroupEid');
  if (packet.status !== 'complete') {
    throw new PacketStateError(
      `Document group "${groupEid}" is ${packet.status}: documents are served once every signer has signed`,
      'documentGroupEid',
    );
  }
  return packet;
}

/** A stylesheetURL the signing page would leave out is refused when the packet is made, not found missing later. */
function checkStylesheet(
  args: Record<string, unknown>,
  pageOrigin: string | undefined,
  allowed: readonly string[] | undefined,
): void {
  const url = (args.signaturePageOptions as { style?: { stylesheetURL?: unknown } } | undefined)?.style?.stylesheetURL;
  if (typeof url !== 'string') return; // absent, or the request's own validation reports its type
  if (!allowedStylesheet(url, pageOrigin, allowed)) {
    throw ValidationError.of(
      'signaturePageOptions.style.stylesheetURL',
      `Stylesheets load from this server's origin (${pageOrigin ?? 'unknown until it listens'}) or an origin the server allows (castpress serve --stylesheet-origin ORIGIN, or the organization's stylesheetOrigins)${allowed?.length ? `: ${allowed.join(', ')}` : ''}`,
    );
  }
}

export function packetRoutes(api: FastifyInstance, options: PacketRoutesOptions): void {
  const schema = packetSchema();
  const limit = options.jsonBodyBytes ?? GRAPHQL_JSON_BODY_BYTES;
  const stylesheetOrigins = (options.stylesheetOrigins ?? []).map((o) => cspOrigin(o, 'Stylesheet origin'));
  // Content-type parsers are scoped to this plugin: only /graphql takes the larger JSON body.
  api.removeContentTypeParser('application/json');
  const parseJsonBody = jsonBodyParser(options.threads, { ...DEFAULT_JSON_BODY_LIMITS, ...options.json });
  // Work handed to the render pool waits in the queue of the key's organization (see render-pool.ts `inLane`).
  const inLane = <T>(request: FastifyRequest, fn: () => Promise<T>): Promise<T> =>
    options.threads ? options.threads.inLane(options.scopeOf(request).organization, fn) : fn();
  api.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: limit }, (req, raw, done) => {
    const bytes = raw as Buffer;
    if (bytes.byteLength === 0) return done(null, {});
    inLane(req, () => parseJsonBody(bytes, 'body')).then(
      (value) => done(null, value),
      (e: unknown) => done(e as Error, undefined),
    );
  });

  // Errors raised before the operation runs (API key, body size, multipart) in GraphQL's form too.
  void api.register(async (gql) => {
    gql.setErrorHandler(async (error, request, reply) => {
      const http = toHttpError(error, limit);
      if (http.status >= 500) request.log.error({ err: error }, 'graphql request failed');
      const { name, message, fields } = http.body;
      await reply
        .code(http.status)
        .headers(http.headers)
        .type('application/json; charset=utf-8')
        .send({ errors: [{ message, extensions: { name, status: http.status, fields } }] });
    });
    const graphqlRoute = async (request: FastifyRequest, reply: FastifyReply) => {
      let body: GraphQLRequestBody;
      if (request.isMultipart()) body = await readGraphQLMultipart(request, options.multipart, parseJsonBody);
      else if (isJsonContentType(request.headers['content-type'])) body = (request.body ?? {}) as GraphQLRequestBody;
      else throw new UnsupportedMediaTypeError();
      const pageOrigin = options.origin?.() ?? (options.publicUrl ? new URL(options.publicUrl).origin : undefined);
      const result = await runGraphQL(
        schema,
        body,
        () => options.backend.service(),
        (err) => request.log.error({ err }, 'graphql resolver failed'),
        {
          createEtchPacket: (args) =>
            checkStylesheet(
              args,
              pageOrigin,
              stylesheetOriginsFor(options.organizations?.(options.scopeOf(request).organization), stylesheetOrigins),
            ),
          warnings: (lines) => void reply.header(PACKET_WARNING_HEADER, lines.map(headerText)),
        },
        options.scopeOf(request),
        options.welds ? () => options.welds!.get() : undefined,
        options.casts ? castResolvers(options.casts, options.casts.callerOf(request)) : undefined,
      );
      await reply.code(result.status).type('application/json; charset=utf-8').send(result.body);
    };
    gql.post('/graphql', { bodyLimit: limit }, (request, reply) => inLane(request, () => graphqlRoute(request, reply)));
  });

  api.get<{ Params: { eid: string } }>('/api/document-group/:eid', async (request, reply) => {
    const m = /^(.+)\.zip$/.exec(request.params.eid);
    if (!m)
      throw new NotFoundError(
        'No such download: use /api/document-group/{eid}.zip or /api/document-group/{eid}/{filename}',
        'path',
      );
    const groupEid = m[1]!;
    const scope = options.scopeOf(request);
    const { service, store } = await options.backend.get();
    const packet = await completeGroup(store, groupEid, scope);
    const docs = await service.groupDocuments(groupEid, scope);
    const zip = documentsZip(packet.name, groupEid, docs);
    await reply
      .code(200)
      .type('application/zip')
      .header('cache-control', 'private, no-store')
      .header('content-disposition', attachment(zip.name))
      .send(zip.stream);
  });

  api.get<{ Params: { eid: string; filename: string } }>(
    '/api/document-group/:eid/:filename',
    async (request, reply) => {
      const scope = options.scopeOf(request);
      const { service, store } = await options.backend.get();
      await completeGroup(store, request.params.eid, scope);
      const docs = await service.groupDocuments(request.params.eid, scope);
      // Found by its cleaned entry name (what download URLs carry), else by the raw name an older packet may have stored.
      const names = zipEntryNames(docs.map((d) => d.filename));
      let k = names.indexOf(request.params.filename);
      if (k < 0) k = docs.findIndex((d) => d.filename === request.params.filename);
      const doc = docs[k];
      if (!doc)
        throw new NotFoundError(
          `No document "${request.params.filename}" in group "${request.params.eid}"`,
          'filename',
        );
      await reply
        .code(200)
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', attachment(names[k]!))
        .send(Buffer.from(doc.pdf.buffer, doc.pdf.byteOffset, doc.pdf.byteLength));
    },
  );
}
