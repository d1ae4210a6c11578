import os from 'node:os';
import { parseArgs } from 'node:util';
import { createProgressReporter, DEFAULT_QUEUE_NAME, enqueueBatch, runBatch, watchBatch, type BatchSummary } from '../batch/index.js';
import { printUsage } from './output.js';

export const BATCH_USAGE = `castpress batch JOBS.jsonl --out DIR [--workers N] [--templates DIR] [--no-resume]
castpress batch JOBS.jsonl --queue redis://HOST:PORT/DB --out DIR [--name QUEUE] [--attempts N]

  One job per line: {"id"?, "kind"?: "fill"|"generate", "template"?: "form.json"|"form.pdf"|EID,
  "versionNumber"?, "request": {...}, "output"?: "name.pdf"}. Good jobs write DIR/<output|id|line-N>.pdf,
  failed ones are listed in DIR/errors.jsonl with their line number and typed error. Re-running resumes:
  lines whose output exists are skipped (--no-resume redoes everything).
  --workers N       worker threads (default: one per core, ${os.availableParallelism()} here)
  --queue URL       put the lines on a BullMQ queue in Redis instead, for \`castpress worker\` processes on
                    any number of machines; shows progress until every job is done or failed, then writes
                    DIR/errors.jsonl. Job ids come from the file's content and line: running it again adds nothing.
  --name QUEUE      queue name (default "${DEFAULT_QUEUE_NAME}")
  --attempts N      runs of a job that crashes or times out, with exponential back-off (default 4);
                    a typed error (bad input) fails the job at once`;

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
  if (values.help || positionals.length !== 1 || !values.out) {
    return printUsage(BATCH_USAGE, values.help === true);
  }
  let summary: BatchSummary;
  if (values.queue) {
    const batch = await enqueueBatch({ connection: values.queue, jobsFile: positionals[0], queueName: values.name, attempts: values.attempts ? Number(values.attempts) : undefined });
    console.error(`${batch.added} of ${batch.total} jobs added to queue "${batch.queueName}" (${batch.total - batch.added} were already there)`);
    summary = await watchBatch({ connection: values.queue, batch, outDir: values.out, progress: createProgressReporter(process.stderr) });
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
  console.error(`${summary.done} written, ${summary.failed} failed, ${summary.skipped} already done in ${seconds.toFixed(1)} s${summary.failed ? `; errors in ${summary.errorsFile}` : ''}`);
  return summary.failed ? 3 : 0;
}
