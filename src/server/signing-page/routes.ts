/**
 * The signing page at the URL `generateEtchSignURL` makes (`/sign/{signerEid}?token=…`):
 * the token is the signer's credential (no API key). Submission is a JSON POST from the
 * page itself: cross-site forms cannot send `application/json` without a CORS preflight
 * (which this server never grants), and a foreign `Origin` is refused outright.
 */
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { isCastpressError, ValidationError } from '../../errors/index.js';
import { SignerError, signerDownloadUrl, type OrganizationDirectory, type SignerEvent } from '../../packets/index.js';
import type { LazyPacketBackend } from '../graphql/index.js';
import { contentDisposition, pdfName } from '../replies/filename.js';
import { signingAssetRoutes } from './assets.js';
import { errorPage, signingPage } from './page.js';
import type { DetailsRequest, HandOverRequest, SigningAnswer, SubmitRequest, Untrusted } from './client/contract.js';
import { allowedStylesheet, cspOrigin } from '../replies/stylesheet-origin.js';
import { pageHeaders } from '../replies/page-headers.js';
import { frameAncestorsFor, stylesheetOriginsFor } from '../org/index.js';

export interface SigningRoutesOptions {
  backend: LazyPacketBackend;
  /**
   * Origins allowed to frame the page (CSP frame-ancestors) besides the server itself: for an email
   * signer's page, the only ones; for an embedded signer's page (any origin by default), the list it
   * is narrowed to unless the organization lists its own (../org/policy.ts).
   */
  frameAncestors?: readonly string[];
  /** Origins besides the page's own that `signaturePageOptions.style.stylesheetURL` may name; none: any https origin. */
  stylesheetOrigins?: readonly string[];
  /** Each organization's settings (`--org`): their embed and stylesheet origins replace the two above. */
  organizations?: OrganizationDirectory;
  /** The server's public address (`--public-url`): the page's origin, which the page's own posts carry. */
  publicUrl?: string;
  /** The server's own origin (../stylesheet-origin.ts `serverOrigin`): a relative or same-origin stylesheet's. */
  origin?: () => string | undefined;
}

/**
 * What the signing page posts, bounded whatever the server's JSON limit for fills is (413 on `body`;
 * nesting is bounded for every JSON body, see ../json.ts): a submission is a drawing (the page's
 * strokes run to tens of KB) and the list of accepted boxes, details a name and an email.
 */
const SIGNER_BODY_BYTES = { submit: 1024 * 1024, details: 16 * 1024 } as const;

type Params = { signerEid: string };
type Query = { token?: unknown; withinIframe?: unknown };

function headers(
  reply: FastifyReply,
  nonce: string,
  frameAncestors: readonly string[],
  styleOrigin?: string,
): FastifyReply {
  return pageHeaders(
    reply,
    // pdf.js: its module is imported by the nonced script (the nonce carries over), its worker is
    // this server's file (worker-src), fonts it loads from the PDF's bytes; the page's own marks are data: images.
    `default-src 'none'; script-src 'nonce-${nonce}'; style-src 'nonce-${nonce}'${styleOrigin ? ` ${styleOrigin}` : ''}; connect-src 'self'; img-src 'self' data: blob:; font-src 'self' data:; worker-src 'self'; form-action 'none'; base-uri 'none'; frame-ancestors ${frameAncestors.join(' ')}`,
  );
}

/** The redirect URL with the spec's query parameters. */
function redirectTo(url: string, event: SignerEvent): string {
  const u = new URL(url);
  // null is sent as an empty value: the last signer's redirect still names nextSignerEid (there is none).
  for (const [k, v] of Object.entries(event)) if (v !== undefined) u.searchParams.set(k, v === null ? '' : String(v));
  return u.toString();
}

function errorEvent(e: unknown, signerEid: string): { status: number; event: SignerEvent } {
  if (e instanceof SignerError)
    return {
      status: e.status,
      event: { action: 'signerError', signerEid, errorType: e.errorType, error: e.title, message: e.message },
    };
  if (isCastpressError(e))
    return {
      status: e.status,
      event: { action: 'signerError', signerEid, errorType: 'unknown', error: e.name, message: e.message },
    };
  return {
    status: 500,
    event: { action: 'signerError', signerEid, errorType: 'unknown', error: 'Error', message: 'Internal error' },
  };
}

/** A POST's failure as the page reads it (`extra` beside the event), logged when it is the server's fault. */
function failed(
  request: FastifyRequest,
  reply: FastifyReply,
  e: unknown,
  signerEid: string,
  what: string,
  extra: Omit<SigningAnswer, 'event'> = {},
): FastifyReply {
  const { status, event } = errorEvent(e, signerEid);
  if (status >= 500) request.log.error({ err: e }, what);
  return reply.code(status).send({ event, ...extra } satisfies SigningAnswer);
}

/**
 * A browser posting from another site sends its Origin; the page's own posts carry this server's:
 * scheme, host and port of the public URL, or of the request itself (its scheme, and the Host the browser
 * sent). An https page of another server on the same host name, or another port, is another origin.
 */
