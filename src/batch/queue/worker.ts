import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import type { Job, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isCastpressError } from '../../errors/index.js';
import { sweepTemporaries, writeAtomic } from '../atomic.js';
import { DEFAULT_QUEUE_NAME, openRedis, type QueueConnection } from './connection.js';
import { encodeFailure, type QueueJobData } from './jobs.js';
import type { RenderOutcome, WorkerTask } from '../worker.js';
import { WORKER_FILE } from '../worker-file.js';

/** A rendered job, as a custom handler receives it. */
export interface RenderedJob {
  jobId: string;
  lineNumber: number;
  /** The deterministic output name (`output`, else `<id>.pdf`, else `line-<n>.pdf`). */
  output: string;
  pdf: Uint8Array;
}

export interface QueueWorkerOptions {
  /** A `redis://host:port/db` URL, ioredis options, or an open ioredis connection (left open). */
  connection: QueueConnection | Redis;
  queueName?: string;
  /** Where the default handler writes `<output>` atomically. Needed unless `handler` is given. */
  outDir?: string;
  /** Receives each rendered PDF instead of the file writer. A typed error it throws fails the job for good; anything else is retried. */
  handler?: (job: RenderedJob) => Promise<void>;
  /** Engine threads (default 1). */
  concurrency?: number;
  /** Jobs in flight per thread (default 2, as in `runBatch`): one renders while the next is fetched and the last written. */
  jobsPerThread?: number;
  engine?: WorkerTask['engine'];
  /** A job still rendering after this is abandoned and retried; its thread is ended (and the job sharing it retried too). Default 120 s. */
  jobTimeoutMs?: number;
  /** BullMQ's job lock and stalled-job check: a killed worker's jobs go back to the queue after about this long. Defaults 30 s / 30 s. */
  lockDurationMs?: number;
  stalledIntervalMs?: number;
  /** Notified of each finished job (logs, tests). */
  onJob?: (event: { jobId: string; lineNumber: number; ok: boolean; reason?: string }) => void;
}

export interface QueueWorker {
  /** Stops taking jobs, lets the ones running finish, then closes the engines and the connection. */
  close(): Promise<void>;
}

/** A typed error caused by the job's input is final; a 5xx (engine died, deadline) is worth another try. */
function isFinal(e: unknown): boolean {
  return isCastpressError(e) && e.status < 500;
}

/**
 * A BullMQ worker that renders queued job lines on a piscina pool of engine threads
 * (the same pool and worker file as `runBatch`: one engine per thread, kept for the
 * thread's life). Rendering off the main thread keeps BullMQ's lock renewal and the
 * Redis connection responsive however long a PDF takes.
 */
