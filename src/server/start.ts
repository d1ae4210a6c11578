import type { FastifyInstance } from 'fastify';
import { createEngine, type EngineOptions } from '../engine/index.js';
import { buildApp, type ServerOptions } from './app.js';
import { poolThreads, RenderPool, type RenderPoolOptions } from './pool/render-pool.js';
import { keysWithoutOrganization, loadServerConfig, type ServerConfig } from './keys.js';
import { httpResolver, ResponseCache, type HttpResolverOptions } from '../resources/index.js';
import {
  LazyPacketBackend,
  LazyPacketStore,
  openPacketBackend,
  openPacketDatabase,
  type PacketDataOptions,
} from './graphql/index.js';
import type { DashboardSettings } from './templates.js';
import { DEFAULT_ORGANIZATION, type DocxConverterOptions, type OrganizationDirectory } from '../packets/index.js';
import { OrganizationSettingsStore, type ReloadOutcome } from './org/index.js';
import { createSigningIdentity } from '../signing/index.js';
import path from 'node:path';
import { DEFAULT_DATA_DIR } from './graphql/open.js';
import { checkOrganizations, loadWorkflows } from '../workflows/index.js';
import { LazyWorkflowBackend } from './workflow-forms/index.js';

export interface StartOptions {
  /** Template directory for the DirectoryTemplateStore (one folder per EID). */
  templates?: string;
  port?: number;
  /** Default 127.0.0.1: listening beyond loopback is a deliberate choice. */
  host?: string;
  /** Keys file (JSON, see docs/server.md, "Keys"). Required unless `noAuth`. */
  keysFile?: string;
  /** Or the config itself. */
  config?: ServerConfig;
  /** Accept every request as a production key. */
  noAuth?: boolean;
  publicUrl?: string;
  logger?: ServerOptions['logger'];
  /** Where log lines go (default stdout). */
  logStream?: ServerOptions['logStream'];
  /** `docx`: the packets' LibreOffice converter (docs/reference/packets.md, "DOCX uploads"); set, packets are assembled in-process. */
  engine?: Omit<EngineOptions, 'templates'> & { docx?: DocxConverterOptions };
  /** Close gracefully on SIGINT/SIGTERM (the CLI sets it; embedding code usually handles signals itself). */
  handleSignals?: boolean;
  /** Longest wait for in-flight requests on shutdown before giving up. */
  shutdownTimeoutMs?: number;
  /**
   * Fill and Markdown on worker threads with a deadline (default on). `false` runs them on the
   * main engine; so does an engine option that cannot reach a thread (a resolver or clock function).
   */
  renderPool?: false | Omit<RenderPoolOptions, 'engine'>;
  /**
   * Remote http(s) resources through httpResolver with these options (default `{}`: public
   * addresses only); `false` loads no remote URL. Ignored when `engine.resolver` is given.
   */
  fetch?: false | HttpResolverOptions;
  /** A remote resource that did not load is a 400 on its property (default: warning header and log line). */
  strictResources?: boolean;
  /** Signature packets (GraphQL, downloads): data folder, store, mail, webhook hosts; `false` serves none. Default on, in `./castpress-data`. */
  packets?: false | PacketDataOptions;
  /** Origins allowed to frame the signing page (besides the server itself). */
  signingFrameAncestors?: readonly string[];
  /** Origins besides the server's own that a packet's stylesheetURL may name (`--stylesheet-origin`). */
  signingStylesheetOrigins?: readonly string[];
  /**
   * Organization settings (`--org FILE`, src/server/org/): a settings file (read at start, reloaded on
   * a change of the file and, with `handleSignals`, on SIGHUP; `GET`/`PUT /api/organization`), a store
   * the caller made (and closes), or fixed settings. Names, mails, signer defaults, the organization
   * webhook, framing, stylesheets, form limits, the TSA.
   */
  organizations?: string | OrganizationDirectory | OrganizationSettingsStore;
  /** Prometheus metrics at `GET /metrics` (`--metrics`); default off. */
  metrics?: ServerOptions['metrics'];
  /** Workflow definitions folder (`--workflows`): read and checked before listening (src/workflows); needs packets. */
  workflows?: string;
  /** Throttles of the workflow forms (`--form-rate-limit`); unset values keep the defaults. */
  formRateLimit?: ServerOptions['formRateLimit'];
  /** Reverse proxies whose forwarded headers are believed (`--trust-proxy`). */
  trustProxy?: readonly string[];
  /** The dashboard at `/dashboard` (default on, its templates and sessions in the packets' database); `false` serves none. */
  dashboard?: false | DashboardSettings;
}

