/**
 * What the local CA publishes (issue #31): its CRL at the address its signing certificate names as
 * CRL distribution point (`/signing/crl/<install id>.crl`, base the server's public URL), without an
 * API key (relying parties have none); and, with `--tsa local`, the built-in RFC 3161 timestamp
 * authority at `POST /tsa` (application/timestamp-query → application/timestamp-reply) behind the
 * API key, so other tools on the network can timestamp with it.
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../errors/index.js';
import {
  LocalCaRevocation,
  LocalTimestampAuthority,
  MAX_TIMESTAMP_REQUEST_BYTES,
  localCaFiles,
} from '../../signing/index.js';

export interface SigningCaRouteOptions {
  /** The data folder whose `signing/` holds the local CA. */
  dataDir: string;
  /** Serve the built-in TSA at `POST /tsa`. */
  tsa: boolean;
  /** The API key check (throws a typed 401). */
  authenticate(request: FastifyRequest): void;
  /** Makes sure the local CA exists (the packet backend creates it) before the TSA opens. */
  ready?: () => Promise<void>;
}

const INSTALL_ID = /^[0-9a-f]{16}$/;

async function installIdOf(dataDir: string): Promise<string | undefined> {
  const text = await readFile(localCaFiles(dataDir).installId, 'utf8').catch(() => undefined);
  return text !== undefined && INSTALL_ID.test(text.trim()) ? text.trim() : undefined;
}

export async function signingCaRoutes(app: FastifyInstance, options: SigningCaRouteOptions): Promise<void> {
  app.get<{ Params: { file: string } }>('/signing/crl/:file', async (request, reply) => {
    const id = await installIdOf(options.dataDir);
    // Only this install's CRL: a CA that does not exist yet (no packet sealed) has none to publish.
    if (!id || request.params.file !== `${id}.crl`) throw new NotFoundError('No such CRL', 'path');
    const ca = await LocalCaRevocation.open({ dataDir: options.dataDir }).catch(() => undefined);
    if (!ca) throw new NotFoundError('No such CRL', 'path');
    const crl = await ca.crl();
    return reply
      .type('application/pkix-crl')
      .header('cache-control', 'public, max-age=3600')
      .header('content-disposition', `attachment; filename="${id}.crl"`)
      .send(Buffer.from(crl));
  });

  if (!options.tsa) return;
  let opened: Promise<LocalTimestampAuthority> | undefined;
  const tsa = (): Promise<LocalTimestampAuthority> => {
    opened ??= (async () => {
      await options.ready?.();
      return LocalTimestampAuthority.open({ dataDir: options.dataDir });
    })();
    opened.catch(() => (opened = undefined));
    return opened;
  };
  await app.register(async (scope) => {
    // Its own media type, parsed only in this scope (the rest of the server takes JSON and multipart).
    scope.addContentTypeParser(
      'application/timestamp-query',
      { parseAs: 'buffer', bodyLimit: MAX_TIMESTAMP_REQUEST_BYTES },
      (_req, body, done) => done(null, body),
    );
    scope.addHook('onRequest', async (request) => {
      options.authenticate(request);
      const type = request.headers['content-type']?.split(';')[0]?.trim().toLowerCase();
      if (type !== 'application/timestamp-query')
        throw new UnsupportedMediaTypeError('Content-Type must be application/timestamp-query');
      const length = Number(request.headers['content-length']);
      if (length > MAX_TIMESTAMP_REQUEST_BYTES)
        throw new PayloadTooLargeError(`A timestamp request is at most ${MAX_TIMESTAMP_REQUEST_BYTES} bytes`, 'body');
    });
    scope.post('/tsa', async (request, reply) => {
      const body = request.body as Buffer;
      const answer = await (await tsa()).respond(new Uint8Array(body.buffer, body.byteOffset, body.byteLength));
      return reply.type('application/timestamp-reply').send(Buffer.from(answer));
    });
  });
}
