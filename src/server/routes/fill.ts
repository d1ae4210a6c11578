import type { FastifyInstance } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import { requestBody } from '../body.js';
import { renderFor, sendPdf, titleOf, type ServerContext } from '../context.js';
import { pdfName } from '../filename.js';
import type { ResourceProblem } from '../../resources/index.js';
import { reportResourceProblems } from '../resource-warnings.js';

/** `?versionNumber=`: omitted = latest published, -1 = working version, -2 = latest published (Node client constant). */
export function parseVersionNumber(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw.trim())) throw ValidationError.of('versionNumber', 'Must be an integer');
  return Number(raw.trim());
}

export function fillRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { file: string }; Querystring: Record<string, unknown> }>('/fill/:file', async (request, reply) => {
    // The path is `{castEid}.pdf`; a route parameter cannot carry the suffix itself.
    const m = /^(.+)\.pdf$/.exec(request.params.file);
    if (!m) throw new NotFoundError(`No route POST ${request.url.split('?')[0]}: the path is /api/v1/fill/{castEid}.pdf`, 'path');
    const versionNumber = parseVersionNumber(request.query.versionNumber);
    const body = await requestBody(request, ctx.multipart);
    let templateTitle: string | undefined;
    const onTemplate = (t: { title?: string }) => {
      templateTitle = t.title;
    };
    const pool = ctx.renderPool;
    let problems: ResourceProblem[] = [];
    const onResourceProblem = (p: ResourceProblem) => problems.push(p);
    const pdf = await renderFor(ctx, request, async (signal) => {
      if (!pool) return ctx.engine.fill(m[1]!, body, { onTemplate, onResourceProblem, ...(versionNumber === undefined ? {} : { versionNumber }) });
      const done = await pool.run(versionNumber === undefined ? { kind: 'fill', template: m[1]!, body } : { kind: 'fill', template: m[1]!, versionNumber, body }, signal);
      templateTitle = done.templateTitle;
      problems = done.problems;
      return done.pdf;
    });
    reportResourceProblems(request, reply, body, problems, ctx.strictResources ?? false);
    // Named like the PDF's metadata title: the request's title, else the template's, else the EID.
    await sendPdf(ctx, request, reply, pdf, body, pdfName(titleOf(body) ?? templateTitle, m[1]!));
  });
}