/** The engine options a worker thread can be given (structured cloning: no functions, no key objects). */
function threadEngineOptions(options: StartOptions): RenderPoolOptions['engine'] | undefined {
  const { fonts, limits, timeZone, chromium, privateKey, fontCatalogue, ...rest } = options.engine ?? {};
  if (Object.values(rest).some((v) => v !== undefined)) return undefined;
  if (privateKey !== undefined && typeof privateKey !== 'string') return undefined;
  const fetch = options.fetch === false ? undefined : (options.fetch ?? {});
  return {
    fonts,
    limits,
    timeZone,
    chromium,
    templatesDir: options.templates,
    ...(privateKey ? { privateKey } : {}),
    ...(fetch ? { fetch } : {}),
    ...(fontCatalogue ? { fontCatalogue } : {}),
  };
}

/**
 * Keys of several organizations: one organization's jobs may hold all threads but one, and all of
 * Chromium's pages but one, so another's job starts at once instead of after a running one
 * (fair-share.ts). One organization keeps every thread and page.
 */
function laneDefaults(
  config: ServerConfig | undefined,
  pool: Omit<RenderPoolOptions, 'engine'>,
  chromiumPages: number | undefined,
): Pick<RenderPoolOptions, 'laneThreads' | 'htmlPages' | 'laneHtmlPages'> {
  // The browser pool's own default and rounding (src/html BrowserPool).
  const htmlPages = Math.max(1, Math.floor(chromiumPages ?? 2));
  const organizations = new Set((config?.keys ?? []).map((k) => k.organization ?? DEFAULT_ORGANIZATION));
  if (organizations.size < 2) return { htmlPages };
  return { laneThreads: poolThreads(pool.threads) - 1, htmlPages, laneHtmlPages: htmlPages - 1 };
}

export interface RunningServer {
  app: FastifyInstance;
  /** e.g. http://127.0.0.1:8080 */
  url: string;
  /** Stops accepting connections, waits for in-flight requests, closes the engine (Chromium). */
  close(): Promise<void>;
}

const DEFAULT_PORT = 8080;
const DEFAULT_HOST = '127.0.0.1';

