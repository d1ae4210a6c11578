import type { Socket } from 'node:net';
import { randomBytes } from 'node:crypto';
import type { ServerOptions } from './options.js';

export type { ServerOptions } from './options.js';
import fastify, {
  LogController,
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type FastifyServerOptions,
} from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import { AuthorizationError, NotFoundError, RenderError, UnsupportedMediaTypeError } from '../errors/index.js';
import { logRequests, requestLogSerializers } from './http/request-log.js';
import { authenticate } from './http/auth.js';
import { isJsonContentType, isMultipartContentType } from './http/body.js';
import { ConcurrencyLimiter } from './http/concurrency.js';
import { baseUrl, jsonParserFor, RequestSlot, type ServerContext } from './context.js';
import { toHttpError } from './http/errors.js';
import { lingerAfterAnswer } from './http/linger.js';
import { DEFAULT_RATE_LIMIT, KeyRing, packetScopeOf, type KeyEntry } from './keys.js';
import { DEFAULT_MULTIPART_LIMITS, type MultipartLimits } from './http/multipart.js';
import { downloadRoute, signerDownloadRoutes } from './routes/download.js';
import { fillRoute } from './routes/fill.js';
import { generateRoute } from './routes/generate-pdf.js';
import { UrlStore } from './replies/url-store.js';
import { packetRoutes } from './graphql/index.js';
import { dashboardKeys, poolPreparation, registerDashboard, templateSources } from './templates.js';
import { dashboardSessions, detectAll, EmbedLinks, TemplateAuthoring } from '../dashboard/index.js';
import { DEFAULT_JSON_BODY_LIMITS, jsonBodyParser } from './http/json-body.js';
import { signingRoutes } from './signing-page/index.js';
import { ServerMetrics } from './metrics.js';
import { DEFAULT_ORGANIZATION } from '../packets/index.js';
import { organizationRoutes, organizationSettingsAccess } from './org/index.js';
import { chromiumCheck, packetStoreCheck } from './ready-checks.js';
import { operationsRoutes } from './routes/health.js';
import { referenceRoutes, registerOpenApi } from './openapi/openapi.js';
import { signingCaRoutes } from './routes/signing-ca.js';
import { serverOrigin } from './replies/stylesheet-origin.js';
import { weldRoutes } from './workflow-forms/index.js';
import { DEFAULT_FORM_RATE_LIMITS, registerFormRateLimits } from './http/form-limits.js';
import { organizationOf } from '../workflows/index.js';

/** Request logs carry method, path and status; the query and secret path segments (tokens), headers (keys) and body (data) stay out. */
function loggerOptions(
  logger: ServerOptions['logger'],
  stream?: NodeJS.WritableStream,
): FastifyServerOptions['logger'] {
  if (!logger) return false;
  return {
    level: logger === true ? 'info' : logger,
    ...(stream ? { stream } : {}),
    serializers: requestLogSerializers,
  };
}

/** The key a request authenticated with; a request that reached a route without one is refused (never the widest scope). */
function keyOf(ctx: ServerContext, request: FastifyRequest): KeyEntry {
  const key = ctx.keys.get(request);
  if (!key) throw new AuthorizationError('Not logged in.');
  return key;
}

/**
 * Builds the REST server (not listening): the hosted API's fill and
 * generate-pdf operations over a castpress engine, plus the downloads behind
 * signed links.
 */
