/**
 * Batch throughput on 2 worker threads against 1 (goal: at least 1.7x), on a
 * mixed jobs file of fills and Markdown generations, measured in the same run.
 * Both runs include thread start-up, as a user's batch would.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runBatch } from '../src/batch/index.js';
import { demoTemplate } from '../examples/demo-template.js';
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
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-batch-'));
  try {
    const jobs = await writeMixedJobs(dir, Number(process.env.BENCH_BATCH_JOBS ?? 2000));
    const timed = async (workers: number) => {
      const s = await runBatch({ jobsFile: jobs, outDir: path.join(dir, `out-${workers}`), workers, resume: false });
      if (s.failed > 0) throw new Error(`${s.failed} batch jobs failed (see ${s.errorsFile})`);
      return s.done / ((s.finishedAt - s.startedAt) / 1000);
    };
    const one = await timed(1);
    const two = await timed(2);
    return [
      {
        name: 'batch throughput, 2 workers vs 1 (mixed fill + Markdown)',
        value: two,
        unit: 'jobs/s',
        baseline: one,
        ratio: two / one,
        goal: '>= 1.7',
      },
    ];
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
