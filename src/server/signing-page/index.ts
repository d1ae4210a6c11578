/**
 * The signing page (spec: embedded signing, Events): `GET /sign/:signerEid?token=…`
 * serves the page, `/sign/:signerEid/documents/:index` the signer's documents as they
 * are now, `POST /sign/:signerEid/complete` the signature. Signer tokens authenticate;
 * API keys play no part here. Pages are never cached, send no referrer (the token is in
 * the URL) and may be framed only for embedded signers (the spec allows iframes only for
 * URLs from generateEtchSignURL).
 */
import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import type { FastifyInstance, FastifyReply } from 'fastify';
import { isCastpressError } from '../../errors/index.js';
import { SignerError, type PacketService, type SignerEvent } from '../../packets/index.js';
import { CLIENT_SCRIPT } from './client-script.js';
import { errorEvent, errorPage, signingPage } from './page.js';

export interface SigningPageOptions {
  service: PacketService;
  /** Named in page texts (`{{organization.name}}`). */
  organization?: string;
}

const padFile = createRequire(import.meta.url).resolve('signature_pad');

function secure(reply: FastifyReply, framable: boolean): FastifyReply {
  return reply
    .header('cache-control', 'no-store')
    .header('referrer-policy', 'no-referrer')
    .header('x-content-type-options', 'nosniff')
    .header(
      'content-security-policy',
      `default-src 'none'; script-src 'self'; style-src 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${framable ? '*' : "'none'"}`,
    );
}

const tokenOf = (query: unknown): string => {
  const t = (query as Record<string, unknown> | undefined)?.token;
  return typeof t === 'string' ? t : '';
};

/** Where a refused signer goes: their redirectURL with the error parameters (the spec), else our error page. */
async function refusal(service: PacketService, signerEid: string, e: unknown, reply: FastifyReply) {
  const signer = e instanceof SignerError ? e : undefined;
  const title = signer?.title ?? 'Something went wrong';
  const message = isCastpressError(e) ? e.message : 'The signing page could not be shown';
  const status = isCastpressError(e) ? e.status : 500;
  // For an invalid token or an unknown signer only the error parameters and signerEid are sent.
  const redirect = signer && signer.errorType !== 'tokenInvalid' && signer.errorType !== 'notFound' ? await service.redirectFor(signerEid).catch(() => undefined) : undefined;
  if (redirect) {
    const url = new URL(redirect.url);
    const params: SignerEvent = errorEvent(signerEid, signer!.errorType, title, message, redirect.event);
    for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== null) url.searchParams.set(k, String(v));
    return secure(reply, false).redirect(url.toString(), 303);
  }
  return secure(reply, false).code(status).type('text/html; charset=utf-8').send(errorPage(title, message));
}

export async function signingPageRoutes(app: FastifyInstance, options: SigningPageOptions): Promise<void> {
  const { service } = options;
  const pad = await readFile(padFile, 'utf8');

  app.get('/sign/assets/signature_pad.js', async (_req, reply) => reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(pad));
  app.get('/sign/assets/page.js', async (_req, reply) => reply.header('cache-control', 'public, max-age=3600').type('text/javascript; charset=utf-8').send(CLIENT_SCRIPT));

  app.get<{ Params: { signerEid: string }; Querystring: Record<string, string> }>('/sign/:signerEid', async (req, reply) => {
    const token = tokenOf(req.query);
    try {
      const session = await service.openSigning({ signerEid: req.params.signerEid, token });
      const html = signingPage({ session, token, withinIframe: req.query.withinIframe === 'true', organization: options.organization ?? 'castpress' });
      return secure(reply, session.signer.signerType === 'embedded').type('text/html; charset=utf-8').send(html);
    } catch (e) {
      return refusal(service, req.params.signerEid, e, reply);
    }
  });

  app.get<{ Params: { signerEid: string; index: string } }>('/sign/:signerEid/documents/:index', async (req, reply) => {
    try {
      const doc = await service.signerDocument({ signerEid: req.params.signerEid, token: tokenOf(req.query) }, Number(req.params.index));
      const name = doc.filename.replace(/["\\\r\n]/g, '_');
      return secure(reply, false).type('application/pdf').header('content-disposition', `inline; filename="${name}"`).send(Buffer.from(doc.pdf));
    } catch (e) {
      return refusal(service, req.params.signerEid, e, reply);
    }
  });

  app.post<{ Params: { signerEid: string }; Body: { token?: unknown; signature?: unknown; initials?: unknown; timeZone?: unknown } }>('/sign/:signerEid/complete', async (req, reply) => {
    const body = req.body ?? {};
    const signerEid = req.params.signerEid;
    try {
      const result = await service.submitSigning({
        signerEid,
        token: typeof body.token === 'string' ? body.token : '',
        inputs: {
          signature: body.signature as never,
          ...(body.initials !== undefined ? { initials: body.initials as never } : {}),
          ...(typeof body.timeZone === 'string' && body.timeZone.length < 100 ? { timeZone: body.timeZone } : {}),
        },
        ip: req.ip,
        userAgent: typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'].slice(0, 500) : undefined,
      });
      const { redirectURL, ...event } = result;
      return secure(reply, false).send({ event, ...(redirectURL ? { redirectURL } : {}) });
    } catch (e) {
      const signer = e instanceof SignerError ? e : undefined;
      const status = isCastpressError(e) ? e.status : 500;
      const message = isCastpressError(e) ? e.message : 'Signing failed';
      const redirect = signer && signer.errorType !== 'tokenInvalid' && signer.errorType !== 'notFound' ? await service.redirectFor(signerEid).catch(() => undefined) : undefined;
      const event = errorEvent(signerEid, signer?.errorType ?? 'unknown', signer?.title ?? (isCastpressError(e) ? e.name : 'Error'), message, redirect?.event);
      return secure(reply, false)
        .code(status)
        .send({ event, ...(isCastpressError(e) ? { fields: e.fields } : {}), ...(redirect ? { redirectURL: redirect.url } : {}) });
    }
  });
}
