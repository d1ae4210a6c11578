/**
 * Prometheus metrics of one server (`GET /metrics`): one prom-client
 * Registry per server, never the library's global one, so two servers in one
 * process (tests, embedding code) count apart. Request metrics are labelled
 * with the route pattern (`/api/v1/fill/:file`), never the raw URL: template
 * EIDs, download ids and signatures stay out of the label set, and a scanner
 * requesting random paths adds one `unmatched` series, not one per path.
 * Pool and outbox figures are read at scrape time, not kept up to date.
 *
 * The process and runtime metrics (CPU, memory, event loop lag, GC, handles) are prom-client's
 * defaults under their standard names (`process_cpu_seconds_total`, `nodejs_*`, what stock
 * dashboards and alerts query), collected once per process in a registry of their own and served
 * by every server beside its own metrics: they describe the process, which servers share, and each
 * collection starts an event-loop monitor and a GC observer that nothing stops.
 */
import { timingSafeEqual } from 'node:crypto';
import type { Counter, Histogram, Registry } from 'prom-client';
import type { LazyPacketBackend } from './graphql/index.js';
import type { RenderPool } from './pool/render-pool.js';

/** What a render was: the fill route, generate-pdf's two modes, and the packet steps on the pool. */
export type RenderKind = 'fill' | 'markdown' | 'html' | 'packet';

export interface MetricsOptions {
  /** When set, `/metrics` asks for `Authorization: Bearer <token>` (401 otherwise). */
  token?: string;
}

export interface MetricsSources {
  renderPool?: RenderPool;
  packets?: LazyPacketBackend;
}

let runtimeRegistry: Registry | undefined;

/** The process's runtime metrics, collected from the first call on (never in prom-client's global registry). */
function runtimeMetrics(prom: typeof import('prom-client')): Registry {
  if (!runtimeRegistry) {
    runtimeRegistry = new prom.Registry();
    prom.collectDefaultMetrics({ register: runtimeRegistry });
  }
  return runtimeRegistry;
}

const SECONDS_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export class ServerMetrics {
  readonly #registry: Registry;
  /** This server's metrics and the process's, as one scrape. */
  readonly #scrape: Registry;
  readonly contentType: string;
  readonly #token: Buffer | undefined;
  readonly #requests: Counter<'method' | 'route' | 'status'>;
  readonly #requestSeconds: Histogram<'method' | 'route' | 'status'>;
  readonly #renderSeconds: Histogram<'kind'>;
  readonly #detach: Array<() => void> = [];

  private constructor(prom: typeof import('prom-client'), sources: MetricsSources, options: MetricsOptions) {
    this.#registry = new prom.Registry();
    const registers = [this.#registry];
    this.contentType = this.#registry.contentType;
    this.#token = options.token ? Buffer.from(options.token, 'utf8') : undefined;
    this.#requests = new prom.Counter({
      name: 'castpress_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      registers,
    });
    this.#requestSeconds = new prom.Histogram({
      name: 'castpress_http_request_duration_seconds',
      help: 'Time from request to the end of its answer, by method, route pattern and status',
      labelNames: ['method', 'route', 'status'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    this.#renderSeconds = new prom.Histogram({
      name: 'castpress_render_duration_seconds',
      help: 'Time of one render (successful or not), by kind: fill, markdown, html, packet',
      labelNames: ['kind'],
      buckets: SECONDS_BUCKETS,
      registers,
    });
    const pool = sources.renderPool;
    if (pool) {
      // Packet steps run on the pool's threads; their time is observed there (fill and Markdown are timed by their route).
      this.#detach.push(
        pool.observe((name, seconds) => name === 'packet' && this.#renderSeconds.observe({ kind: 'packet' }, seconds)),
      );
      new prom.Gauge({
        name: 'castpress_render_pool_queue_depth',
        help: 'Render jobs waiting for a worker thread',
        registers,
        async collect() {
          this.set((await pool.load()).queued);
        },
      });
      new prom.Gauge({
        name: 'castpress_render_pool_busy_workers',
        help: 'Worker threads running a render job',
        registers,
        async collect() {
          this.set((await pool.load()).busy);
        },
      });
    }
    const packets = sources.packets;
    if (packets) {
      new prom.Gauge({
        name: 'castpress_packet_events',
        help: 'Packet events (webhooks, emails) in the outbox by status: pending (to deliver or retry) and failed (given up)',
        labelNames: ['status'],
        registers,
        async collect() {
          try {
            const { store } = await packets.get();
            for (const status of ['pending', 'failed'] as const) this.set({ status }, await store.outboxCount(status));
          } catch {
            // A store that does not answer: no samples (not stale counts), and the rest of the scrape still served.
            this.reset();
          }
        },
      });
    }
    this.#scrape = prom.Registry.merge([runtimeMetrics(prom), this.#registry]);
  }

  /** prom-client is loaded only by a server that serves metrics. */
  static async create(sources: MetricsSources, options: MetricsOptions = {}): Promise<ServerMetrics> {
    return new ServerMetrics(await import('prom-client'), sources, options);
  }

  /** `route` is the matched pattern, or undefined for a request no route matched. */
  observeRequest(method: string, route: string | undefined, status: number, seconds: number): void {
    const labels = { method, route: route ?? 'unmatched', status: String(status) };
    this.#requests.inc(labels);
    this.#requestSeconds.observe(labels, seconds);
  }

  /** Runs `fn`, recording its duration under `kind` whether it succeeds or fails. */
  async timeRender<T>(kind: RenderKind, fn: () => Promise<T>): Promise<T> {
    const end = this.#renderSeconds.startTimer({ kind });
    try {
      return await fn();
    } finally {
      end();
    }
  }

  /** Whether an Authorization header may read the metrics (always, when no token is configured). */
  allows(authorization: string | undefined): boolean {
    if (!this.#token) return true;
    const m = /^Bearer\s+(\S+)$/i.exec(authorization ?? '');
    if (!m) return false;
    const given = Buffer.from(m[1]!, 'utf8');
    return given.length === this.#token.length && timingSafeEqual(given, this.#token);
  }

  /** The exposition text (sources are read now). */
  text(): Promise<string> {
    return this.#scrape.metrics();
  }

  close(): void {
    for (const d of this.#detach.splice(0)) d();
  }
}

/** `fn` timed under `kind` when the server keeps metrics, else just run. */
export function timedRender<T>(metrics: ServerMetrics | undefined, kind: RenderKind, fn: () => Promise<T>): Promise<T> {
  return metrics ? metrics.timeRender(kind, fn) : fn();
}
