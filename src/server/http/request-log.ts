import type { FastifyInstance, FastifyReply } from 'fastify';

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
