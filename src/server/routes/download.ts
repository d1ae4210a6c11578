import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { NotFoundError, ValidationError } from '../../errors/index.js';
import type { ServerContext } from '../context.js';
import { contentDisposition, pdfName } from '../replies/filename.js';
import type { LazyPacketBackend } from '../graphql/index.js';
import { attachment, documentsZip, zipEntryNames } from '../graphql/downloads/index.js';

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

/**
 * A signer's own download of the completed documents (`/download/signer/{signerEid}?token=…`, the
 * etchComplete mail's link; the signing page of a finished signer links here too): the zip, or the
 * PDF itself when the group holds one document; `/{index}` one document. The token is the
 * credential (a download token, or the one the signer signed with); a refused one answers with the
 * signing errors' statuses (401 expired, 403 invalid, 404 unknown signer, 409 not complete yet).
 */
export function signerDownloadRoutes(app: FastifyInstance, backend: LazyPacketBackend): void {
  type Req = { Params: { signerEid: string; index?: string }; Querystring: { token?: unknown } };
  const serve = async (request: FastifyRequest<Req>, reply: FastifyReply) => {
    const service = await backend.service();
    const token = typeof request.query.token === 'string' ? request.query.token : '';
    const found = await service.signerDownloads({ signerEid: request.params.signerEid, token });
    reply.header('cache-control', 'private, no-store').header('referrer-policy', 'no-referrer');
    const one = (doc: { filename: string; pdf: Uint8Array } | undefined) => {
      if (!doc) throw ValidationError.of('index', `No document ${request.params.index ?? ''}`);
      return reply
        .code(200)
        .type('application/pdf')
        .header('content-disposition', attachment(zipEntryNames([doc.filename])[0]!))
        .send(Buffer.from(doc.pdf.buffer, doc.pdf.byteOffset, doc.pdf.byteLength));
    };
    if (request.params.index !== undefined) {
      const index = Number(request.params.index);
      return one(Number.isInteger(index) ? found.documents.find((d) => d.index === index) : undefined);
    }
    if (found.documents.length === 1) return one(found.documents[0]);
    const zip = documentsZip(found.packetName, found.groupEid, found.documents);
    return reply.code(200).type('application/zip').header('content-disposition', attachment(zip.name)).send(zip.stream);
  };
  app.get<Req>('/download/signer/:signerEid', serve);
  app.get<Req>('/download/signer/:signerEid/:index', serve);
}
