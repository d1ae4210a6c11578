/**
 * The queue against the in-process pool, on the same mixed jobs file (fills and
 * Markdown pages): jobs/s with 1 and 2 `castpress worker` processes (one engine
 * thread each) on BullMQ over a private redis-server, against `runBatch` with 1
 * and 2 threads, measured in the same run. Goal: the queue's overhead at most 10%
 * of the pool's throughput at equal workers (ratio >= 0.9). Both exclude start-up:
 * the pool's clock starts once its threads are warm, the queue's once its workers
 * say they are ready (enqueueing is counted). CPU per job beside it: the producer, the worker
 * processes (their main threads apart: BullMQ, Redis and the output writer) and redis-server,
 * against the pool's whole process, so the queue's own cost shows however loaded the machine is.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { enqueueBatch, runBatch, watchBatch } from '../src/batch/index.js';
import { exited, RedisServer, waitForOutput } from '../test/helpers/redis.js';
import { writeMixedJobs } from './batch.js';
import { CpuWatch, processCpuMs, threadCpuMs } from './cpu.js';
import { ensureBundle } from './startup.js';
import type { BenchRow } from './types.js';

const bin = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', 'bin', 'castpress.js');

interface Measured {
  rate: number;
  /** CPU per job, ms: the producer (or the pool's whole process), the worker processes, redis-server. */
  producer: number;
  workers: number;
  redis: number;
  /** The worker processes' main threads (BullMQ, Redis, the output writer), ms per job. */
  workerMains: number;
  /** The busiest render thread (the pool's, or of any worker process), ms per job. */
  busiest: number;
}

/** The busiest thread but the main one of each process, in ms between two readings. */
function busiestThread(before: Map<number, number>, after: Map<number, number>, main: number): number {
  let most = 0;
  for (const [tid, ms] of after) if (tid !== main) most = Math.max(most, ms - (before.get(tid) ?? 0));
  return most;
}

