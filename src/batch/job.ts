import { z } from 'zod';
import { ValidationError } from '../errors/index.js';
import { once, parseWith } from '../schema/index.js';

/**
 * One line of a jobs file. The job is a pure function of its line (plus the
 * files it names), so any queue (BullMQ, SQS, a shell loop) can run it.
 * Built by the first job line read: a `castpress fill` loads this module and never
 * reads one.
 */
const jobSpec = once(() =>
  z
    .object({
      /** Used for the output file name when `output` is absent. */
      id: z.union([z.string().min(1), z.number()]).optional(),
      kind: z.enum(['fill', 'generate']).optional(),
      /** fill: a template JSON file, a fillable PDF, or an EID of the engine's template store. */
      template: z.string().min(1).optional(),
      versionNumber: z.number().int().optional(),
      /** The fill or generate request body, exactly as the REST API takes it. */
      request: z.record(z.string(), z.unknown()),
      /** Output file name (a plain name, written inside the output directory). */
      output: z
        .string()
        .regex(/^[\w][\w.\- ]*$/, { error: 'Must be a plain file name (letters, digits, . - _ and spaces)' })
        .optional(),
    })
    .transform((j) => ({ ...j, kind: j.kind ?? (j.template ? 'fill' : 'generate') }))
    .refine((j) => j.kind !== 'fill' || j.template !== undefined, {
      error: 'A fill job needs a template',
      path: ['template'],
    }),
);

export type JobSpec = z.output<ReturnType<typeof jobSpec>>;

export function parseJobLine(line: string): JobSpec {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch (e) {
    throw ValidationError.of('(line)', `Not valid JSON: ${e instanceof Error ? e.message : String(e)}`);
  }
  return parseWith(jobSpec(), raw);
}

/** The file a job writes: its `output`, else `<id>.pdf`, else `line-<n>.pdf`. */
export function outputName(spec: JobSpec | undefined, lineNumber: number): string {
  if (spec?.output) return spec.output.endsWith('.pdf') ? spec.output : `${spec.output}.pdf`;
  if (spec?.id !== undefined && /^[\w.-]+$/.test(String(spec.id))) return `${spec.id}.pdf`;
  return `line-${lineNumber}.pdf`;
}
