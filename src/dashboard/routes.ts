/**
 * The dashboard face: everything under `/dashboard` (DASHBOARD-API.md). Sessions, the JSON API,
 * the page shell and its files. src/server registers it with what it needs from the server (keys,
 * the template store, the preview's render) so this folder needs nothing of the server's.
 */
import fastifyRateLimit from '@fastify/rate-limit';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, TooManyRequestsError, ValidationError } from '../errors/index.js';
import type { OrganizationDirectory, SessionRecords } from '../packets/index.js';
import type { Template, TemplateCatalogue } from '../template/index.js';
import { templateApi, type TemplateAuthoring, type UploadLimits } from './templates/index.js';
import { deliveryApi } from './packet-desk/deliveries.js';
import { packetApi, type PacketDesk } from './packet-desk/routes.js';
import { organizationApi, type OrganizationSettingsAccess } from './organization.js';
import {
  checkEmbeddedApi,
  DEFAULT_SESSION_TTL_MS,
  EMBED_COOKIE,
  embeddedPageAllowed,
  embedLanding,
  MemorySessions,
  outsideEmbed,
  sessionCookie,
  Sessions,
  type DashboardKey,
  type DashboardKeys,
  type Session,
} from './sessions/index.js';
import { assetRoutes, sendShell, type AppFiles } from './shell.js';

/** Sign-in attempts one client address may make per window (then 429 with Retry-After). */
export const DEFAULT_SIGN_IN_LIMIT = { max: 10, windowMs: 60_000 };

export interface DashboardOptions {
  keys: DashboardKeys;
  catalogue: () => Promise<TemplateCatalogue>;
  /** Where sessions are kept; default in memory (per process). */
  sessions?: () => Promise<SessionRecords>;
  authoring: TemplateAuthoring;
  /** The engine's flat fill of a template (the server's render pool; a development key's watermark). */
  preview: (key: DashboardKey, template: Template, body: unknown) => Promise<Uint8Array>;
  /** The server's multipart limits: the upload's. */
  multipart: UploadLimits;
  /** JSON bodies as the server parses them (large ones off the event loop); default JSON.parse. */
  parseJson?: (bytes: Buffer, property: string) => Promise<unknown>;
  /** The organizations' settings: `embedOrigins` may frame the editor page. */
  organizations?: OrganizationDirectory;
  /** Reading and changing them (the server's `--org` store); without it the settings page says there is no file. */
  settings?: OrganizationSettingsAccess;
  /** The sessions (shared with whatever makes embed links); default: made here from `sessions`, `keys`, `now`. */
  sessionStore?: Sessions;
  /** The operator's frame ancestors (`--frame-ancestor`), for organizations that list no `embedOrigins`. */
  frameAncestors?: readonly string[];
  /** The server's packets (store and service), opened on first use; without them no packet routes. */
  packets?: () => Promise<PacketDesk>;
  /** Epoch milliseconds (tests step it). */
  now: () => number;
  sessionTtlMs?: number;
  signInLimit?: { max: number; windowMs: number };
  files?: AppFiles;
  /** Largest JSON body of `POST /dashboard/api/templates/import`. */
  importBodyBytes: number;
}