export async function createQueueWorker(options: QueueWorkerOptions): Promise<QueueWorker> {
  if (!options.handler && !options.outDir) throw new TypeError('createQueueWorker needs an outDir or a handler');
  const concurrency = Math.max(1, options.concurrency ?? 1);
  const perThread = Math.max(1, options.jobsPerThread ?? 2);
  const jobTimeoutMs = options.jobTimeoutMs ?? 120_000;
  const outDir = options.outDir ? path.resolve(options.outDir) : undefined;
  if (outDir) {
    await mkdir(outDir, { recursive: true });
    await sweepTemporaries(outDir);
  }
  const handler =
    options.handler ??
    (async (job: RenderedJob) => {
      await writeAtomic(outDir as string, job.output, job.pdf);
    });

  // The engine threads start first and warm while this thread loads BullMQ and ioredis and connects:
  // the two are the bulk of a worker's start, and on two cores they run side by side.
  const { Piscina } = await import('piscina');
  const pool = new Piscina<WorkerTask, RenderOutcome>({
    filename: WORKER_FILE,
    minThreads: concurrency,
    maxThreads: concurrency,
    concurrentTasksPerWorker: perThread,
    idleTimeout: Number.POSITIVE_INFINITY,
  });
  const engine: WorkerTask['engine'] = options.engine ?? {};
  const warmTask: WorkerTask = { line: '', lineNumber: 0, outDir: '', baseDir: process.cwd(), engine };
  const warm = Promise.all(Array.from({ length: concurrency }, () => pool.run(warmTask, { name: 'warm' })));
  const owned = typeof options.connection === 'string' || !('duplicate' in options.connection);
  const connected = owned
    ? openRedis(options.connection as QueueConnection)
    : Promise.resolve(options.connection as Redis);
  let started: [typeof import('bullmq'), Redis, unknown];
  try {
    started = await Promise.all([import('bullmq'), connected, warm]);
  } catch (e) {
    // An unreachable queue or a failed warm-up: no thread may outlive the error and keep the process alive.
    await Promise.allSettled([warm, connected]);
    await pool.destroy();
    if (owned) await connected.then((r) => r.disconnect()).catch(() => undefined);
    throw e;
  }
  const [{ Worker, UnrecoverableError }, redis] = started;

  const processJob = async (job: Job<QueueJobData>): Promise<{ output: string; bytes: number }> => {
    const { line, lineNumber, baseDir } = job.data;
    const abort = new AbortController();
    const timer = setTimeout(() => abort.abort(), jobTimeoutMs);
    let outcome: RenderOutcome;
    try {
      outcome = await pool.run(
        { line, lineNumber, baseDir, outDir: '', engine },
        { name: 'render', signal: abort.signal },
      );
    } catch (e) {
      // The thread returns typed errors as outcomes: what rejects here is a crash or the timeout.
      throw new Error(
        abort.signal.aborted
          ? `Timed out after ${jobTimeoutMs} ms`
          : `Render crashed: ${e instanceof Error ? e.message : String(e)}`,
      );
    } finally {
      clearTimeout(timer);
    }
    if (!outcome.ok) {
      const failure = encodeFailure({ status: outcome.status, error: outcome.error });
      throw outcome.status < 500 ? new UnrecoverableError(failure) : new Error(failure);
    }
    try {
      await handler({ jobId: String(job.id), lineNumber, output: outcome.output, pdf: outcome.pdf });
    } catch (e) {
      if (isFinal(e) && isCastpressError(e))
        throw new UnrecoverableError(encodeFailure({ status: e.status, error: e.toJSON() }));
      throw e;
    }
    return { output: outcome.output, bytes: outcome.pdf.byteLength };
  };

  const worker: Worker<QueueJobData> = new Worker<QueueJobData>(options.queueName ?? DEFAULT_QUEUE_NAME, processJob, {
    connection: redis,
    concurrency: concurrency * perThread,
    lockDuration: options.lockDurationMs ?? 30_000,
    stalledInterval: options.stalledIntervalMs ?? 30_000,
    // A job whose worker was killed is taken over; a job that kills every worker it lands on fails after a few.
    maxStalledCount: 3,
  });
  worker.on('completed', (job) =>
    options.onJob?.({ jobId: String(job.id), lineNumber: job.data.lineNumber, ok: true }),
  );
  worker.on(
    'failed',
    (job, err) =>
      job &&
      options.onJob?.({ jobId: String(job.id), lineNumber: job.data.lineNumber, ok: false, reason: err.message }),
  );
  // Connection errors are retried by BullMQ and ioredis; without a listener they would end the process.
  worker.on('error', () => undefined);
  await worker.waitUntilReady();

  let closing: Promise<void> | undefined;
  return {
    close() {
      closing ??= (async () => {
        await worker.close();
        await Promise.all(pool.threads.map(() => pool.run(warmTask, { name: 'closeWorker' }).catch(() => undefined)));
        await pool.destroy();
        if (outDir) await sweepTemporaries(outDir);
        if (owned) await redis.quit().catch(() => redis.disconnect());
      })();
      return closing;
    },
  };
}