export async function run(): Promise<BenchRow[]> {
  // Threads start from the bundle, as an installed castpress's do, never from the sources through tsx.
  ensureBundle(['worker-entry.mjs', 'castpress.mjs', 'castpress.cjs']);
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-queue-'));
  await mkdir(path.join(dir, 'redis'));
  const redis = await RedisServer.start(path.join(dir, 'redis'));
  const redisCpu = () => (redis.pid === undefined ? 0 : (processCpuMs(redis.pid) ?? 0));
  try {
    const jobs = await writeMixedJobs(dir, Number(process.env.BENCH_QUEUE_JOBS ?? 1000));

    const pool = async (threads: number): Promise<Measured> => {
      let started: { cpu: NodeJS.CpuUsage; watch: CpuWatch } | undefined;
      const s = await runBatch({
        jobsFile: jobs,
        outDir: path.join(dir, `pool-${threads}`),
        workers: threads,
        resume: false,
        // The clock (the summary's startedAt) starts once the threads are warm: CPU starts with it.
        progress: {
          update: () => void (started ??= { cpu: process.cpuUsage(), watch: new CpuWatch() }),
          finish: () => undefined,
        },
      });
      if (s.failed > 0) throw new Error(`${s.failed} pool jobs failed (see ${s.errorsFile})`);
      const split = started!.watch.stop();
      const cpu = process.cpuUsage(started!.cpu);
      return {
        rate: s.done / ((s.finishedAt - s.startedAt) / 1000),
        producer: (cpu.user + cpu.system) / 1000 / s.done,
        workers: 0,
        redis: 0,
        workerMains: split.mainMs / s.done,
        busiest: split.busiestNewThreadMs / s.done,
      };
    };

    const queue = async (processes: number): Promise<Measured> => {
      const name = `bench-${processes}`;
      const out = path.join(dir, `queue-${processes}`);
      const workers = Array.from({ length: processes }, () =>
        spawn(
          process.execPath,
          [bin, 'worker', '--queue', redis.url, '--name', name, '--out', out, '--concurrency', '1'],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        ),
      );
      const workerCpu = () => workers.reduce((sum, w) => sum + (processCpuMs(w.pid!) ?? 0), 0);
      const mainCpu = () => workers.reduce((sum, w) => sum + (threadCpuMs(w.pid!).get(w.pid!) ?? 0), 0);
      try {
        await Promise.all(workers.map((w) => waitForOutput(w, /ready on/, 60_000)));
        const start = Date.now();
        const threads = () => workers.map((w) => threadCpuMs(w.pid!));
        const before = {
          cpu: process.cpuUsage(),
          workers: workerCpu(),
          mains: mainCpu(),
          redis: redisCpu(),
          threads: threads(),
        };
        const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: name });
        const s = await watchBatch({ connection: redis.url, batch, outDir: out, pollMs: 50 });
        const cpu = process.cpuUsage(before.cpu);
        const after = { workers: workerCpu(), mains: mainCpu(), redis: redisCpu(), threads: threads() };
        if (s.failed > 0) throw new Error(`${s.failed} queue jobs failed (see ${s.errorsFile})`);
        return {
          rate: s.done / ((s.finishedAt - start) / 1000),
          producer: (cpu.user + cpu.system) / 1000 / s.done,
          workers: (after.workers - before.workers) / s.done,
          redis: (after.redis - before.redis) / s.done,
          workerMains: (after.mains - before.mains) / s.done,
          busiest:
            Math.max(...workers.map((w, i) => busiestThread(before.threads[i], after.threads[i], w.pid!))) / s.done,
        };
      } finally {
        for (const w of workers) w.kill('SIGTERM');
        await Promise.all(workers.map((w) => exited(w)));
      }
    };

    const total = (m: Measured) => m.producer + m.workers + m.redis;
    // As in bench/batch.ts: no faster than the busiest thread, nor than all the CPU spread over the cores.
    const cores = os.availableParallelism();
    const floor = (m: Measured, c: number) => Math.max(m.busiest, total(m) / c);
    const rows = (n: number, q: Measured, p: Measured): BenchRow[] => [
      {
        name: `queue throughput, ${n} worker process${n > 1 ? 'es' : ''} vs pool of ${n} thread${n > 1 ? 's' : ''}`,
        value: q.rate,
        unit: 'jobs/s',
        baseline: p.rate,
        ratio: q.rate / p.rate,
        goal: '>= 0.9',
      },
      {
        name: `queue CPU per job, ${n}: producer + workers + redis-server vs the pool's process`,
        value: total(q),
        unit: 'ms',
        baseline: total(p),
        ratio: total(q) / total(p),
      },
      {
        name: `queue CPU per job, ${n}: producer ${q.producer.toFixed(2)}, redis-server ${q.redis.toFixed(2)}, workers' main threads ${q.workerMains.toFixed(2)} (the pool's main thread)`,
        value: q.producer + q.redis + q.workerMains,
        unit: 'ms',
        baseline: p.workerMains,
      },
      {
        name: `queue ${n} vs pool of ${n} expected on an idle machine of ${cores} cores (from CPU per thread)`,
        value: floor(p, cores) / floor(q, cores),
        unit: 'x',
      },
      {
        name: `queue ${n} vs pool of ${n} expected with one CPU-bound process beside it`,
        value: floor(p, Math.max(1, cores - 1)) / floor(q, Math.max(1, cores - 1)),
        unit: 'x',
      },
    ];

    // The producer's modules are loaded before any clock starts, as the workers' are (start-up excluded).
    await Promise.all([import('bullmq'), import('ioredis')]);
    const pool1 = await pool(1);
    const queue1 = await queue(1);
    const pool2 = await pool(2);
    const queue2 = await queue(2);
    return [...rows(1, queue1, pool1), ...rows(2, queue2, pool2)];
  } finally {
    await redis.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
