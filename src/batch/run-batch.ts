import { createReadStream, existsSync } from 'node:fs';
import { mkdir, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { outputName, parseJobLine } from './job.js';
import type { JobResult } from './run-job.js';
import type { WorkerTask } from './worker.js';
import { WORKER_FILE } from './worker-file.js';
import type { ProgressReporter, ProgressState } from './progress.js';

export interface BatchOptions {
  jobsFile: string;
  outDir: string;
  /** Worker threads; default: one per core. */
  workers?: number;
  /** Jobs in flight per worker (default 2: one rendering while the next is parsed). */
  perWorker?: number;
  templatesDir?: string;
  engine?: WorkerTask['engine'];
  progress?: ProgressReporter;
  /** Skip lines whose output already exists (default true): re-running resumes. */
  resume?: boolean;
}

export interface BatchSummary extends ProgressState {
  errorsFile: string;
  finishedAt: number;
}

/**
 * Runs a JSON-lines jobs file on a pool of worker threads. Good jobs write
 * `<outDir>/<name>.pdf`; failed ones go to `<outDir>/errors.jsonl` with their
 * line number and the typed error. Lines are streamed, never all in memory.
 */
export async function runBatch(options: BatchOptions): Promise<BatchSummary> {
  const outDir = path.resolve(options.outDir);
  await mkdir(outDir, { recursive: true });
  const baseDir = path.dirname(path.resolve(options.jobsFile));
  const threads = Math.max(1, options.workers ?? os.availableParallelism());
  const perWorker = Math.max(1, options.perWorker ?? 2);
  // Loaded here, not at import: `castpress` re-exports this folder's one-job functions, and a
  // process that only fills should not pay for the worker pool.
  const { Piscina } = await import('piscina');
  const pool = new Piscina<WorkerTask, JobResult>({
    filename: WORKER_FILE,
    minThreads: threads,
    maxThreads: threads,
    concurrentTasksPerWorker: perWorker,
    idleTimeout: 60_000,
  });

  const engineOptions: WorkerTask['engine'] = { ...options.engine, templatesDir: options.templatesDir };
  const warmTask: WorkerTask = { line: '', lineNumber: 0, outDir, baseDir, engine: engineOptions };
  await Promise.all(Array.from({ length: threads }, () => pool.run(warmTask, { name: 'warm' })));

  // The whole file is counted first (streamed, as the jobs are), so progress is out of every job,
  // not out of those read so far. The clock starts once the threads are ready and the count is
  // made, so rates and ETAs describe the jobs.
  const total = await countJobLines(options.jobsFile);
  const state: ProgressState = { done: 0, failed: 0, skipped: 0, total, startedAt: Date.now() };
  const failures: JobResult[] = [];
  const inFlight = new Set<Promise<void>>();
  const limit = threads * perWorker * 2;

  const lines = createInterface({ input: createReadStream(options.jobsFile, 'utf8'), crlfDelay: Infinity });
  let lineNumber = 0;
  for await (const line of lines) {
    lineNumber++;
    if (line.trim() === '') continue;
    if (options.resume !== false && existsSync(path.join(outDir, expectedOutput(line, lineNumber)))) {
      state.skipped++;
      options.progress?.update(state);
      continue;
    }
    const task: WorkerTask = { line, lineNumber, outDir, baseDir, engine: engineOptions };
    const job: Promise<void> = pool
      .run(task)
      .catch((e: unknown): JobResult => ({
        ok: false,
        line: task.lineNumber,
        output: '',
        status: 500,
        error: { name: 'WorkerError', message: e instanceof Error ? e.message : String(e), fields: [] },
      }))
      .then((r) => {
        if (r.ok) state.done++;
        else {
          state.failed++;
          failures.push(r);
        }
        options.progress?.update(state);
      })
      .finally(() => inFlight.delete(job));
    inFlight.add(job);
    if (inFlight.size >= limit) await Promise.race(inFlight);
  }
  await Promise.all(inFlight);
  // closeWorker reads no task: the warm-up's is sent, as the queue worker does.
  await Promise.all(pool.threads.map(() => pool.run(warmTask, { name: 'closeWorker' }).catch(() => undefined)));
  await pool.destroy();

  const errorsFile = path.join(outDir, 'errors.jsonl');
  failures.sort((a, b) => a.line - b.line);
  await writeFile(
    errorsFile,
    failures.map((f) => JSON.stringify(f.ok ? f : { line: f.line, status: f.status, error: f.error })).join('\n') +
      (failures.length ? '\n' : ''),
  );
  options.progress?.finish(state);
  return { ...state, errorsFile, finishedAt: Date.now() };
}

/** The jobs in a file (its non-blank lines), read line by line, never the whole file at once. */
async function countJobLines(file: string): Promise<number> {
  let count = 0;
  const lines = createInterface({ input: createReadStream(file, 'utf8'), crlfDelay: Infinity });
  for await (const line of lines) if (line.trim() !== '') count++;
  return count;
}

function expectedOutput(line: string, lineNumber: number): string {
  try {
    return outputName(parseJobLine(line), lineNumber);
  } catch {
    return outputName(undefined, lineNumber);
  }
}
