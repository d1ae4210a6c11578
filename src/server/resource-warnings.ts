import type { FastifyReply, FastifyRequest } from 'fastify';
import { ValidationError } from '../errors/index.js';
import { propertyOf, type ResourceProblem } from '../resources/index.js';

/** Response header naming each remote resource that did not load: `<property>: <kind> not loaded (<reason>)`. */
export const RESOURCE_WARNING_HEADER = 'X-Castpress-Resource-Warning';

/** Header-safe text (printable ASCII, bounded). */
const headerText = (s: string): string => s.replace(/[^\x20-\x7e]/g, '?').slice(0, 300);

/**
 * A resource that did not load is never silent: one warn log line each
 * (property, kind and reason; the URL and its host stay out of the log, they
 * are payload data), and a warning header per resource. With `strict`, the
 * request is a 400 on the properties instead.
 */
export function reportResourceProblems(request: FastifyRequest, reply: FastifyReply, body: unknown, problems: readonly ResourceProblem[], strict: boolean): void {
  if (problems.length === 0) return;
  const entries = problems.map((p) => {
    const property = propertyOf(body, p.url);
    let host = '';
    try {
      host = new URL(p.url).hostname;
    } catch {
      /* not a URL: nothing to hide beyond the URL itself */
    }
    const reason = host ? p.reason.split(host).join('<host>') : p.reason;
    return { property, kind: p.kind, reason };
  });
  for (const e of entries) request.log.warn({ property: e.property, kind: e.kind, reason: e.reason }, 'remote resource not loaded');
  if (strict) {
    throw new ValidationError(entries.map((e) => ({ property: e.property, message: `The ${e.kind} could not be loaded: ${e.reason}` })));
  }
  void reply.header(
    RESOURCE_WARNING_HEADER,
    entries.map((e) => headerText(`${e.property}: ${e.kind} not loaded (${e.reason})`)),
  );
}
