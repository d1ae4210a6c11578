import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import { createInterface } from 'node:readline';
import type { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { writeAtomic } from '../atomic.js';
import type { ProgressReporter, ProgressState } from '../progress.js';
import { DEFAULT_QUEUE_NAME, openRedis, type QueueConnection } from './connection.js';
import { FinishedJobs } from './finished.js';
import {
  DEFAULT_ATTEMPTS,
  DEFAULT_BACKOFF_MS,
  decodeFailure,
  queueJobId,
  type JobFailure,
  type QueueJobData,
} from './jobs.js';

export interface EnqueueOptions {
  /** A `redis://host:port/db` URL, ioredis options, or an open ioredis connection (left open). */
  connection: QueueConnection | Redis;
  jobsFile: string;
  queueName?: string;
  /** Runs of a job that crashes or times out, back-off doubling from `backoffMs` (typed errors: one run). */
  attempts?: number;
  backoffMs?: number;
  /** How long finished jobs stay in Redis (they make adding the same file again a no-op). Default 7 days. */
  keepSeconds?: number;
}

/** The jobs one file put on the queue; what `watchBatch` follows. */
export interface EnqueuedBatch {
  queueName: string;
  /** SHA-256 of the jobs file: the prefix of its job ids. */
  fileHash: string;
  jobIds: string[];
  total: number;
  /** Jobs that were not on the queue yet (0 when the same file was added before). */
  added: number;
}

const CHUNK = 500;

async function hashFile(file: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

async function withQueue<T>(
  connection: QueueConnection | Redis,
  queueName: string,
  fn: (queue: Queue, redis: Redis) => Promise<T>,
): Promise<T> {
  const { Queue } = await import('bullmq');
  const owned = typeof connection === 'string' || !('duplicate' in connection);
  const redis = owned ? await openRedis(connection as QueueConnection) : (connection as Redis);
  const queue = new Queue(queueName, { connection: redis });
  try {
    return await fn(queue, redis);
  } finally {
    await queue.close();
    if (owned) await redis.quit().catch(() => redis.disconnect());
  }
}

/**
 * Puts every non-blank line of a jobs file on a BullMQ queue, streaming, in chunks.
 * A job's id is the file's content hash plus its line number, so adding the same
 * file again (a re-run, a producer restarted half-way) adds nothing twice.
 */
export async function enqueueBatch(options: EnqueueOptions): Promise<EnqueuedBatch> {
  const queueName = options.queueName ?? DEFAULT_QUEUE_NAME;
  const fileHash = await hashFile(options.jobsFile);
  const baseDir = path.dirname(path.resolve(options.jobsFile));
  const keep = options.keepSeconds ?? 7 * 86400;
  const jobOptions = {
    attempts: Math.max(1, options.attempts ?? DEFAULT_ATTEMPTS),
    backoff: { type: 'exponential', delay: options.backoffMs ?? DEFAULT_BACKOFF_MS },
    removeOnComplete: { age: keep },
    removeOnFail: { age: keep },
  };
  return withQueue(options.connection, queueName, async (queue, redis) => {
    const jobIds: string[] = [];
    let added = 0;
    let pending: Array<{ name: string; data: QueueJobData; opts: typeof jobOptions & { jobId: string } }> = [];
    const flush = async () => {
      if (pending.length === 0) return;
      const exists = await redis.pipeline(pending.map((j) => ['exists', queue.toKey(j.opts.jobId)])).exec();
      added += (exists ?? []).filter(([, n]) => n === 0).length;
      await queue.addBulk(pending);
      pending = [];
    };
    const lines = createInterface({ input: createReadStream(options.jobsFile, 'utf8'), crlfDelay: Infinity });
    let lineNumber = 0;
    for await (const line of lines) {
      lineNumber++;
      if (line.trim() === '') continue;
      const jobId = queueJobId(fileHash, lineNumber);
      jobIds.push(jobId);
      pending.push({ name: 'pdf', data: { line, lineNumber, baseDir }, opts: { ...jobOptions, jobId } });
      if (pending.length >= CHUNK) await flush();
    }
    await flush();
    return { queueName, fileHash, jobIds, total: jobIds.length, added };
  });
}

export interface WatchOptions {
  connection: QueueConnection | Redis;
  batch: EnqueuedBatch;
  /** errors.jsonl goes here once every job is done or failed. */
  outDir: string;
  progress?: ProgressReporter;
  pollMs?: number;
}

export interface QueueBatchSummary extends ProgressState {
  errorsFile: string;
  finishedAt: number;
}

/**
 * Follows a batch on the queue until every job is done or failed, whichever worker
 * ran it, reporting progress and ETA; then writes `outDir/errors.jsonl` (one writer,
 * sorted by line, replaced atomically) from the failed jobs' typed errors. A poll
 * reads what finished since the last one (FinishedJobs), so it costs the same in a
 * batch of a hundred jobs and of a million. Redis going away only pauses it: it waits
 * for the connection to come back.
 */
export async function watchBatch(options: WatchOptions): Promise<QueueBatchSummary> {
  const { batch } = options;
  const pollMs = options.pollMs ?? 500;
  return withQueue(options.connection, batch.queueName, async (queue, redis) => {
    const finished = new FinishedJobs(batch.jobIds, redis, (set) => queue.toKey(set));
    const state: ProgressState = { done: 0, failed: 0, skipped: 0, total: batch.total, startedAt: Date.now() };
    let baseline: number | undefined;
    for (;;) {
      try {
        await finished.poll();
      } catch {
        // Redis restarting: ioredis reconnects; ask again on the next tick.
        await new Promise((resolve) => setTimeout(resolve, pollMs));
        continue;
      }
      // Jobs already done when we started (an earlier run of the same file) are not this run's rate.
      baseline ??= batch.total - batch.added > 0 ? finished.completed : 0;
      state.skipped = baseline;
      state.done = finished.completed - baseline;
      state.failed = finished.failedIds.length;
      if (finished.pending === 0) break;
      options.progress?.update(state);
      await new Promise((resolve) => setTimeout(resolve, pollMs));
    }

    const failures: Array<JobFailure & { line: number }> = [];
    for (const id of finished.failedIds) {
      const job = await queue.getJob(id);
      if (!job) continue;
      failures.push({ line: (job.data as QueueJobData).lineNumber, ...decodeFailure(job.failedReason) });
    }
    failures.sort((a, b) => a.line - b.line);
    const outDir = path.resolve(options.outDir);
    await mkdir(outDir, { recursive: true });
    await writeAtomic(
      outDir,
      'errors.jsonl',
      failures.map((f) => JSON.stringify({ line: f.line, status: f.status, error: f.error })).join('\n') +
        (failures.length ? '\n' : ''),
    );
    options.progress?.finish(state);
    return { ...state, errorsFile: path.join(outDir, 'errors.jsonl'), finishedAt: Date.now() };
  });
}