function foreignOrigin(request: FastifyRequest, publicUrl: string | undefined): boolean {
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  try {
    const from = new URL(origin).origin;
    if (publicUrl && from === new URL(publicUrl).origin) return false;
    return !request.headers.host || from !== new URL(`${request.protocol}://${request.headers.host}`).origin;
  } catch {
    return true;
  }
}

const crossSite = (signerEid: string): SignerEvent => ({
  action: 'signerError',
  signerEid,
  errorType: 'unknown',
  error: 'Forbidden',
  message: 'Cross-site submission refused',
});

export function signingRoutes(app: FastifyInstance, options: SigningRoutesOptions): void {
  const frameAncestors = (options.frameAncestors ?? []).map((o) => cspOrigin(o, 'Frame ancestor'));
  const stylesheetOrigins = (options.stylesheetOrigins ?? []).map((o) => cspOrigin(o, 'Stylesheet origin'));
  const token = (q: Query) => (typeof q.token === 'string' ? q.token : '');
  signingAssetRoutes(app);

  app.get<{ Params: Params; Querystring: Query }>('/sign/:signerEid', async (request, reply) => {
    const nonce = randomBytes(16).toString('base64');
    // Until the signer is known (an error page says nothing about the packet and offers nothing to
    // click): framed as an embedded signer's page would be, so an app framing it learns of the error.
    headers(reply, nonce, frameAncestorsFor(undefined, undefined, frameAncestors)).type('text/html; charset=utf-8');
    const service = await options.backend.service();
    const signerEid = request.params.signerEid;
    const withinIframe = request.query.withinIframe === 'true';
    try {
      // The audit trail records each opening with the request's IP and user agent.
      const session = await service.openSigning(
        { signerEid, token: token(request.query) },
        { ip: request.ip, userAgent: request.headers['user-agent'] },
      );
      const settings = options.organizations?.(session.packet.organization);
      const ancestors = frameAncestorsFor(session.signer.signerType, settings, frameAncestors);
      headers(reply, nonce, ancestors);
      if (session.signer.status === 'completed') {
        // A finished signer's link (the one they signed with; their others ended then): the status, the
        // completed documents once everyone has signed, and inside a frame the app is told (signerError).
        const complete = session.packet.status === 'complete';
        const message = `${session.signer.name ?? 'This signer'} has signed "${session.packet.name}". ${
          complete ? 'Everyone has signed: the signed documents are below.' : 'Nothing is left to do here.'
        }`;
        const where = await service.redirectFor(signerEid);
        const event: SignerEvent = {
          ...where?.event,
          action: 'signerError',
          signerEid,
          errorType: 'unknown',
          error: 'Already signed',
          message,
        };
        const link = (index?: number) => signerDownloadUrl('', signerEid, token(request.query), index);
        return reply.send(
          errorPage('Already signed', message, nonce, {
            post: { withinIframe, event, redirect: null },
            ...(complete
              ? {
                  downloads: [
                    ...(session.documents.length > 1 ? [{ label: 'All documents (zip)', url: link() }] : []),
                    ...session.documents.map((d) => ({ label: d.title ?? d.filename, url: link(d.index) })),
                  ],
                }
              : {}),
          }),
        );
      }
      const wanted = (session.packet.signaturePageOptions as { style?: { stylesheetURL?: string } } | undefined)?.style
        ?.stylesheetURL;
      const stylesheet = wanted
        ? allowedStylesheet(
            wanted,
            options.origin?.() ?? (options.publicUrl ? new URL(options.publicUrl).origin : undefined),
            stylesheetOriginsFor(settings, stylesheetOrigins),
          )
        : undefined;
      if (wanted && !stylesheet)
        request.log.warn(
          { packet: session.packet.eid },
          "stylesheetURL left out: neither this server's origin nor an allowed stylesheet origin",
        );
      if (stylesheet) headers(reply, nonce, ancestors, new URL(stylesheet).origin);
      return reply.send(
        signingPage(session, {
          token: token(request.query),
          nonce,
          withinIframe,
          ...(stylesheet ? { stylesheet } : {}),
          ...(settings ? { organization: { name: settings.name, logo: settings.logo, style: settings.style } } : {}),
        }),
      );
    } catch (e) {
      const { status, event: error } = errorEvent(e, signerEid);
      if (status >= 500) request.log.error({ err: e }, 'signing page failed');
      // The spec: the signerError carries where the signer stands, except for an invalid token or an
      // unknown signer (only the error parameters and signerEid); a signer with a redirectURL is sent
      // there with it. Inside a frame the page first posts it to the app, then follows the redirect.
      const where = await service.redirectFor(signerEid).catch(() => undefined);
      const bare = e instanceof SignerError && (e.errorType === 'tokenInvalid' || e.errorType === 'notFound');
      const event: SignerEvent = bare ? error : { ...where?.event, ...error };
      const redirect = e instanceof SignerError && where?.url ? redirectTo(where.url, event) : null;
      if (redirect && !withinIframe) return reply.redirect(redirect, 303);
      return reply
        .code(status)
        .send(
          errorPage(error.error ?? 'Error', error.message ?? '', nonce, { post: { withinIframe, event, redirect } }),
        );
    }
  });

  app.get<{ Params: Params & { index: string }; Querystring: Query }>(
    '/sign/:signerEid/documents/:index',
    async (request, reply) => {
      // The signing page's framing rule (its errors too): no other site frames a document opened from the page.
      reply.header('content-security-policy', `frame-ancestors ${["'self'", ...frameAncestors].join(' ')}`);
      const service = await options.backend.service();
      const index = Number(request.params.index);
      if (!Number.isInteger(index) || index < 0) throw ValidationError.of('index', 'Must be a document number');
      const doc = await service.signerDocument(
        { signerEid: request.params.signerEid, token: token(request.query) },
        index,
      );
      return reply
        .header('cache-control', 'no-store')
        .header('referrer-policy', 'no-referrer')
        .type('application/pdf')
        .header('content-disposition', contentDisposition(pdfName(doc.filename, 'document')))
        .send(Buffer.from(doc.pdf.buffer, doc.pdf.byteOffset, doc.pdf.byteLength));
    },
  );

  // The signer's own name/email (allowNameChange / allowEmailChange), before finishing.
  app.post<{ Params: Params }>(
    '/sign/:signerEid/details',
    { bodyLimit: SIGNER_BODY_BYTES.details },
    async (request, reply) => {
      const signerEid = request.params.signerEid;
      if (foreignOrigin(request, options.publicUrl))
        return reply.code(403).send({ event: crossSite(signerEid) } satisfies SigningAnswer);
      const body = (request.body ?? {}) as Untrusted<DetailsRequest>;
      const service = await options.backend.service();
      try {
        const change: { name?: string; email?: string } = {};
        if (typeof body.name === 'string') change.name = body.name;
        if (typeof body.email === 'string') change.email = body.email;
        // Both are refused by the service unless the signer may change them (or must enter them on opening).
        await service.updateOwnDetails({ signerEid, token: typeof body.token === 'string' ? body.token : '' }, change);
        return reply.code(200).send({ ok: true });
      } catch (e) {
        return failed(request, reply, e, signerEid, 'signer details failed');
      }
    },
  );

  // In person: the name typed on the hand-over step; the documents and the submission wait for it.
  app.post<{ Params: Params }>(
    '/sign/:signerEid/hand-over',
    { bodyLimit: SIGNER_BODY_BYTES.details },
    async (request, reply) => {
      const signerEid = request.params.signerEid;
      if (foreignOrigin(request, options.publicUrl))
        return reply.code(403).send({ event: crossSite(signerEid) } satisfies SigningAnswer);
      const body = (request.body ?? {}) as Untrusted<HandOverRequest>;
      const service = await options.backend.service();
      try {
        await service.confirmHandOver(
          { signerEid, token: typeof body.token === 'string' ? body.token : '' },
          body.name,
        );
        return reply.code(200).send({ ok: true });
      } catch (e) {
        return failed(request, reply, e, signerEid, 'hand-over failed');
      }
    },
  );

  app.post<{ Params: Params }>(
    '/sign/:signerEid/submit',
    { bodyLimit: SIGNER_BODY_BYTES.submit },
    async (request: FastifyRequest<{ Params: Params }>, reply) => {
      const signerEid = request.params.signerEid;
      if (foreignOrigin(request, options.publicUrl))
        return reply.code(403).send({ event: crossSite(signerEid), redirect: null } satisfies SigningAnswer);
      const body = (request.body ?? {}) as Untrusted<SubmitRequest>;
      const service = await options.backend.service();
      try {
        const event = await service.submitSigning({
          signerEid,
          token: typeof body.token === 'string' ? body.token : '',
          inputs: {
            signature: body.signature as never,
            ...(body.initials !== undefined ? { initials: body.initials as never } : {}),
          },
          // Always given: a signer who accepts each field cannot skip their boxes by leaving it out.
          accepted: acceptedList(body.accepted),
          // The zone the page reported: checked as an IANA name by the service and only recorded.
          ...(typeof body.timeZone === 'string' ? { timeZone: body.timeZone } : {}),
          // What the page was shown: a submission for documents made again since is refused (409).
          ...(typeof body.documentsVersion === 'string' ? { documentsVersion: body.documentsVersion } : {}),
          ip: request.ip,
          userAgent: request.headers['user-agent'],
        });
        const { redirectURL, ...plain } = event;
        return reply.code(200).send({
          event: plain,
          redirect: redirectURL ? redirectTo(redirectURL, plain) : null,
        } satisfies SigningAnswer);
      } catch (e) {
        return failed(request, reply, e, signerEid, 'signing failed', { redirect: null });
      }
    },
  );
}

/** The page's list of accepted boxes; anything malformed counts as nothing accepted. */
function acceptedList(value: unknown): Array<{ document: number; fieldId: string }> {
  if (!Array.isArray(value) || value.length > 10_000) return [];
  return value.flatMap((v: unknown) => {
    const o = v as { document?: unknown; fieldId?: unknown } | null;
    return o && Number.isInteger(o.document) && typeof o.fieldId === 'string'
      ? [{ document: o.document as number, fieldId: o.fieldId }]
      : [];
  });
}
