import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors/index.js';
import type { ServerContext } from '../context.js';
import { contentDisposition, pdfName } from '../filename.js';

/** Serves the PDFs behind signed links. The signature is the credential: no API key is asked for. */
export function downloadRoute(app: FastifyInstance, ctx: ServerContext): void {
  app.get<{ Params: { file: string }; Querystring: { expires?: unknown; signature?: unknown } }>(
    '/download/:file',
    async (request, reply) => {
      const m = /^([A-Za-z0-9_-]+)\.pdf$/.exec(request.params.file);
      if (!m) throw new NotFoundError('No such download', 'url');
      const { bytes, name } = ctx.urlStore.open(m[1]!, request.query.expires, request.query.signature);
      await reply
        .code(200)
        .type('application/pdf')
        .header('cache-control', 'private, no-store')
        .header('content-disposition', contentDisposition(name ?? pdfName(undefined, 'document')))
        .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
    },
  );
}
