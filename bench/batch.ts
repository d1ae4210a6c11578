/**
 * Batch throughput on 2 worker threads against 1 (goal: at least 1.7x), on a
 * mixed jobs file of fills and Markdown generations, measured in the same run.
 * Both runs include thread start-up, as a user's batch would; a second row times the jobs alone.
 * CPU beside wall time (bench/cpu.ts): per job, in the worker threads, in V8's and libuv's helper
 * threads and on the main thread, and what the CPU per thread makes of the ratio on an idle
 * machine, so a loaded machine can be told from a bottleneck.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { runBatch } from '../src/batch/index.js';
import { demoTemplate } from '../examples/demo-template.js';
import { CpuWatch, idleRatio } from './cpu.js';
import { ensureBundle } from './startup.js';
import type { BenchRow } from './types.js';

export async function writeMixedJobs(dir: string, count: number): Promise<string> {
  const template = await demoTemplate();
  await writeFile(path.join(dir, 'form.pdf'), template.pdf as Uint8Array);
  const { pdf: _pdf, ...rest } = template;
  await writeFile(path.join(dir, 'form.json'), JSON.stringify({ ...rest, pdf: 'form.pdf' }));
  const lines: string[] = [];
  for (let i = 0; i < count; i++) {
    lines.push(
      i % 2 === 0
        ? JSON.stringify({
            id: `fill-${i}`,
            template: 'form.json',
            request: {
              data: {
                name: { firstName: 'Ada', lastName: `Lovelace ${i}` },
                ssn: '123456789',
                salary: i * 10.5,
                agree: i % 4 === 0,
                notes: `Job ${i}: ${'lorem ipsum '.repeat(20)}`,
              },
            },
          })
        : JSON.stringify({
            id: `md-${i}`,
            request: {
              includeTimestamp: false,
              data: [
                { heading: `Report ${i}` },
                { content: `Paragraph **${i}**. ${'Words and more words. '.repeat(60)}` },
                {
                  table: {
                    rows: [
                      ['a', 'b', 'c'],
                      ['1', '2', '3'],
                      ['4', '5', '6'],
                    ],
                  },
                },
              ],
            },
          }),
    );
  }
  const file = path.join(dir, 'jobs.jsonl');
  await writeFile(file, lines.join('\n') + '\n');
  return file;
}

export async function run(): Promise<BenchRow[]> {
  // Threads start from the bundle, as an installed castpress's do, never from the sources through tsx.
  ensureBundle(['worker-entry.mjs']);
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-batch-'));
  try {
    const jobs = await writeMixedJobs(dir, Number(process.env.BENCH_BATCH_JOBS ?? 2000));
    const timed = async (workers: number) => {
      const watch = new CpuWatch();
      const s = await runBatch({ jobsFile: jobs, outDir: path.join(dir, `out-${workers}`), workers, resume: false });
      const cpu = watch.stop();
      if (s.failed > 0) throw new Error(`${s.failed} batch jobs failed (see ${s.errorsFile})`);
      return { done: s.done, jobsMs: s.finishedAt - s.startedAt, cpu };
    };
    const one = await timed(1);
    const two = await timed(2);
    const rate = (r: typeof one) => r.done / (r.cpu.wallMs / 1000);
    const perJob = (r: typeof one, ms: number) => ms / r.done;
    const cores = os.availableParallelism();
    return [
      {
        name: 'batch throughput, 2 workers vs 1 (mixed fill + Markdown, start-up included)',
        value: rate(two),
        unit: 'jobs/s',
        baseline: rate(one),
        ratio: rate(two) / rate(one),
        goal: '>= 1.7',
      },
      {
        name: 'batch throughput, jobs only (threads warm)',
        value: two.done / (two.jobsMs / 1000),
        unit: 'jobs/s',
        baseline: one.done / (one.jobsMs / 1000),
        ratio: one.jobsMs / two.jobsMs,
      },
      {
        name: 'batch CPU per job (every thread, start-up included), 2 workers vs 1',
        value: perJob(two, two.cpu.totalMs),
        unit: 'ms',
        baseline: perJob(one, one.cpu.totalMs),
        ratio: two.cpu.totalMs / one.cpu.totalMs,
      },
      {
        name: 'batch CPU per job in worker threads, 2 workers vs 1',
        value: perJob(two, two.cpu.newThreadsMs),
        unit: 'ms',
        baseline: perJob(one, one.cpu.newThreadsMs),
        ratio: two.cpu.newThreadsMs / one.cpu.newThreadsMs,
      },
      {
        name: "batch CPU per job in V8's GC/compiler threads and libuv's pool, 2 workers vs 1",
        value: perJob(two, two.cpu.helpersMs),
        unit: 'ms',
        baseline: perJob(one, one.cpu.helpersMs),
        ratio: two.cpu.helpersMs / one.cpu.helpersMs,
      },
      {
        name: 'batch main thread share of CPU, 2 workers vs 1',
        value: (100 * two.cpu.mainMs) / two.cpu.totalMs,
        unit: '%',
        baseline: (100 * one.cpu.mainMs) / one.cpu.totalMs,
      },
      {
        name: 'batch cores busy (CPU / wall), 2 workers vs 1',
        value: two.cpu.totalMs / two.cpu.wallMs,
        unit: 'cores',
        baseline: one.cpu.totalMs / one.cpu.wallMs,
      },
      {
        name: `batch 2 workers vs 1 expected on an idle machine of ${cores} cores (from CPU per thread)`,
        value: idleRatio(one.cpu, two.cpu, cores),
        unit: 'x',
      },
      {
        name: `batch 2 workers vs 1 expected with one CPU-bound process beside it (${cores - 1} core left)`,
        value: idleRatio(one.cpu, two.cpu, Math.max(1, cores - 1)),
        unit: 'x',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
