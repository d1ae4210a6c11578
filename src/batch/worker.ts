/**
 * Entry point of one batch worker thread. A thread is its own little process:
 * it creates its engine (fonts, template cache, one Chromium) on its first job
 * and keeps it for the thread's life.
 */
import { createEngine, type Engine, type EngineOptions } from '../engine/index.js';
import { runJobLine, type JobResult } from './run-job.js';
import { TemplateFiles } from './templates.js';

export interface WorkerTask {
  line: string;
  lineNumber: number;
  outDir: string;
  baseDir: string;
  /** Engine options that survive structured cloning (no functions). */
  engine: Pick<EngineOptions, 'fonts' | 'limits' | 'timeZone'> & { templatesDir?: string; chromium?: EngineOptions['chromium'] };
}

interface ThreadState {
  engine: Engine;
  templates: TemplateFiles;
}

let state: ThreadState | undefined;

function threadState(task: WorkerTask): ThreadState {
  if (!state) {
    const { templatesDir, ...options } = task.engine;
    state = { engine: createEngine({ ...options, templates: templatesDir }), templates: new TemplateFiles(task.baseDir) };
  }
  return state;
}

export default async function runTask(task: WorkerTask): Promise<JobResult> {
  const { engine, templates } = threadState(task);
  return runJobLine(task.line, task.lineNumber, { engine, templates, outDir: task.outDir });
}

/** Loads the modules and creates the engine before the first job, so start-up is not counted as job time. */
export async function warm(task: WorkerTask): Promise<void> {
  threadState(task);
  // Stay busy briefly so the pool hands the next warm-up task to another thread.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Called by the pool before the thread ends, so Chromium does not outlive it. */
export async function closeWorker(): Promise<void> {
  const s = state;
  state = undefined;
  await s?.engine.close();
}
