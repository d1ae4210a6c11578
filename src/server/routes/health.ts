/**
 * Operations endpoints: `/health` (liveness: the process serves),
 * `/ready` (the dependencies a request needs answer), `/metrics` (Prometheus).
 * None asks for an API key: a load balancer or scraper has none. `/ready` runs
 * each check under a short deadline so a hung dependency makes it a 503, never a
 * hung probe; its messages are fixed sentences (no connection strings, no
 * driver messages, which can carry host names and user names): the cause is
 * logged at warn level for the operator.
 */
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import { AuthorizationError } from '../../errors/index.js';
import type { ServerMetrics } from '../metrics.js';

/** One dependency: resolves when reachable, throws (or rejects) otherwise. */
export interface ReadinessCheck {
  name: string;
  /** The sentence `/ready` shows when the check fails. */
  failure: string;
  probe(): Promise<void>;
}

interface CheckResult {
  ok: boolean;
  message: string;
}

interface ReadinessReport {
  status: 'ready' | 'unavailable';
  checks: Record<string, CheckResult>;
}

const DEFAULT_CHECK_TIMEOUT_MS = 5_000;

async function runCheck(check: ReadinessCheck, timeoutMs: number, log: FastifyBaseLogger): Promise<CheckResult> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<'late'>((resolve) => {
    timer = setTimeout(() => resolve('late'), timeoutMs);
  });
  try {
    const outcome = await Promise.race([check.probe().then(() => 'ok' as const), late]);
    if (outcome === 'ok') return { ok: true, message: 'ok' };
    return { ok: false, message: `${check.failure} (no answer within ${timeoutMs} ms)` };
  } catch (e) {
    log.warn({ err: e, check: check.name }, 'readiness check failed');
    return { ok: false, message: check.failure };
  } finally {
    clearTimeout(timer);
  }
}

/** Runs every check at once; ready when all passed. */
async function readiness(
  checks: readonly ReadinessCheck[],
  log: FastifyBaseLogger,
  timeoutMs = DEFAULT_CHECK_TIMEOUT_MS,
): Promise<ReadinessReport> {
  const results = await Promise.all(checks.map(async (c) => [c.name, await runCheck(c, timeoutMs, log)] as const));
  return { status: results.every(([, r]) => r.ok) ? 'ready' : 'unavailable', checks: Object.fromEntries(results) };
}

export interface OperationsRoutesOptions {
  checks: readonly ReadinessCheck[];
  checkTimeoutMs?: number;
  /** `/metrics` is served only when given. */
  metrics?: ServerMetrics;
}

export function operationsRoutes(app: FastifyInstance, options: OperationsRoutesOptions): void {
  app.get('/health', async (_request, reply) => {
    await reply.code(200).header('cache-control', 'no-store').send({ status: 'ok' });
  });
  app.get('/ready', async (request, reply) => {
    const report = await readiness(options.checks, request.log, options.checkTimeoutMs);
    await reply
      .code(report.status === 'ready' ? 200 : 503)
      .header('cache-control', 'no-store')
      .send(report);
  });
  const metrics = options.metrics;
  if (metrics) {
    app.get('/metrics', async (request, reply) => {
      if (!metrics.allows(request.headers.authorization)) {
        // Sent here rather than thrown: the error handler's 401 invites Basic (API key) credentials, which do not open this.
        const e = new AuthorizationError('The metrics token is missing or wrong');
        await reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .type('application/json; charset=utf-8')
          .send(e.toJSON());
        return;
      }
      await reply
        .code(200)
        .header('cache-control', 'no-store')
        .type(metrics.contentType)
        .send(await metrics.text());
    });
  }
}
