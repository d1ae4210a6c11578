import type { FastifyInstance } from 'fastify';
import { requestBody } from '../body.js';
import { renderFor, sendPdf, titleOf, type ServerContext } from '../context.js';
import { pdfName } from '../filename.js';

export function generateRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/generate-pdf', async (request, reply) => {
    const body = await requestBody(request, ctx.multipart);
    const pool = ctx.renderPool;
    // Validated here (a fast 400); HTML goes to the engine's Chromium pool, Markdown to a worker thread.
    const html = pool === undefined || ctx.engine.parseGenerate(body).type === 'html';
    const pdf = await renderFor(ctx, request, async (signal) =>
      html ? ctx.engine.generate(body) : (await pool.run({ kind: 'generate', body }, signal)).pdf,
    );
    await sendPdf(ctx, request, reply, pdf, body, pdfName(titleOf(body), 'document'));
  });
}