export async function buildApp(options: ServerOptions): Promise<FastifyInstance> {
  const { engine, config } = options;
  // Looked up at use time (a reload of the store shows on the next request).
  const organizations = options.organizations ?? options.organizationSettings?.directory;
  const jsonBodyBytes = engine.limits.jsonBodyBytes;
  const multipart: MultipartLimits = { ...DEFAULT_MULTIPART_LIMITS, ...options.multipart };
  const now = options.now ?? Date.now;
  const rateLimit = config?.rateLimit ?? DEFAULT_RATE_LIMIT;
  const keyRing = config ? new KeyRing(config.keys) : undefined;
  const limiter = new ConcurrencyLimiter();
  const ctx: ServerContext = {
    engine,
    multipart,
    keys: new WeakMap<FastifyRequest, KeyEntry>(),
    publicUrl: options.publicUrl,
    urlStore: new UrlStore({ secret: config?.signingSecret ?? randomBytes(32), now, ...options.urlStore }),
    renderPool: options.renderPool,
    strictResources: options.strictResources ?? false,
    requests: new WeakMap(),
    parseJson: jsonBodyParser(options.renderPool, { ...DEFAULT_JSON_BODY_LIMITS, ...options.jsonBodies }),
  };
  // The organizations' own templates: fills and packets find them by EID, the dashboard and createCast make them.
  const sources = templateSources(options.database, options.packets);
  ctx.templates = sources.catalogue;
  const authoring = new TemplateAuthoring({
    catalogue: sources.catalogue,
    ...(options.renderPool ? { prepare: poolPreparation(options.renderPool) } : {}),
    detect: (options.dashboard && options.dashboard.detect) || detectAll,
    ...(options.docx ? { docx: options.docx } : {}),
    maxPages: engine.limits.packetPagesPerFile,
  });
  // Dashboard sessions: the dashboard's, and the embed links GraphQL's generateEmbedURL makes for it.
  const dashboardKeyRing = dashboardKeys(keyRing);
  const sessions =
    options.dashboard !== false
      ? dashboardSessions({
          ...(sources.sessions ? { records: sources.sessions } : {}),
          keys: dashboardKeyRing,
          now,
          ...(options.dashboard?.sessionTtlMs !== undefined ? { ttlMs: options.dashboard.sessionTtlMs } : {}),
        })
      : undefined;
  const embedLinks = sessions && new EmbedLinks(sessions, sources.catalogue);
  const metrics = options.metrics
    ? await ServerMetrics.create(
        { renderPool: options.renderPool, packets: options.packets },
        options.metrics === true ? {} : options.metrics,
      )
    : undefined;
  ctx.metrics = metrics;

  const app = fastify({
    logger: loggerOptions(options.logger, options.logStream),
    // Logged by logRequests below, at a level that follows the status.
    logController: new LogController({ disableRequestLogging: true }),
    ...(options.trustProxy?.length ? { trustProxy: [...options.trustProxy] } : {}),
    bodyLimit: jsonBodyBytes,
    // Fastify's default (0) would switch off Node's own limit: a client that never finishes its body must not hold a slot forever.
    requestTimeout: options.requestTimeoutMs ?? 120_000,
    // Requests that arrive while closing get our typed 503 (hook below), not fastify's own body.
    return503OnClosing: false,
    // A document's name (a path parameter of its download URL) is up to 255 bytes of UTF-8, 765 characters percent-encoded.
    routerOptions: { maxParamLength: 800 },
    // The router's own refusals (414 for an over-long path segment, 400 for a bad escape) get the typed body too.
    frameworkErrors: (error, _request, frameworkReply: FastifyReply) => {
      const http = toHttpError(error, jsonBodyBytes);
      void frameworkReply
        .code(http.status)
        .headers(http.headers)
        .type('application/json; charset=utf-8')
        .send(http.body);
    },
  });

  // Only JSON and multipart are accepted; anything else is a 415 before the body is read.
  app.removeAllContentTypeParsers();
  // A body over 1 MiB (when `jsonBodyBytes` allows one) is parsed on a pool thread (json-body.ts).
  app.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: jsonBodyBytes }, (req, raw, done) => {
    const bytes = raw as Buffer;
    if (bytes.byteLength === 0) return done(null, {});
    jsonParserFor(ctx, req)(bytes, 'body').then(
      (value) => done(null, value),
      (e: unknown) => done(e as Error, undefined),
    );
  });
  await app.register(fastifyMultipart);
  // Before any route: it collects them as they are registered (GET /openapi.json).
  await registerOpenApi(app, {
    publicUrl: options.publicUrl,
    metricsToken: typeof options.metrics === 'object' && Boolean(options.metrics.token),
  });

  logRequests(app);

  // Fastify runs onClose hooks last-added first: the database closes after everything added below (the packets).
  const database = options.database;
  if (database) app.addHook('onClose', async () => database.close());

  // Shutting down: answers still in flight end their connection, so a keep-alive client cannot hold close() open.
  let closing = false;
  // Connections that have not sent a byte yet (a browser's speculative preconnect) are not idle to Node:
  // server.close() would wait for them until the headers timeout. Closing, they are ended at once; a
  // request in flight still finishes.
  const sockets = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.once('close', () => sockets.delete(socket));
  });
  app.addHook('preClose', async () => {
    closing = true;
    for (const socket of sockets) if (socket.bytesRead === 0) socket.destroy();
  });
  app.addHook('onRequest', async () => {
    if (closing) throw new RenderError('The server is shutting down', 503);
  });

  // Without these the Node client throttles itself to one request per second.
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('x-ratelimit-limit', String(rateLimit.limit));
    reply.header('x-ratelimit-interval-ms', String(rateLimit.intervalMs));
    // Closing, or a body refused before it was read to the end: the connection is not reused.
    if (closing || reply.statusCode === 413) reply.header('connection', 'close');
    // ...and the rest of that body is read for a moment, so the client reads the 413 rather than a reset.
    if (reply.statusCode === 413) lingerAfterAnswer(request.raw);
    return payload;
  });

  if (metrics) {
    // Labelled with the matched route's pattern (undefined when none matched), never the raw URL.
    app.addHook('onResponse', async (request, reply) => {
      metrics.observeRequest(request.method, request.routeOptions.url, reply.statusCode, reply.elapsedTime / 1000);
    });
    app.addHook('onClose', async () => metrics.close());
  }

  app.setErrorHandler(async (error, request, reply) => {
    const http = toHttpError(error, jsonBodyBytes, request.method);
    if (http.status >= 500) request.log.error({ err: error }, 'request failed');
    await reply.code(http.status).headers(http.headers).type('application/json; charset=utf-8').send(http.body);
  });

  app.setNotFoundHandler(async (request, reply) => {
    const e = new NotFoundError(`No route ${request.method} ${request.url.split('?')[0]}`, 'path');
    await reply.code(404).type('application/json; charset=utf-8').send(e.toJSON());
  });

  // API key, concurrency slot, media type: the same for REST, GraphQL and the packet downloads.
  const apiAuth = async (request: FastifyRequest, reply: FastifyReply) => {
    const key = authenticate(request.headers.authorization, keyRing);
    ctx.keys.set(request, key);
    const slot = new RequestSlot(limiter.acquire(key));
    ctx.requests.set(request, slot);
    // 'close' fires once, whether the response finished or the client went away; a render
    // still running keeps the slot until it ends (and is cancelled when nobody waits for it).
    reply.raw.once('close', () => slot.closed(reply.raw.writableFinished));
    // A 415 before the body is read: nobody would parse it.
    const type = request.headers['content-type'];
    if (type !== undefined && !isJsonContentType(type) && !isMultipartContentType(type))
      throw new UnsupportedMediaTypeError();
  };
  await app.register(
    async (api) => {
      api.addHook('onRequest', apiAuth);
      fillRoute(api, ctx);
      generateRoute(api, ctx);
    },
    { prefix: '/api/v1' },
  );
  downloadRoute(app, ctx);
  const settings = options.organizationSettings;
  const keyOrganizations = () =>
    config ? [...new Set(config.keys.map((k) => k.organization ?? DEFAULT_ORGANIZATION))] : [DEFAULT_ORGANIZATION];
  if (settings)
    await app.register(async (api) => {
      api.addHook('onRequest', apiAuth);
      organizationRoutes(api, { settings, keyOf: (request) => keyOf(ctx, request), organizations: keyOrganizations });
    });
  if (options.signingCa)
    await signingCaRoutes(app, {
      ...options.signingCa,
      authenticate: (request) => {
        const key = authenticate(request.headers.authorization, keyRing);
        ctx.keys.set(request, key);
        return key;
      },
      tsaAllows: (key) => {
        const allowed = organizations?.(key.organization)?.timestampAuthority;
        return key.kind === 'development' ? (allowed?.developmentKeys ?? false) : (allowed?.productionKeys ?? true);
      },
      now,
      // The packet backend makes the local CA (naming this server's CRL URL) on first use; the TSA needs it.
      ready: async () => void (await options.packets?.get()),
    });
  const packets = options.packets;
  const origin = () => serverOrigin(options.publicUrl, app.server.address());
  referenceRoutes(app, { graphql: packets !== undefined });
  operationsRoutes(app, {
    checks: [
      chromiumCheck(options.chromiumExecutable),
      ...(packets ? [packetStoreCheck(packets)] : []),
      ...(options.readyChecks ?? []),
    ],
    checkTimeoutMs: options.readyCheckTimeoutMs,
    metrics,
  });
  if (packets) {
    await app.register(async (api) => {
      api.addHook('onRequest', apiAuth);
      packetRoutes(api, {
        backend: packets,
        multipart,
        stylesheetOrigins: options.signingStylesheetOrigins,
        ...(organizations ? { organizations } : {}),
        publicUrl: options.publicUrl,
        origin,
        scopeOf: (request) => packetScopeOf(keyOf(ctx, request)),
        ...(options.renderPool ? { threads: options.renderPool } : {}),
        ...(options.jsonBodies ? { json: options.jsonBodies } : {}),
        ...(options.welds ? { welds: options.welds } : {}),
        casts: {
          catalogue: sources.catalogue,
          authoring,
          now,
          ...(embedLinks ? { embedLinks } : {}),
          callerOf: (request) => {
            const key = keyOf(ctx, request);
            return { organization: key.organization, label: key.label, key, base: baseUrl(ctx, request) };
          },
        },
      });
    });
    signingRoutes(app, {
      backend: packets,
      frameAncestors: options.signingFrameAncestors,
      stylesheetOrigins: options.signingStylesheetOrigins,
      ...(organizations ? { organizations } : {}),
      publicUrl: options.publicUrl,
      origin,
    });
    signerDownloadRoutes(app, packets);
    const welds = options.welds;
    if (welds) {
      await registerFormRateLimits(app, {
        limits: { ...DEFAULT_FORM_RATE_LIMITS, ...options.formRateLimit },
        workflowOf: (weld) => {
          const w = welds.catalogue.bySlug(weld) ?? welds.catalogue.get(weld);
          return w && { eid: w.eid, organization: organizationOf(w) };
        },
        organizationLimits: (organization) => organizations?.(organization)?.formRateLimit,
      });
      weldRoutes(app, {
        welds,
        frameAncestors: options.signingFrameAncestors,
        ...(organizations ? { organizations } : {}),
      });
      // Closed before the packets it works over.
      app.addHook('onClose', async () => welds.close());
    }
    app.addHook('onClose', async () => packets.close());
  }
  if (sessions)
    await registerDashboard(app, {
      ctx,
      sources,
      authoring,
      keys: dashboardKeyRing,
      sessions,
      settings: options.dashboard || {},
      ...(organizations ? { organizations } : {}),
      ...(settings
        ? { organizationSettings: organizationSettingsAccess({ settings, organizations: keyOrganizations }) }
        : {}),
      ...(options.signingFrameAncestors ? { frameAncestors: options.signingFrameAncestors } : {}),
      ...(packets ? { packets: () => packets.get() } : {}),
      now,
    });
  app.addHook('onClose', async () => authoring.close());

  if (options.closeEngine) app.addHook('onClose', async () => engine.close());
  if (options.renderPool) app.addHook('onClose', async () => options.renderPool?.close());
  app.addHook('onClose', async () => ctx.urlStore.clear());
  return app;
}
