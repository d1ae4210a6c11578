import type { FastifyInstance } from 'fastify';
import { requestBody } from '../body.js';
import { renderFor, sendPdf, titleOf, type ServerContext } from '../context.js';
import { pdfName } from '../filename.js';
import type { ResourceProblem } from '../../resources/index.js';
import { reportResourceProblems } from '../resource-warnings.js';

export function generateRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/generate-pdf', async (request, reply) => {
    const body = await requestBody(request, ctx.multipart);
    const pool = ctx.renderPool;
    // Validated here (a fast 400); HTML goes to the engine's Chromium pool, Markdown to a worker thread.
    const html = pool === undefined || ctx.engine.parseGenerate(body).type === 'html';
    let problems: ResourceProblem[] = [];
    const onResourceProblem = (p: ResourceProblem) => problems.push(p);
    const pdf = await renderFor(ctx, request, async (signal) => {
      if (html) return ctx.engine.generate(body, { onResourceProblem });
      const done = await pool.run({ kind: 'generate', body }, signal);
      problems = done.problems;
      return done.pdf;
    });
    reportResourceProblems(request, reply, body, problems, ctx.strictResources ?? false);
    await sendPdf(ctx, request, reply, pdf, body, pdfName(titleOf(body), 'document'));
  });
}
