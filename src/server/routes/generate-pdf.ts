import type { FastifyInstance } from 'fastify';
import { requestBody } from '../body.js';
import { sendPdf, type ServerContext } from '../context.js';

export function generateRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/generate-pdf', async (request, reply) => {
    const body = await requestBody(request, ctx.multipart);
    const pdf = await ctx.engine.generate(body);
    await sendPdf(ctx, request, reply, pdf, body);
  });
}
