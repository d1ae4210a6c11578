import type { FastifyInstance } from 'fastify';
import { requestBody } from '../body.js';
import { sendPdf, titleOf, type ServerContext } from '../context.js';
import { pdfName } from '../filename.js';

export function generateRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/generate-pdf', async (request, reply) => {
    const body = await requestBody(request, ctx.multipart);
    const pdf = await ctx.engine.generate(body);
    await sendPdf(ctx, request, reply, pdf, body, pdfName(titleOf(body), 'document'));
  });
}
