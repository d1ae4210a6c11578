import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FieldError } from '../../errors/index.js';
import { problemEntries, strictResourceError, warningText, type ResourceProblem } from '../../resources/index.js';

/** Response header naming each remote resource that did not load: `<property>: <kind> not loaded (<reason>)`. */
export const RESOURCE_WARNING_HEADER = 'X-Castpress-Resource-Warning';

/**
 * Response header naming each thing a caller may have got wrong that did not stop the request: a
 * fill's data key that names no field (`data.nmae: no field has the id or alias "nmae" (did you mean
 * "name"?)`). The same name as a packet's warnings header.
 */
const WARNING_HEADER = 'X-Castpress-Warning';

/** Header-safe text (printable ASCII, bounded). */
export const headerText = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);

/**
 * A resource that did not load is never silent: one warn log line each
 * (property, kind and reason; the URL and its host stay out of the log, they
 * are payload data), and a warning header per resource. With `strict`, the
 * request is a 400 on the properties instead.
 */
export function reportResourceProblems(
  request: FastifyRequest,
  reply: FastifyReply,
  body: unknown,
  problems: readonly ResourceProblem[],
  strict: boolean,
): void {
  if (problems.length === 0) return;
  const entries = problemEntries(body, problems);
  for (const e of entries)
    request.log.warn({ property: e.property, kind: e.kind, reason: e.reason }, 'remote resource not loaded');
  if (strict) throw strictResourceError(entries);
  void reply.header(
    RESOURCE_WARNING_HEADER,
    entries.map((e) => headerText(warningText(e))),
  );
}

/** A fill's warnings (`RenderedPdf.warnings`): one warn log line each (the property, never the value) and a header per warning. */
export function reportWarnings(request: FastifyRequest, reply: FastifyReply, warnings: readonly FieldError[]): void {
  if (warnings.length === 0) return;
  for (const w of warnings) request.log.warn({ property: w.property }, 'data key names no field');
  void reply.header(
    WARNING_HEADER,
    warnings.map((w) => headerText(`${w.property}: ${w.message}`)),
  );
}
