import os from 'node:os';
import { parseArgs } from 'node:util';
import { createProgressReporter, runBatch } from '../batch/index.js';

export const BATCH_USAGE = `castpress batch JOBS.jsonl --out DIR [--workers N] [--templates DIR] [--no-resume]

  One job per line: {"id"?, "kind"?: "fill"|"generate", "template"?: "form.json"|"form.pdf"|EID,
  "versionNumber"?, "request": {...}, "output"?: "name.pdf"}. Good jobs write DIR/<output|id|line-N>.pdf,
  failed ones are listed in DIR/errors.jsonl with their line number and typed error. Re-running resumes:
  lines whose output exists are skipped (--no-resume redoes everything).
  --workers N       worker threads (default: one per core, ${os.availableParallelism()} here)`;

export async function batchCommand(argv: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      out: { type: 'string' },
      workers: { type: 'string' },
      templates: { type: 'string' },
      'no-resume': { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help || positionals.length !== 1 || !values.out) {
    console.log(BATCH_USAGE);
    return values.help ? 0 : 1;
  }
  const summary = await runBatch({
    jobsFile: positionals[0],
    outDir: values.out,
    workers: values.workers ? Number(values.workers) : undefined,
    templatesDir: values.templates,
    resume: !values['no-resume'],
    progress: createProgressReporter(process.stderr),
  });
  const seconds = (summary.finishedAt - summary.startedAt) / 1000;
  console.error(`${summary.done} written, ${summary.failed} failed, ${summary.skipped} already done in ${seconds.toFixed(1)} s${summary.failed ? `; errors in ${summary.errorsFile}` : ''}`);
  return summary.failed ? 3 : 0;
}