const EDITOR = /^\/dashboard\/templates\/[^/?#]+\/?(?:[?#].*)?$/;

/** The sessions of a dashboard: in `records` (default memory, per process), for `keys`, on `now`'s clock. */
export function dashboardSessions(options: {
  records?: () => Promise<SessionRecords>;
  keys: DashboardKeys;
  now: () => number;
  ttlMs?: number;
}): Sessions {
  const memory = new MemorySessions();
  return new Sessions(
    options.records ?? (async () => memory),
    options.keys,
    options.now,
    options.ttlMs ?? DEFAULT_SESSION_TTL_MS,
  );
}

/** The session as the app reads it; `templateEid` when an embed link opened it. */
function sessionView(session: Session) {
  return {
    organization: session.key.organization,
    keyLabel: session.key.label,
    csrfToken: session.csrfToken,
    ...(session.templateEid !== undefined ? { templateEid: session.templateEid } : {}),
  };
}

function parseJsonText(bytes: Buffer, property: string): unknown {
  try {
    return JSON.parse(bytes.toString('utf8'));
  } catch {
    throw ValidationError.of(property, 'Invalid JSON');
  }
}

export async function dashboardRoutes(app: FastifyInstance, options: DashboardOptions): Promise<void> {
  const sessions =
    options.sessionStore ??
    dashboardSessions({
      ...(options.sessions ? { records: options.sessions } : {}),
      keys: options.keys,
      now: options.now,
      ...(options.sessionTtlMs !== undefined ? { ttlMs: options.sessionTtlMs } : {}),
    });
  const signedIn = new WeakMap<FastifyRequest, Session>();
  const sessionOf = (request: FastifyRequest): Session => {
    const s = signedIn.get(request);
    if (!s) throw new Error('dashboard route reached without its session');
    return s;
  };
  const limit = options.signInLimit ?? DEFAULT_SIGN_IN_LIMIT;

  await app.register(async (dash) => {
    // A 401 of the dashboard asks for no Basic credentials: a browser would open its login dialog.
    dash.addHook('onSend', async (_request, reply, payload) => {
      reply.removeHeader('www-authenticate');
      return payload;
    });
    if (!dash.hasDecorator('createRateLimit')) await dash.register(fastifyRateLimit, { global: false });
    const signInCheck = dash.createRateLimit({ timeWindow: limit.windowMs, max: limit.max });

    dash.post<{ Body: unknown }>(
      '/dashboard/session',
      {
        onRequest: async (request, reply) => {
          const result = await signInCheck(request);
          if (!result.isAllowed && result.isExceeded) {
            const seconds = Math.max(1, result.ttlInSeconds);
            reply.header('retry-after', String(seconds));
            throw new TooManyRequestsError(
              seconds,
              `Too many sign-in attempts from this address: try again in ${seconds} s`,
            );
          }
        },
      },
      async (request, reply) => {
        const apiKey = (request.body as { apiKey?: unknown } | undefined)?.apiKey;
        const { session, cookie } = await sessions.open(apiKey);
        reply.header(
          'set-cookie',
          sessionCookie(cookie, Math.floor(sessions.ttlMs / 1000), request.protocol === 'https'),
        );
        return reply.header('cache-control', 'no-store').send(sessionView(session));
      },
    );

    dash.get('/dashboard/session', async (request, reply) => {
      const session = await sessions.of(request);
      return reply.header('cache-control', 'no-store').send(sessionView(session));
    });

    dash.delete('/dashboard/session', async (request, reply) => {
      const session = await sessions.of(request);
      sessions.checkCsrf(request, session);
      await sessions.close(session);
      reply.header('set-cookie', [
        sessionCookie('', 0, request.protocol === 'https'),
        `${EMBED_COOKIE}=; Path=/dashboard; HttpOnly; SameSite=None; Secure; Partitioned; Max-Age=0`,
      ]);
      return reply.code(204).send();
    });

    embedLanding(dash, sessions);

    await dash.register(
      async (api) => {
        api.addHook('onRequest', async (request) => {
          const session = await sessions.of(request);
          if (request.method !== 'GET' && request.method !== 'HEAD') sessions.checkCsrf(request, session);
          checkEmbeddedApi(request, session);
          signedIn.set(request, session);
        });
        // No explicit limit here: each route's own applies (the server's JSON limit; an import's larger one).
        api.removeContentTypeParser('application/json');
        const parse = options.parseJson ?? (async (bytes: Buffer, property: string) => parseJsonText(bytes, property));
        api.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_req, raw, done) => {
          const bytes = raw as Buffer;
          if (bytes.byteLength === 0) return done(null, {});
          parse(bytes, 'body').then(
            (value) => done(null, value),
            (e: unknown) => done(e as Error, undefined),
          );
        });
        templateApi(api, {
          catalogue: options.catalogue,
          authoring: options.authoring,
          preview: options.preview,
          sessionOf,
          now: options.now,
          multipart: options.multipart,
          importBodyBytes: options.importBodyBytes,
        });
        organizationApi(api, { settings: options.settings, sessionOf, multipart: options.multipart });
        if (options.packets) {
          packetApi(api, { packets: options.packets, sessionOf });
          deliveryApi(api, { packets: options.packets, sessionOf });
        }
        api.all('/*', async (request) => {
          throw new NotFoundError(`No route ${request.method} ${request.url.split('?')[0]}`, 'path');
        });
      },
      { prefix: '/dashboard/api' },
    );

    assetRoutes(dash, options.files);

    // The editor may be framed by the organization's own origins (its embedOrigins, else the operator's); so
    // may every page an embed link's session opens (its template's versions). Other pages: this server only.
    const shell = async (request: FastifyRequest, reply: Parameters<typeof sendShell>[0]) => {
      let ancestors = ["'self'"];
      const session = await sessions.of(request).catch(() => undefined);
      if (session && !embeddedPageAllowed(request.url, session)) throw outsideEmbed();
      if (EDITOR.test(request.url) || session?.templateEid !== undefined) {
        const own = session && options.organizations?.(session.key.organization)?.embedOrigins;
        ancestors = ["'self'", ...(own?.length ? own : (options.frameAncestors ?? []))];
      }
      return sendShell(reply, ancestors);
    };
    dash.get('/dashboard', shell);
    dash.get('/dashboard/*', shell);
  });
}
