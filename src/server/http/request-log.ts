import type { FastifyInstance, FastifyReply } from 'fastify';
// A segment of a link token's shape (32 random bytes in base64url, as signing and embed links carry) is
// redacted on any path: a token in a path no route reads as a secret parameter is not logged either.
import { TOKEN_SHAPE } from '../../dashboard/index.js';

/** Route parameters whose value is a secret: a path segment carrying one is logged as `[redacted]`. */
const SECRET_PARAM = /token|secret|signature/i;
const REDACTED = '[redacted]';

/** What a log line needs of a request; fastify's request has it (params once routed, in every hook that logs). */
export interface LoggedRequest {
  method?: string;
  url?: string;
  ip?: string;
  params?: unknown;
}

function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/**
 * The path a log line shows: never the query (it holds the signing and download links' `token`, a
 * workflow link's `t` or `c`), and a segment that is the value of a secret route parameter
 * (`/dashboard/embed/:token`, a single-use embed link) or has a token's shape replaced by `[redacted]`, so an access log
 * holds no link that still opens something.
 */
export function loggedPath(req: LoggedRequest): string {
  const path = (req.url ?? '').split('?')[0]!;
  const params = req.params && typeof req.params === 'object' ? Object.entries(req.params) : [];
  const secrets = new Set(
    params.filter(([k, v]) => SECRET_PARAM.test(k) && typeof v === 'string' && v !== '').map(([, v]) => v),
  );
  return path
    .split('/')
    .map((segment) => {
      const value = decoded(segment);
      return secrets.has(value) || TOKEN_SHAPE.test(value) ? REDACTED : segment;
    })
    .join('/');
}

/** The serializers of the request log: method, path (`loggedPath`), client address and status, nothing else. */
export const requestLogSerializers = {
  req: (req: LoggedRequest) => ({ method: req.method, path: loggedPath(req), ip: req.ip }),
  res: (res: { statusCode?: number }) => ({ statusCode: res.statusCode }),
};

/** The level an answer is logged at: what a client got wrong is a warning, what the server got wrong an error. */
function answerLevel(statusCode: number): 'info' | 'warn' | 'error' {
  return statusCode >= 500 ? 'error' : statusCode >= 400 ? 'warn' : 'info';
}

/**
 * One line when a request arrives (info) and one when it is answered, at the level of its status
 * (`answerLevel`), in place of fastify's own pair, which logs every answer at info: an operator
 * filtering on warn and above then sees the refused requests, and on error the failures. The same
 * fields as fastify's (`req`, `res`, `responseTime`), through the app's serializers.
 */
export function logRequests(app: FastifyInstance): void {
  app.addHook('onRequest', async (request) => {
    request.log.info({ req: request }, 'incoming request');
  });
  app.addHook('onResponse', async (request, reply: FastifyReply) => {
    request.log[answerLevel(reply.statusCode)]({ res: reply, responseTime: reply.elapsedTime }, 'request completed');
  });
}
