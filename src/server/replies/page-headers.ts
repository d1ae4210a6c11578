import type { FastifyReply } from 'fastify';

/**
 * The headers of an HTML page served to a person (the signing page, a workflow form): never stored, no
 * referrer passed on, no type sniffing, and `csp`, the page's content security policy.
 */
export function pageHeaders(reply: FastifyReply, csp: string): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header('content-security-policy', csp);
}
