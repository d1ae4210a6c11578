/**
 * The queue against the in-process pool, on the same mixed jobs file (fills and
 * Markdown pages): jobs/s with 1 and 2 `castpress worker` processes (one engine
 * thread each) on BullMQ over a private redis-server, against `runBatch` with 1
 * and 2 threads, measured in the same run. Goal: the queue's overhead at most 10%
 * of the pool's throughput at equal workers (ratio >= 0.9). Both exclude start-up:
 * the pool's clock starts once its threads are warm, the queue's once its workers
 * say they are ready (enqueueing is counted).
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enqueueBatch, runBatch, watchBatch } from '../src/batch/index.js';
import { exited, RedisServer, waitForOutput } from '../test/helpers/redis.js';
import { writeMixedJobs } from './batch.js';
import type { BenchRow } from './types.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'castpress.js');

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-queue-'));
  await mkdir(path.join(dir, 'redis'));
  const redis = await RedisServer.start(path.join(dir, 'redis'));
  try {
    const jobs = await writeMixedJobs(dir, Number(process.env.BENCH_QUEUE_JOBS ?? 1000));

    const pool = async (threads: number) => {
      const s = await runBatch({
        jobsFile: jobs,
        outDir: path.join(dir, `pool-${threads}`),
        workers: threads,
        resume: false,
      });
      if (s.failed > 0) throw new Error(`${s.failed} pool jobs failed (see ${s.errorsFile})`);
      return s.done / ((s.finishedAt - s.startedAt) / 1000);
    };

    const queue = async (processes: number) => {
      const name = `bench-${processes}`;
      const out = path.join(dir, `queue-${processes}`);
      const workers = Array.from({ length: processes }, () =>
        spawn(
          process.execPath,
          [bin, 'worker', '--queue', redis.url, '--name', name, '--out', out, '--concurrency', '1'],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        ),
      );
      try {
        await Promise.all(workers.map((w) => waitForOutput(w, /ready on/, 60_000)));
        const start = Date.now();
        const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: name });
        const s = await watchBatch({ connection: redis.url, batch, outDir: out, pollMs: 50 });
        if (s.failed > 0) throw new Error(`${s.failed} queue jobs failed (see ${s.errorsFile})`);
        return s.done / ((s.finishedAt - start) / 1000);
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        await Promise.all(workers.map((w) => exited(w)));
      }
    };

    const pool1 = await pool(1);
    const queue1 = await queue(1);
    const pool2 = await pool(2);
    const queue2 = await queue(2);
    return [
      {
        name: 'queue throughput, 1 worker process vs pool of 1 thread',
        value: queue1,
        unit: 'jobs/s',
        baseline: pool1,
        ratio: queue1 / pool1,
        goal: '>= 0.9',
      },
      {
        name: 'queue throughput, 2 worker processes vs pool of 2 threads',
        value: queue2,
        unit: 'jobs/s',
        baseline: pool2,
        ratio: queue2 / pool2,
        goal: '>= 0.9',
      },
    ];
  } finally {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