export async function startServer(options: StartOptions): Promise<RunningServer> {
  const config = options.config ?? (options.keysFile ? await loadServerConfig(options.keysFile) : undefined);
  if (!config && !options.noAuth) {
    throw new Error(
      'No API keys: pass --keys FILE (see docs/server.md), or --no-auth to accept every request as a production key',
    );
  }
  // Read before anything starts: a bad file is refused with the file and property named.
  const ownStore =
    typeof options.organizations === 'string'
      ? await OrganizationSettingsStore.open(options.organizations, { watch: false })
      : undefined;
  const store =
    ownStore ?? (options.organizations instanceof OrganizationSettingsStore ? options.organizations : undefined);
  const organizations: OrganizationDirectory | undefined =
    store?.directory ?? (typeof options.organizations === 'function' ? options.organizations : undefined);
  // The operator's certificate is checked before anything listens: a TLS-only, expired or
  // not-for-signing certificate is a typed start error (ValidationError on identity.certificate).
  if (options.packets && options.packets.signingP12) await createSigningIdentity(options.packets.signingP12);
  const resolver =
    options.engine?.resolver ??
    (options.fetch === false ? undefined : httpResolver(options.fetch ?? {}, new ResponseCache()));
  // `docx` is the packets' (their assembler owns the converter), not the engine's.
  const { docx, ...engineOptions } = options.engine ?? {};
  const engine = createEngine({ ...engineOptions, resolver, templates: options.templates });
  const threadEngine = options.renderPool === false ? undefined : threadEngineOptions(options);
  const renderPool = threadEngine
    ? new RenderPool({
        ...laneDefaults(config, options.renderPool || {}, options.engine?.chromium?.maxPages),
        ...(options.renderPool || {}),
        engine: threadEngine,
      })
    : undefined;
  // Made on first use, once the server's own address (the base of signing and download links) is known.
  let baseUrl = options.publicUrl;
  // One database for packets, the organizations' templates and dashboard sessions, opened on first use.
  const database =
    options.packets === false ? undefined : new LazyPacketStore(() => openPacketDatabase(options.packets || {}));
  const packets =
    options.packets === false || !database
      ? undefined
      : new LazyPacketBackend(async () =>
          openPacketBackend({
            ...(options.packets || {}),
            ...(docx ? { docx } : {}),
            store: await database.get(),
            engine,
            baseUrl: baseUrl ?? 'http://127.0.0.1',
            ...(organizations ? { organizations } : {}),
            ...(renderPool ? { threads: renderPool } : {}),
          }),
        );
  // Read before listening: a bad definition stops the start with the file and property named.
  const catalogue = options.workflows ? await loadWorkflows(options.workflows) : undefined;
  if (catalogue && !packets) throw new Error('--workflows needs signature packets (they make packets)');
  // Each workflow's organization must be one the server knows: the --org file's, else the keys file's.
  if (catalogue)
    checkOrganizations(
      catalogue,
      organizations
        ? (o) => organizations(o) !== undefined
        : (o) =>
            (config?.keys ?? []).some((k) => (k.organization ?? DEFAULT_ORGANIZATION) === o) ||
            o === DEFAULT_ORGANIZATION,
      organizations ? 'the organization settings (--org)' : 'the keys file',
    );
  const welds =
    catalogue && packets
      ? new LazyWorkflowBackend(catalogue, packets, {
          baseUrl: () => baseUrl ?? 'http://127.0.0.1',
          ...(options.packets && options.packets.webhook?.url ? { webhookURL: options.packets.webhook.url } : {}),
          ...(organizations ? { organizations } : {}),
        })
      : undefined;
  const app = await buildApp({
    ...(welds ? { welds } : {}),
    ...(store ? { organizationSettings: store } : {}),
    packets,
    ...(database ? { database } : {}),
    ...(docx ? { docx } : {}),
    ...(options.dashboard !== undefined ? { dashboard: options.dashboard } : {}),
    signingFrameAncestors: options.signingFrameAncestors,
    signingStylesheetOrigins: options.signingStylesheetOrigins,
    ...(organizations ? { organizations } : {}),
    renderPool,
    engine,
    config: options.noAuth ? undefined : config,
    closeEngine: true,
    logger: options.logger,
    ...(options.logStream ? { logStream: options.logStream } : {}),
    publicUrl: options.publicUrl,
    strictResources: options.strictResources,
    chromiumExecutable: options.engine?.chromium?.executablePath,
    metrics: options.metrics,
    ...(options.formRateLimit ? { formRateLimit: options.formRateLimit } : {}),
    ...(options.trustProxy ? { trustProxy: options.trustProxy } : {}),
    ...(options.packets !== false
      ? {
          signingCa: {
            dataDir: path.resolve(options.packets?.dataDir ?? DEFAULT_DATA_DIR),
            tsa: options.packets?.tsa === 'local',
          },
        }
      : {}),
  });
  const unscoped = config && !options.noAuth ? keysWithoutOrganization(config) : [];
  if (unscoped.length > 0)
    app.log.warn(
      { keys: unscoped },
      `API keys without "organization": ${unscoped.join(', ')}. They belong to the organization "${DEFAULT_ORGANIZATION}" ` +
        'and each sees and changes every packet the others make; give each key its organization in the keys file',
    );
  try {
    await app.listen({ port: options.port ?? DEFAULT_PORT, host: options.host ?? DEFAULT_HOST });
  } catch (e) {
    await app.close();
    throw e;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : (options.port ?? DEFAULT_PORT);
  const host = options.host ?? DEFAULT_HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  baseUrl ??= url;

  let closing: Promise<void> | undefined;
  const detach: Array<() => void> = [];
  const close = () =>
    (closing ??= app.close().then(() => {
      for (const d of detach) d();
    }));
  if (ownStore) {
    ownStore.watch();
    detach.push(() => ownStore.close());
  }
  if (store) {
    // Each reload in the log: a refused file names the property, and the settings in force stay.
    const onReload = (outcome: ReloadOutcome) => {
      if (outcome.ok) app.log.info({ file: store.file, cause: outcome.cause }, 'organization settings reloaded');
      else
        app.log.error(
          { file: store.file, cause: outcome.cause, err: outcome.error.toJSON() },
          `organization settings not reloaded, the last good ones stay in force: ${outcome.error.message}`,
        );
    };
    store.on('reload', onReload);
    detach.push(() => store.off('reload', onReload));
  }

  if (options.handleSignals) {
    const timeoutMs = options.shutdownTimeoutMs ?? 30_000;
    const onSignal = (signal: NodeJS.Signals) => {
      if (closing) {
        app.log.warn({ signal }, 'second signal: exiting without waiting');
        process.exit(1);
      }
      app.log.info({ signal }, 'shutting down: waiting for in-flight requests');
      const timer = setTimeout(() => {
        app.log.error('shutdown timed out');
        process.exit(1);
      }, timeoutMs);
      timer.unref();
      close().then(
        () => process.exit(0),
        (e: unknown) => {
          app.log.error({ err: e }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    detach.push(() => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    });
    if (store) {
      // SIGHUP: read the organization settings file again (the usual daemon convention).
      const onHangUp = () =>
        void store.reload('signal').catch((e: unknown) => app.log.error({ err: e }, 'reload failed'));
      process.on('SIGHUP', onHangUp);
      detach.push(() => process.off('SIGHUP', onHangUp));
    }
  }
  return { app, url, close };
}
