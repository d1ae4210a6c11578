import type { FastifyReply, FastifyRequest } from 'fastify';
import { problemEntries, strictResourceError, warningText, type ResourceProblem } from '../resources/index.js';

/** Response header naming each remote resource that did not load: `<property>: <kind> not loaded (<reason>)`. */
export const RESOURCE_WARNING_HEADER = 'X-Castpress-Resource-Warning';

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
