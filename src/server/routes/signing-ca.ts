/**
 * What the local CA publishes: its CRL at the address its signing certificate names as
 * CRL distribution point (`/signing/crl/<install id>.crl`, base the server's public URL), without an
 * API key (relying parties have none); and, with `--tsa local`, the built-in RFC 3161 timestamp
 * authority at `POST /tsa` (application/timestamp-query → application/timestamp-reply) behind the
 * API key, so other tools on the network can timestamp with it.
 *
 * The CRL is signed once per `CRL_REISSUE_MS` (and again as soon as the revocation list changes),
 * not per request: anyone may ask for it, and each signature is milliseconds of CPU. Its nextUpdate is
 * days after its thisUpdate, so the copy served is always current.
 *
 * The TSA answers a key as its organization's settings say (`timestampAuthority` in `--org`):
 * production keys by default, development keys only when the organization allows them (a development
 * key is a test credential; tokens it gets carry the same authority as a production key's).
 */
import { readFile } from 'node:fs/promises';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CastpressError, NotFoundError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../../errors/index.js';
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
  /** The API key check (throws a typed 401): the key's kind and organization. */
  authenticate(request: FastifyRequest): { kind: 'development' | 'production'; organization: string };
  /** Whether the TSA answers keys of this kind of this organization (default: production keys only). */
  tsaAllows?: (key: { kind: 'development' | 'production'; organization: string }) => boolean;
  /** Makes sure the local CA exists (the packet backend creates it) before the TSA opens. */
  ready?: () => Promise<void>;
  /** Clock in epoch milliseconds (the CRL's thisUpdate and its reissue); default Date.now. */
  now?: () => number;
}

/** How long one signed CRL is served before the next is signed. */
const CRL_REISSUE_MS = 3_600_000;

/** The CRL as last signed, and when; signed again once the interval is over or the revocation list changed. */
class PublishedCrl {
  #ca: LocalCaRevocation | undefined;
  #held: { crl: Buffer; issuedAt: number; revoked: string } | undefined;
  #signing: Promise<{ crl: Buffer; issuedAt: number; revoked: string }> | undefined;

  constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** The current CRL and how many more seconds it is served; undefined while the CA does not exist. */
  async current(): Promise<{ crl: Buffer; maxAgeSeconds: number } | undefined> {
    this.#ca ??= await LocalCaRevocation.open({ dataDir: this.dataDir, clock: () => new Date(this.now()) }).catch(
      () => undefined,
    );
    const ca = this.#ca;
    if (!ca) return undefined;
    const revoked = JSON.stringify(await ca.revoked());
    const now = this.now();
    const held = this.#held;
    const fresh = (h: typeof held) =>
      h !== undefined && h.revoked === revoked && now >= h.issuedAt && now < h.issuedAt + CRL_REISSUE_MS;
    let current = fresh(held) ? held! : undefined;
    if (!current) {
      // Requests arriving while it is signed wait for that one signature.
      this.#signing ??= ca
        .crl()
        .then((der) => (this.#held = { crl: Buffer.from(der), issuedAt: now, revoked }))
        .finally(() => (this.#signing = undefined));
      current = await this.#signing;
    }
    return {
      crl: current.crl,
      maxAgeSeconds: Math.max(0, Math.ceil((current.issuedAt + CRL_REISSUE_MS - now) / 1000)),
    };
  }
}

const INSTALL_ID = /^[0-9a-f]{16}$/;

async function installIdOf(dataDir: string): Promise<string | undefined> {
  const text = await readFile(localCaFiles(dataDir).installId, 'utf8').catch(() => undefined);
  return text !== undefined && INSTALL_ID.test(text.trim()) ? text.trim() : undefined;
}

export async function signingCaRoutes(app: FastifyInstance, options: SigningCaRouteOptions): Promise<void> {
  const published = new PublishedCrl(options.dataDir, options.now ?? Date.now);
  app.get<{ Params: { file: string } }>('/signing/crl/:file', async (request, reply) => {
    const id = await installIdOf(options.dataDir);
    // Only this install's CRL: a CA that does not exist yet (no packet sealed) has none to publish.
    if (!id || request.params.file !== `${id}.crl`) throw new NotFoundError('No such CRL', 'path');
    const current = await published.current();
    if (!current) throw new NotFoundError('No such CRL', 'path');
    return reply
      .type('application/pkix-crl')
      .header('cache-control', `public, max-age=${current.maxAgeSeconds}`)
      .header('content-disposition', `attachment; filename="${id}.crl"`)
      .send(current.crl);
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
      const key = options.authenticate(request);
      if (!(options.tsaAllows ?? ((k) => k.kind === 'production'))(key)) {
        const message = `The timestamp authority does not answer ${key.kind} keys of this organization`;
        throw new CastpressError('ForbiddenError', 403, message, [{ message, property: 'authorization' }]);
      }
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
