import { parseArgs } from 'node:util';
import { createQueueWorker, DEFAULT_QUEUE_NAME } from '../batch/index.js';
import { argumentProblem, printUsage } from './output.js';
import { WORKER_USAGE } from './usage.js';

export async function workerCommand(argv: string[]): Promise<number> {
  const { values } = parseArgs({
    args: argv,
    options: {
      queue: { type: 'string' },
      out: { type: 'string' },
      concurrency: { type: 'string' },
      name: { type: 'string' },
      templates: { type: 'string' },
      timeout: { type: 'string' },
      lock: { type: 'string' },
      stalled: { type: 'string' },
      verbose: { type: 'boolean', short: 'v' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  const problem = argumentProblem('worker', [], [], {
    '--queue redis://HOST:PORT/DB': values.queue,
    '--out DIR': values.out,
  });
  if (values.help || problem || !values.queue || !values.out)
    return printUsage(WORKER_USAGE, values.help === true, problem);
  const num = (v: string | undefined) => (v === undefined ? undefined : Number(v));
  let done = 0;
  let failed = 0;
  const worker = await createQueueWorker({
    connection: values.queue,
    queueName: values.name,
    outDir: values.out,
    concurrency: num(values.concurrency),
    engine: { templatesDir: values.templates },
    jobTimeoutMs: num(values.timeout),
    lockDurationMs: num(values.lock),
    stalledIntervalMs: num(values.stalled),
    onJob: (e) => {
      if (e.ok) done++;
      else failed++;
      if (values.verbose)
        console.error(`${e.ok ? 'done' : 'failed'} line ${e.lineNumber}${e.reason ? `: ${e.reason}` : ''}`);
    },
  });
  const stopped = new Promise<void>((resolve) => {
    const stop = (signal: string) => {
      console.error(`castpress worker ${process.pid}: ${signal}, finishing the running jobs`);
      resolve();
    };
    process.once('SIGTERM', () => stop('SIGTERM'));
    process.once('SIGINT', () => stop('SIGINT'));
  });
  // Ready only once a signal finishes the running jobs: a supervisor may stop the worker the moment it reads this.
  console.error(`castpress worker ${process.pid} ready on ${values.name ?? DEFAULT_QUEUE_NAME}`);
  await stopped;
  await worker.close();
  console.error(`castpress worker ${process.pid} stopped: ${done} done, ${failed} failed`);
  return 0;
}
