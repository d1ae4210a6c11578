import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { hostname, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  createQueueWorker,
  enqueueBatch,
  outputName,
  parseJobLine,
  sweepTemporaries,
  watchBatch,
  writeAtomic,
  type RenderedJob,
} from '../src/batch/index.js';
import { ValidationError } from '../src/errors/index.js';
import { writeMixedJobs } from '../bench/batch.js';
import { pageText } from './helpers/pdf.js';
import { exited, RedisServer, waitForOutput } from './helpers/redis.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'castpress.js');

let dir: string;
let redis: RedisServer;
const children: ChildProcess[] = [];
beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'castpress-queue-'));
  await mkdir(path.join(dir, 'redis'));
  redis = await RedisServer.start(path.join(dir, 'redis'));
});
afterAll(async () => {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await redis?.stop();
  await rm(dir, { recursive: true, force: true });
});

const md = (i: number) =>
  JSON.stringify({
    id: `doc-${i}`,
    request: {
      title: `Doc ${i}`,
      includeTimestamp: false,
      logo: false,
      data: [{ heading: `Document ${i}` }, { content: `Body of **${i}**.` }],
    },
  });

describe('queue (BullMQ on a private redis-server)', () => {
  it('hands bytes to a custom handler, retries a crash with back-off, fails a typed error once, and adds a file only once', async () => {
    const jobs = path.join(dir, 'lib.jsonl');
    await writeFile(jobs, [md(1), md(2), JSON.stringify({ request: { data: [] } }), md(4)].join('\n') + '\n');
    const received: RenderedJob[] = [];
    const attempts = new Map<number, number>();
    const worker = await createQueueWorker({
      connection: redis.url,
      queueName: 'lib',
      handler: async (job) => {
        const n = (attempts.get(job.lineNumber) ?? 0) + 1;
        attempts.set(job.lineNumber, n);
        if (job.lineNumber === 2 && n < 3) throw new Error('disk full (transient)');
        if (job.lineNumber === 4) throw ValidationError.of('output', 'The sink refuses this one');
        received.push(job);
      },
    });
    try {
      const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: 'lib', backoffMs: 50 });
      expect(batch).toMatchObject({ total: 4, added: 4 });
      const summary = await watchBatch({ connection: redis.url, batch, outDir: path.join(dir, 'lib-out'), pollMs: 50 });
      expect(summary).toMatchObject({ total: 4, done: 2, failed: 2 });
      expect(received.map((j) => j.output).sort()).toEqual(['doc-1.pdf', 'doc-2.pdf']);
      expect((await pageText(received.find((j) => j.lineNumber === 1)!.pdf))[0]).toContain('Document 1');
      // The crash was retried until it passed; the typed errors ran once.
      expect(attempts.get(2)).toBe(3);
      expect(attempts.get(4)).toBe(1);
      const errors = (await readFile(summary.errorsFile, 'utf8'))
        .trim()
        .split('\n')
        .map(
          (l) =>
            JSON.parse(l) as {
              line: number;
              status: number;
              error: { name: string; fields: Array<{ property: string }> };
            },
        );
      expect(errors).toMatchObject([
        { line: 3, status: 400, error: { name: 'ValidationError', fields: [{ property: 'data' }] } },
        { line: 4, status: 400, error: { name: 'ValidationError', fields: [{ property: 'output' }] } },
      ]);
      const again = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: 'lib' });
      expect(again).toMatchObject({ total: 4, added: 0, jobIds: batch.jobIds });
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('retries a render that times out, with back-off, up to the limit, then lists it as a 500', async () => {
    const jobs = path.join(dir, 'slow.jsonl');
    await writeFile(jobs, md(1) + '\n');
    const failures: string[] = [];
    const worker = await createQueueWorker({
      connection: redis.url,
      queueName: 'slow',
      outDir: path.join(dir, 'slow-out'),
      jobTimeoutMs: 1,
      onJob: (e) => !e.ok && failures.push(e.reason ?? ''),
    });
    try {
      const batch = await enqueueBatch({
        connection: redis.url,
        jobsFile: jobs,
        queueName: 'slow',
        attempts: 3,
        backoffMs: 20,
      });
      const summary = await watchBatch({
        connection: redis.url,
        batch,
        outDir: path.join(dir, 'slow-out'),
        pollMs: 50,
      });
      expect(summary).toMatchObject({ done: 0, failed: 1 });
      expect(failures).toEqual(['Timed out after 1 ms', 'Timed out after 1 ms', 'Timed out after 1 ms']);
      const [entry] = (await readFile(summary.errorsFile, 'utf8'))
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as unknown);
      expect(entry).toEqual({
        line: 1,
        status: 500,
        error: { name: 'WorkerError', message: 'Timed out after 1 ms', fields: [] },
      });
      expect(await readdir(path.join(dir, 'slow-out'))).toEqual(['errors.jsonl']);
    } finally {
      await worker.close();
    }
  }, 60_000);

  it('stops a worker gracefully on SIGTERM: running jobs finish and are acknowledged, the rest wait for another worker', async () => {
    const jobs = path.join(dir, 'graceful.jsonl');
    // Enough jobs that the first worker (concurrency 1, stopped at its first file) cannot finish them all;
    // the second worker renders the rest, so more only costs time (1,000 took ~20 s of the file's minute).
    const total = 200;
    await writeFile(jobs, Array.from({ length: total }, (_, i) => md(i + 1)).join('\n') + '\n');
    const out = path.join(dir, 'graceful-out');
    const start = async () => {
      const child = spawn(process.execPath, [bin, 'worker', '--queue', redis.url, '--name', 'graceful', '--out', out], {
        cwd: dir,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      children.push(child);
      // A generous ceiling: a worker starting on a busy machine is slow, not broken; a failure shows its output.
      await waitForOutput(child, /ready on graceful/, 300_000);
      return child;
    };
    const first = await start();
    const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: 'graceful' });
    while ((await readdir(out)).filter((f) => f.endsWith('.pdf')).length === 0)
      await new Promise((r) => setTimeout(r, 20));
    first.kill('SIGTERM');
    expect(await exited(first)).toBe(0);

    const { Queue } = await import('bullmq');
    const { Redis } = await import('ioredis');
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('graceful', { connection });
    const counts = await queue.getJobCounts('active', 'completed', 'failed', 'wait');
    await queue.close();
    await connection.quit();
    const files = await readdir(out);
    // Nothing left active (locked by a worker that is gone), every finished job has its file, and no more.
    expect(counts).toMatchObject({ active: 0, failed: 0 });
    expect(counts.completed).toBeGreaterThan(0);
    expect(counts.completed).toBeLessThan(total);
    expect(files.filter((f) => f.endsWith('.pdf')).length).toBe(counts.completed);
    expect(files.filter((f) => !f.endsWith('.pdf'))).toEqual([]);

    const second = await start();
    const summary = await watchBatch({ connection: redis.url, batch, outDir: out, pollMs: 50 });
    expect(summary).toMatchObject({ done: total, failed: 0 });
    second.kill('SIGINT');
    expect(await exited(second)).toBe(0);
  }, 600_000);

  it('polls a batch at a cost that follows what finished, not how many jobs it holds', async () => {
    // Counted in Redis's own command log: every job id the watcher asks about (ZMSCORE's arguments).
    // The jobs are held in the handler until the watcher has polled `polls` times, so the polls that
    // find nothing new are many whatever the machine's speed.
    const total = 300;
    const polls = 45;
    const lines = Array.from({ length: total }, (_, i) =>
      i % 100 === 7 ? JSON.stringify({ request: { data: [] } }) : md(i + 1),
    );
    const jobs = path.join(dir, 'poll.jsonl');
    await writeFile(jobs, lines.join('\n') + '\n');
    let release!: () => void;
    const gate = new Promise<void>((resolve) => (release = resolve));
    const written: string[] = [];
    const worker = await createQueueWorker({
      connection: redis.url,
      queueName: 'poll',
      handler: async (job) => {
        await gate;
        written.push(job.output);
      },
    });
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: 'poll' });
      await admin.config('SET', 'slowlog-log-slower-than', '0');
      await admin.config('SET', 'slowlog-max-len', '1000000');
      await admin.slowlog('RESET');
      let updates = 0;
      const summary = await watchBatch({
        connection: redis.url,
        batch,
        outDir: path.join(dir, 'poll-out'),
        pollMs: 5,
        progress: { update: () => void (++updates === polls && release()), finish: () => undefined },
      });
      expect(summary).toMatchObject({ total, done: total - 3, failed: 3, skipped: 0 });
      expect(written.length).toBe(total - 3);
      const errors = (await readFile(summary.errorsFile, 'utf8')).trim().split('\n');
      expect(errors.map((l) => (JSON.parse(l) as { line: number }).line)).toEqual([8, 108, 208]);

      const log = (await admin.slowlog('GET', -1)) as Array<[number, number, number, string[]]>;
      let asked = 0;
      for (const [, , , args] of log) {
        if (args[0].toLowerCase() !== 'zmscore') continue;
        // Redis keeps 32 arguments of a command and counts the rest in the last one.
        const more = /^\.\.\. \((\d+) more arguments\)$/.exec(args[args.length - 1]);
        asked += (more ? args.length - 1 + Number(more[1]) : args.length) - 2;
      }
      expect(updates).toBeGreaterThanOrEqual(polls);
      // Asking every id of both sets on every poll is 2 x total per poll; a full pass over the jobs
      // still pending every twentieth poll is a tenth of that.
      expect(asked / updates).toBeLessThan(total / 2);
    } finally {
      release();
      await admin.config('SET', 'slowlog-log-slower-than', '10000');
      await admin.quit();
      await worker.close();
    }
  }, 120_000);

  it('counts a job that a worker with a slow clock finished, scored below what the watcher has read', async () => {
    // No worker: the test finishes the jobs itself in BullMQ's completed set, as a worker would, with the
    // finish time of a clock an hour behind, after a job of another batch finished now.
    const jobs = path.join(dir, 'late.jsonl');
    await writeFile(jobs, [md(1), md(2), md(3)].join('\n') + '\n');
    const { Redis } = await import('ioredis');
    const admin = new Redis(redis.url, { maxRetriesPerRequest: null });
    try {
      const batch = await enqueueBatch({ connection: redis.url, jobsFile: jobs, queueName: 'late' });
      await admin.zadd('bull:late:completed', Date.now(), 'another-batch-1');
      let finishing: Promise<unknown> | undefined;
      const summary = await watchBatch({
        connection: redis.url,
        batch,
        outDir: path.join(dir, 'late-out'),
        pollMs: 5,
        progress: {
          update: () =>
            void (finishing ??= Promise.all(
              batch.jobIds.map((id) => admin.zadd('bull:late:completed', Date.now() - 3_600_000, id)),
            )),
          finish: () => undefined,
        },
      });
      await finishing;
      expect(summary).toMatchObject({ total: 3, done: 3, failed: 0 });
    } finally {
      await admin.quit();
    }
  });

  it('removes temporary files of dead processes on this host, never those of live ones', async () => {
    const out = path.join(dir, 'sweep');
    await mkdir(out);
    await writeAtomic(out, 'kept.pdf', 'whole');
    const host = hostname().replace(/[^\w-]/g, '_');
    const dead = spawn(process.execPath, ['-e', '0']);
    await exited(dead);
    await writeFile(path.join(out, `a.pdf.~${host}~${dead.pid}~0-0.part`), 'half');
    await writeFile(path.join(out, `b.pdf.~${host}~${process.pid}~0-9.part`), 'being written');
    await writeFile(path.join(out, `c.pdf.~other_host~${dead.pid}~0-0.part`), 'another machine');
    expect(await sweepTemporaries(out)).toBe(1);
    expect((await readdir(out)).sort()).toEqual([
      `b.pdf.~${host}~${process.pid}~0-9.part`,
      `c.pdf.~other_host~${dead.pid}~0-0.part`,
      'kept.pdf',
    ]);
  });

  it('runs a batch on two worker processes through a SIGKILL and a Redis restart: one output per good line, typed failures listed, no temporary files', async () => {
    // 500 jobs by default (small fills and Markdown pages; QUEUE_TEST_JOBS=2000 runs 2,000, ~15 s of two
    // workers' CPU; the count is not what is tested). 500 check the same: worker a is killed and Redis restarted once half the outputs exist, with
    // a's job in flight and the other half still queued, whatever the count; each job beyond that only renders.
    const count = Number(process.env.QUEUE_TEST_JOBS ?? 500);
    const work = path.join(dir, 'e2e');
    await mkdir(work);
    const jobsFile = await writeMixedJobs(work, count);
    const lines = (await readFile(jobsFile, 'utf8')).trim().split('\n');
    // Every 10th line fails with a typed error: bad request, missing template file, bad output name.
    const broken = [
      JSON.stringify({ request: { data: [] } }),
      JSON.stringify({ template: 'missing.json', request: { data: {} } }),
      JSON.stringify({ output: '../escape.pdf', request: { data: [{ content: 'x' }] } }),
    ];
    for (let i = 9; i < lines.length; i += 10) lines[i] = broken[((i / 10) % 3) | 0];
    await writeFile(jobsFile, lines.join('\n') + '\n');
    const failing = lines.flatMap((_, i) => ((i + 1) % 10 === 0 ? [i + 1] : []));
    const expected = lines.flatMap((l, i) => ((i + 1) % 10 === 0 ? [] : [outputName(parseJobLine(l), i + 1)])).sort();

    const out = path.join(work, 'out');
    const startWorker = async () => {
      const child = spawn(
        process.execPath,
        [
          bin,
          'worker',
          '--queue',
          redis.url,
          '--name',
          'e2e',
          '--out',
          out,
          '--concurrency',
          '1',
          '--lock',
          '2000',
          '--stalled',
          '1000',
        ],
        { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
      );
      children.push(child);
      await waitForOutput(child, /ready on e2e/, 300_000);
      return child;
    };
    const [a, b] = await Promise.all([startWorker(), startWorker()]);
    const producer = spawn(
      process.execPath,
      [bin, 'batch', jobsFile, '--queue', redis.url, '--name', 'e2e', '--out', out, '--attempts', '6'],
      { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(producer);
    let producerLog = '';
    producer.stderr?.on('data', (d: Buffer) => (producerLog += d.toString()));
    const producerExit = exited(producer);

    const pdfs = async () => (await readdir(out).catch(() => [] as string[])).filter((f) => f.endsWith('.pdf')).length;
    while ((await pdfs()) < expected.length / 2) await new Promise((r) => setTimeout(r, 100));
    a.kill('SIGKILL');
    await redis.restart();
    // Worker b alone finishes the batch: it reconnects, and takes over the job a was running.
    expect(await producerExit).toBe(3);
    expect(producerLog).toMatch(new RegExp(`${count - failing.length} written, ${failing.length} failed`));

    // Graceful stop; b also removes what the killed worker may have left half-written.
    b.kill('SIGTERM');
    expect(await exited(b)).toBe(0);

    const files = (await readdir(out)).sort();
    expect(files.filter((f) => f.endsWith('.pdf'))).toEqual(expected);
    expect(files.filter((f) => !f.endsWith('.pdf'))).toEqual(['errors.jsonl']);
    const errors = (await readFile(path.join(out, 'errors.jsonl'), 'utf8'))
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { line: number; status: number; error: { name: string } });
    expect(errors.map((e) => e.line)).toEqual(failing);
    expect(errors.every((e) => e.status === 400 && e.error.name === 'ValidationError')).toBe(true);
    expect(
      (await pageText(new Uint8Array(await readFile(path.join(out, expected[expected.length - 1])))))[0].length,
    ).toBeGreaterThan(0);

    // The job a held when it died went back to the queue through BullMQ's stalled-job check.
    const { Queue } = await import('bullmq');
    const { Redis } = await import('ioredis');
    const connection = new Redis(redis.url, { maxRetriesPerRequest: null });
    const queue = new Queue('e2e', { connection });
    const stalled = (await queue.getCompleted(0, -1)).filter((j) => j.stalledCounter > 0);
    await queue.close();
    await connection.quit();
    expect(stalled.length).toBeGreaterThanOrEqual(1);

    // Running the producer again adds nothing and finds the batch finished.
    const again = spawn(
      process.execPath,
      [bin, 'batch', jobsFile, '--queue', redis.url, '--name', 'e2e', '--out', out],
      { cwd: work, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    children.push(again);
    let againLog = '';
    again.stderr?.on('data', (d: Buffer) => (againLog += d.toString()));
    expect(await exited(again)).toBe(3);
    expect(againLog).toMatch(new RegExp(`0 of ${count} jobs added`));
  }, 900_000);
});
