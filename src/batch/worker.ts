/**
 * Entry point of one batch worker thread. A thread is its own little process:
 * it creates its engine (fonts, template cache, one Chromium) on its first job
 * and keeps it for the thread's life.
 *
 * Only types and the error family are imported here: the engine, the job and template readers
 * and the schemas are imported by the first task that needs them, so a thread is
 * ready as soon as this file is loaded and each kind loads what it runs (a `json` task the schemas
 * only, a packet step the packet workflow besides the engine). `warm` loads the engine ahead.
 */
import path from 'node:path';
import type { Engine, EngineOptions, RenderedPdf } from '../engine/index.js';
import type { HttpResolverOptions } from '../resources/index.js';
import { isCastpressError, type ErrorBody } from '../errors/index.js';
import type { JobSpec } from './job.js';
import type { JobResult } from './run-job.js';
import type { TemplateFiles } from './templates.js';
import type { PacketOutcome, PacketStep, PacketThreadState } from './packet-task.js';
import type { TemplateOutcome, TemplateTask } from './template-task.js';
import type { Template } from '../template/index.js';
import type { GenerateRequest } from '../schema/index.js';

export interface WorkerTask {
  line: string;
  lineNumber: number;
  outDir: string;
  baseDir: string;
  /** Engine options that survive structured cloning (no functions). */
  engine: Pick<EngineOptions, 'fonts' | 'limits' | 'timeZone' | 'fontCatalogue'> & {
    templatesDir?: string;
    chromium?: EngineOptions['chromium'];
    privateKey?: string;
    /** Options of the thread's own httpResolver (a function cannot cross into a thread). */
    fetch?: HttpResolverOptions;
  };
}

/** One server request run off the event loop (`src/server/pool/render-pool.ts`): fill or Markdown generate. */
export type RequestJob =
  | {
      kind: 'fill';
      /**
       * The template's EID in the engine's template directory, or the template itself (one an
       * organization made, which the server read from its database: threads open no database).
       */
      template?: string | Template;
      versionNumber?: number;
      body: unknown;
    }
  /** A generate body, validated here. */
  | { kind: 'generate'; body: unknown }
  /** A generate request the server already validated on its event loop (`engine.parseGenerate`): rendered as it is. */
  | { kind: 'generate'; request: GenerateRequest };

export type RequestTask = RequestJob & { engine: WorkerTask['engine'] };

/** What `request` hands back: the rendered PDF (bytes, title, page count, outputFormat, problems), or the typed error. */
export type RequestOutcome = ({ ok: true } & RenderedPdf) | { ok: false; status: number; error: ErrorBody };

interface ThreadState {
  engine: Engine;
  templates: TemplateFiles;
  /** Made on the first packet step: its modules (the whole packet workflow) are not loaded by threads that only render. */
  packets?: PacketThreadState;
}

let state: Promise<ThreadState> | undefined;

async function createState(task: Pick<WorkerTask, 'engine' | 'baseDir'>): Promise<ThreadState> {
  const [{ createEngine }, { httpResolver, ResponseCache }, { TemplateFiles }] = await Promise.all([
    import('../engine/index.js'),
    import('../resources/index.js'),
    import('./templates.js'),
  ]);
  const { templatesDir, fetch, ...options } = task.engine;
  const resolver = fetch ? httpResolver(fetch, new ResponseCache()) : undefined;
  const engine = createEngine({ ...options, resolver, templates: templatesDir });
  return { engine, templates: new TemplateFiles(task.baseDir, engine) };
}

/** The thread's engine, made once; a failure to make it is not kept, so the next task tries again. */
function threadState(task: Pick<WorkerTask, 'engine' | 'baseDir'>): Promise<ThreadState> {
  state ??= createState(task).catch((e: unknown) => {
    state = undefined;
    throw e;
  });
  return state;
}

export default async function runTask(task: WorkerTask): Promise<JobResult> {
  const [{ engine, templates }, { runJobLine }] = await Promise.all([threadState(task), import('./run-job.js')]);
  return runJobLine(task.line, task.lineNumber, { engine, templates, outDir: task.outDir });
}

/** What `render` hands back: the bytes, or the typed error a job's input caused. */
export type RenderOutcome =
  { ok: true; output: string; pdf: Uint8Array } | { ok: false; output: string; status: number; error: ErrorBody };

