import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { Template } from '../../template/index.js';
import { requestBody } from '../http/body.js';
import { jsonParserFor, renderFor, sendPdf, type ServerContext } from '../context.js';
import { pdfName } from '../replies/filename.js';
import { reportResourceProblems, reportWarnings } from '../replies/resource-warnings.js';
import { timedRender } from '../metrics.js';

/** `?versionNumber=`: omitted = latest published, -1 = working version, -2 = latest published (Node client constant). */
function parseVersionNumber(raw: unknown): number | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (typeof raw !== 'string' || !/^-?\d{1,9}$/.test(raw.trim()))
    throw ValidationError.of('versionNumber', 'Must be an integer');
  return Number(raw.trim());
}

/**
 * The template an organization made with this EID (the dashboard's store), read here so the
 * render thread gets the template itself; undefined when the EID is the engine's (its template
 * folder's, asked first: those fill without the database) or the organization has none. A version
 * it lacks is the 404, after the body's own 400s.
 */
async function ownTemplate(
  ctx: ServerContext,
  request: FastifyRequest,
  eid: string,
  versionNumber: number | undefined,
  body: unknown,
): Promise<Template | undefined> {
  const key = ctx.keys.get(request);
  if (!ctx.templates || !key || (await ctx.engine.hasTemplate(eid))) return undefined;
  try {
    return await (await ctx.templates()).find(key.organization, eid, versionNumber);
  } catch (e) {
    if (!(e instanceof NotFoundError)) throw e;
    try {
      ctx.engine.parseFill(body);
    } catch (invalid) {
      if (invalid instanceof ValidationError) throw invalid;
    }
    throw e;
  }
}

export function fillRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.post<{ Params: { file: string }; Querystring: Record<string, unknown> }>(
    '/fill/:file',
    async (request, reply) => {
      // The path is `{castEid}.pdf`; a route parameter cannot carry the suffix itself.
      const m = /^(.+)\.pdf$/.exec(request.params.file);
      if (!m)
        throw new NotFoundError(
          `No route POST ${request.url.split('?')[0]}: the path is /api/v1/fill/{castEid}.pdf`,
          'path',
        );
      const versionNumber = parseVersionNumber(request.query.versionNumber);
      const body = await requestBody(request, ctx.multipart, jsonParserFor(ctx, request));
      const pool = ctx.renderPool;
      const options = versionNumber === undefined ? {} : { versionNumber };
      const template = (await ownTemplate(ctx, request, m[1]!, versionNumber, body)) ?? m[1]!;
      const rendered = await renderFor(ctx, request, async (signal) =>
        timedRender(ctx.metrics, 'fill', () =>
          pool
            ? pool.run({ kind: 'fill', template, body, ...options }, signal)
            : ctx.engine.fillDocument(template, body, options),
        ),
      );
      reportResourceProblems(request, reply, body, rendered.problems, ctx.strictResources ?? false);
      reportWarnings(request, reply, rendered.warnings);
      // Named like the PDF's metadata title: the request's title, else the template's, else the EID.
      await sendPdf(ctx, request, reply, rendered, pdfName(rendered.title, m[1]!));
    },
  );
}
