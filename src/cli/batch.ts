import { parseArgs } from 'node:util';
import { createProgressReporter, enqueueBatch, runBatch, watchBatch, type BatchSummary } from '../batch/index.js';
import { argumentProblem, printUsage } from './output.js';
import { BATCH_USAGE } from './usage.js';

export async function batchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      workers: { type: 'string' },
      templates: { type: 'string' },
      'no-resume': { type: 'boolean' },
      queue: { type: 'string' },
      name: { type: 'string' },
      attempts: { type: 'string' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const problem = argumentProblem('batch', ['JOBS.jsonl'], positionals, { '--out DIR': values.out });
  if (values.help || problem || !values.out) return printUsage(BATCH_USAGE, values.help === true, problem);
  let summary: BatchSummary;
  if (values.queue) {
    const batch = await enqueueBatch({
      connection: values.queue,
      jobsFile: positionals[0],
      queueName: values.name,
      attempts: values.attempts ? Number(values.attempts) : undefined,
    });
    console.error(
      `${batch.added} of ${batch.total} jobs added to queue "${batch.queueName}" (${batch.total - batch.added} were already there)`,
    );
    summary = await watchBatch({
      connection: values.queue,
      batch,
      outDir: values.out,
      progress: createProgressReporter(process.stderr),
    });
  } else {
    summary = await runBatch({
      jobsFile: positionals[0],
      outDir: values.out,
      workers: values.workers ? Number(values.workers) : undefined,
      templatesDir: values.templates,
      resume: !values['no-resume'],
      progress: createProgressReporter(process.stderr),
    });
  }
  const seconds = (summary.finishedAt - summary.startedAt) / 1000;
  console.error(
    `${summary.done} written, ${summary.failed} failed, ${summary.skipped} already done in ${seconds.toFixed(1)} s${summary.failed ? `; errors in ${summary.errorsFile}` : ''}`,
  );
  return summary.failed ? 3 : 0;
}
