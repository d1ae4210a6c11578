import type { Engine } from '../engine/index.js';
import { toErrorBody, type ErrorBody } from '../errors/index.js';
import { outputName, parseJobLine, type JobSpec } from './job.js';
import { TemplateFiles } from './templates.js';
import { writeAtomic } from './atomic.js';

export interface JobEnvironment {
  engine: Engine;
  templates: TemplateFiles;
  outDir: string;
}

export type JobResult =
  | { ok: true; line: number; output: string; bytes: number }
  | { ok: false; line: number; output: string; status: number; error: ErrorBody };

export async function renderJob(spec: JobSpec, env: Pick<JobEnvironment, 'engine' | 'templates'>): Promise<Uint8Array> {
  if (spec.kind === 'generate') return env.engine.generate(spec.request);
  const ref = spec.template as string;
  const template = TemplateFiles.isFile(ref) ? await env.templates.load(ref) : ref;
  return env.engine.fill(template, spec.request, { versionNumber: spec.versionNumber });
}

/**
 * Runs one line of a jobs file and writes its PDF atomically (temp file, then
 * rename), so an interrupted batch never leaves a half-written output behind
 * and a resumed one can trust what exists. Never throws: failures are results.
 */
export async function runJobLine(line: string, lineNumber: number, env: JobEnvironment): Promise<JobResult> {
  let spec: JobSpec | undefined;
  try {
    spec = parseJobLine(line);
    const pdf = await renderJob(spec, env);
    const output = outputName(spec, lineNumber);
    await writeAtomic(env.outDir, output, pdf);
    return { ok: true, line: lineNumber, output, bytes: pdf.byteLength };
  } catch (e) {
    const { status, body } = toErrorBody(e);
    return { ok: false, line: lineNumber, output: outputName(spec, lineNumber), status, error: body };
  }
}
