import type { FastifyInstance } from 'fastify';
import { requestBody } from '../http/body.js';
import { jsonParserFor, renderFor, sendPdf, type ServerContext } from '../context.js';
import { pdfName } from '../replies/filename.js';
import { reportResourceProblems } from '../replies/resource-warnings.js';
import { timedRender } from '../metrics.js';

export function generateRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post('/generate-pdf', async (request, reply) => {
    const body = await requestBody(request, ctx.multipart, jsonParserFor(ctx, request));
    const pool = ctx.renderPool;
    // Validated here (a fast 400); HTML goes to the engine's Chromium pool, Markdown to a worker thread.
    // Families from the font catalogue (if configured) before validation asks for them.
    await ctx.engine.loadCatalogueFonts(body);
    const parsed = ctx.engine.parseGenerate(body);
    // Rendered from what was just validated, here or on a thread: the body is validated once.
    const rendered = await renderFor(ctx, request, async (signal) =>
      timedRender(ctx.metrics, parsed.type, () =>
        !pool
          ? ctx.engine.renderGenerate(parsed)
          : parsed.type === 'markdown'
            ? pool.run({ kind: 'generate', request: parsed }, signal)
            : // Chromium's pages are taken by organizations in turn, as the threads are.
              pool.html(() => ctx.engine.renderGenerate(parsed), signal),
      ),
    );
    reportResourceProblems(request, reply, body, rendered.problems, ctx.strictResources ?? false);
    await sendPdf(ctx, request, reply, rendered, pdfName(rendered.title, 'document'));
  });
}
