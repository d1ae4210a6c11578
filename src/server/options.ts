/** What `buildApp` takes: the engine, keys, stores and limits of one server. */
import type { Engine } from '../engine/index.js';
import type { DocxConverterOptions, OrganizationDirectory } from '../packets/index.js';
import type { LazyPacketBackend, LazyPacketStore } from './graphql/index.js';
import type { FormRateLimits } from './http/form-limits.js';
import type { JsonBodyLimits } from './http/json-body.js';
import type { MultipartLimits } from './http/multipart.js';
import type { ServerConfig } from './keys.js';
import type { MetricsOptions } from './metrics.js';
import type { OrganizationSettingsStore } from './org/index.js';
import type { RenderPool } from './pool/render-pool.js';
import type { ReadinessCheck } from './routes/health.js';
import type { DashboardSettings } from './templates.js';
import type { LazyWorkflowBackend } from './workflow-forms/index.js';

export interface ServerOptions {
  engine: Engine;
  /** Keys, signing secret, announced rate limit. Omitted: no authentication (every caller is a production key). */
  config?: ServerConfig;
  /** Close the engine when the server closes (true when the server created it). */
  closeEngine?: boolean;
  /** Clock in epoch milliseconds, for link expiry; tests step it forward. */
  now?: () => number;
  /** false (default), true, or a pino level: one line per request and per response, never the payload. */
  logger?: boolean | 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace';
  /** Where log lines go (default stdout). */
  logStream?: NodeJS.WritableStream;
  multipart?: Partial<MultipartLimits>;
  /** Cap of the in-memory store behind `outputFormat: 'url'`. */
  urlStore?: { maxBytes?: number; maxEntries?: number };
  /** Base of signed links, e.g. `https://pdf.internal`; default: the request's own scheme and Host. */
  publicUrl?: string;
  /** Longest time to receive a whole request (headers and body); default 120 s. */
  requestTimeoutMs?: number;
  /** Fill and Markdown on worker threads with a deadline (startServer creates one); closed with the server. */
  renderPool?: RenderPool;
  /** A remote resource that did not load is a 400 on its property rather than a warning header (see resource-warnings.ts). */
  strictResources?: boolean;
  /** Signature packets: `POST /graphql` and the document-group downloads; closed with the server. */
  packets?: LazyPacketBackend;
  /**
   * The server's database (packets, the organizations' own templates, dashboard sessions), opened on
   * first use and closed with the server after the packets (startServer makes one). Without it the
   * templates live in the packets' store, or in memory when there are no packets.
   */
  database?: LazyPacketStore;
  /** The dashboard at `/dashboard` (default on); `false` serves none. */
  dashboard?: false | DashboardSettings;
  /** LibreOffice's options for DOCX uploads of the dashboard and createCast (startServer passes `engine.docx`). */
  docx?: DocxConverterOptions;
  /** JSON bodies and parts (REST and `/graphql`) above `inlineBytes` (1 MiB) are parsed on the render pool's threads and may hold `maxValues` (50,000) values. */
  jsonBodies?: Partial<JsonBodyLimits>;
  /** Origins (e.g. `https://app.example`) allowed to frame the embeddable pages (../org/policy.ts) and, besides the server itself, the mailed ones. */
  signingFrameAncestors?: readonly string[];
  /** Origins besides the server's own that a packet's `signaturePageOptions.style.stylesheetURL` may name. */
  signingStylesheetOrigins?: readonly string[];
  /** Each organization's settings (`--org`, src/server/org/): framing and stylesheets of its packets' pages. */
  organizations?: OrganizationDirectory;
  /**
   * The settings store (`--org FILE`, src/server/org/store.ts): its `directory` stands for
   * `organizations` when that is not given, and `GET`/`PUT /api/organization` read and change it.
   * The caller closes it.
   */
  organizationSettings?: OrganizationSettingsStore;
  /** `/ready`'s Chromium check: the executable the engine's pool launches (the engine's `chromium.executablePath`; default: CASTPRESS_CHROMIUM, then the usual paths). */
  chromiumExecutable?: string;
  /** Further `/ready` checks besides Chromium and the packet store (e.g. a queue's Redis). */
  readyChecks?: readonly ReadinessCheck[];
  /** Deadline of one `/ready` check (default 5 s): past it the check fails. */
  readyCheckTimeoutMs?: number;
  /** Serve Prometheus metrics at `GET /metrics` (default off); `token` asks scrapers for `Authorization: Bearer <token>`. */
  metrics?: boolean | MetricsOptions;
  /** The local CA's CRL at `/signing/crl/<install id>.crl`, and with `tsa` the built-in TSA at `POST /tsa`. */
  signingCa?: { dataDir: string; tsa: boolean };
  /** Workflows (`--workflows`): their forms under /weld/, the query `weld`; needs `packets`; closed with the server. */
  welds?: LazyWorkflowBackend;
  /** Throttles of the workflow forms (form-limits.ts); unset values keep DEFAULT_FORM_RATE_LIMITS. */
  formRateLimit?: Partial<FormRateLimits>;
  /**
   * Addresses or CIDR ranges of reverse proxies whose `X-Forwarded-For` / `-Proto` / `-Host` are
   * believed (fastify's `trustProxy`): `request.ip` (rate limits, logs, the audit trail) is then the
   * client's. Default none: the connection's own address.
   */
  trustProxy?: readonly string[];
}