/**
 * Renders one line without writing it (the queue worker's task: the caller decides
 * where the bytes go). A typed error is an outcome, final for this line; anything
 * else (a bug, a dead Chromium) is thrown, so the queue retries it.
 */
export async function render(task: WorkerTask): Promise<RenderOutcome> {
  const [{ engine, templates }, { outputName, parseJobLine }, { renderJob }, { TemplateFiles }] = await Promise.all([
    threadState(task),
    import('./job.js'),
    import('./run-job.js'),
    import('./templates.js'),
  ]);
  let spec: JobSpec | undefined;
  try {
    spec = parseJobLine(task.line);
    // Template files are relative to the jobs file, which differs from one batch to the next.
    const resolved =
      spec.template && TemplateFiles.isFile(spec.template)
        ? { ...spec, template: path.resolve(task.baseDir, spec.template) }
        : spec;
    const pdf = await renderJob(resolved, { engine, templates });
    return { ok: true, output: outputName(spec, task.lineNumber), pdf };
  } catch (e) {
    if (!isCastpressError(e)) throw e;
    return { ok: false, output: outputName(spec, task.lineNumber), status: e.status, error: e.toJSON() };
  }
}

/** Runs one server request; a typed error is an outcome, anything else is thrown (the pool answers 500). */
export async function request(task: RequestTask): Promise<RequestOutcome> {
  const { engine } = await threadState({ engine: task.engine, baseDir: process.cwd() });
  try {
    // Title, page count, outputFormat and the resources that did not load travel back with the PDF.
    if (task.kind === 'generate') {
      if ('body' in task) return { ok: true, ...(await engine.generateDocument(task.body)) };
      // This thread's font registry learns the catalogue families the request names (the event loop's engine fetched them for itself).
      await engine.loadCatalogueFonts(task.request);
      return { ok: true, ...(await engine.renderGenerate(task.request)) };
    }
    const options = task.versionNumber === undefined ? {} : { versionNumber: task.versionNumber };
    return { ok: true, ...(await engine.fillDocument(task.template ?? '', task.body, options)) };
  } catch (e) {
    if (!isCastpressError(e)) throw e;
    return { ok: false, status: e.status, error: e.toJSON() };
  }
}

/** One step of a signature packet (`src/server/pool/packet-work.ts`): assemble, sign or complete. */
export async function packet(task: PacketStep & { engine: WorkerTask['engine'] }): Promise<PacketOutcome> {
  const thread = await threadState({ engine: task.engine, baseDir: process.cwd() });
  const { PacketThreadState, runPacketStep } = await import('./packet-task.js');
  thread.packets ??= new PacketThreadState();
  return runPacketStep(thread.engine, thread.packets, task);
}

/** A large JSON request body (`src/server/http/json-body.ts`) parsed here rather than on the server's event loop. */
export interface JsonTask {
  bytes: Uint8Array;
  /** The property errors name (`body`, or a multipart part such as `operations`). */
  property: string;
  /** More values than this are refused: handing them back to the event loop would cost what parsing did. */
  maxValues: number;
}

export type JsonOutcome = { ok: true; value: unknown } | { ok: false; status: number; error: ErrorBody };

export async function json(task: JsonTask): Promise<JsonOutcome> {
  const { parseJsonBody } = await import('../schema/index.js');
  try {
    return { ok: true, value: parseJsonBody(new TextDecoder().decode(task.bytes), task.property, task.maxValues) };
  } catch (e) {
    if (!isCastpressError(e)) throw e;
    return { ok: false, status: e.status, error: e.toJSON() };
  }
}

/** An uploaded template's PDF made ready (src/batch/template-task.ts): no engine needed. */
export async function template(task: TemplateTask): Promise<TemplateOutcome> {
  const { runTemplateTask } = await import('./template-task.js');
  return runTemplateTask(task);
}

/** Loads the modules and creates the engine before the first job, so start-up is not counted as job time. */
export async function warm(task: WorkerTask): Promise<void> {
  await Promise.all([threadState(task), import('./job.js'), import('./run-job.js')]);
  // Stay busy briefly so the pool hands the next warm-up task to another thread.
  await new Promise((resolve) => setTimeout(resolve, 50));
}

/** Called by the pool before the thread ends, so Chromium does not outlive it. */
export async function closeWorker(): Promise<void> {
  const made = state;
  state = undefined;
  const s = await made?.catch(() => undefined);
  s?.packets?.close();
  await s?.engine.close();
}
