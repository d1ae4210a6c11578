/**
 * Embedded editing across sites (the hosted API's embedded PDF template builder): the caller's
 * backend asks for a short-lived, single-use URL of one template's editor with its API key
 * (`generateEmbedURL`, over GraphQL), and opening it — in a frame of the caller's page — starts a
 * dashboard session limited to that template, in a cookie a cross-site frame is sent
 * (`castpress_embed`: `SameSite=None; Secure; Partitioned`). The link's token is kept as its SHA-256
 * only, expires, and is deleted by the request that uses it. A limited session reaches that
 * template's editor, versions and their API calls; another template is a 404, anything else a 403.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { CastpressError, NotFoundError, ValidationError } from '../../errors/index.js';
import type { TemplateCatalogue } from '../../template/index.js';
import { embedCookie, type DashboardKey, type Session, type Sessions } from './sessions.js';

/** The one builder this server embeds (the hosted API's name for the PDF template editor). */
export const EMBED_TYPE = 'edit-pdf-template';
/** A link not used within this long expires (the hosted API's example asks for ten minutes). */
export const DEFAULT_EMBED_VALID_SECONDS = 10 * 60;
/** The longest a link may wait: it is a credential until used. */
export const MAX_EMBED_VALID_SECONDS = 24 * 60 * 60;

/** What `generateEmbedURL` answers. */
export interface EmbedUrl {
  url: string;
  /** The link's public id (not the token). */
  requestTokenEid: string;
  /** When the link stops working unused (ISO 8601). */
  expiresAt: string;
}

function forbidden(message: string, property: string): CastpressError {
  return new CastpressError('ForbiddenError', 403, message, [{ message, property }]);
}

/** Makes the links: checks the arguments and that the template is the key's organization's. */
export class EmbedLinks {
  readonly #sessions: Sessions;
  readonly #catalogue: () => Promise<TemplateCatalogue>;

  constructor(sessions: Sessions, catalogue: () => Promise<TemplateCatalogue>) {
    this.#sessions = sessions;
    this.#catalogue = catalogue;
  }

  /**
   * `generateEmbedURL(eid, type, validForSeconds, metadata, options)` for `key`; `base` is the
   * server's public address. `metadata` and `options` are accepted (the hosted API's arguments) and
   * not used: the editor has one layout.
   */
  async generate(key: DashboardKey, args: Record<string, unknown>, base: string): Promise<EmbedUrl> {
    const problems: Array<{ property: string; message: string }> = [];
    const eid = args.eid;
    if (typeof eid !== 'string' || eid.length === 0 || eid.length > 200)
      problems.push({ property: 'eid', message: "Must be a template's EID" });
    if (args.type !== EMBED_TYPE)
      problems.push({ property: 'type', message: `Must be "${EMBED_TYPE}": the one builder this server embeds` });
    const valid = args.validForSeconds ?? DEFAULT_EMBED_VALID_SECONDS;
    if (typeof valid !== 'number' || !Number.isInteger(valid) || valid < 1 || valid > MAX_EMBED_VALID_SECONDS)
      problems.push({
        property: 'validForSeconds',
        message: `Must be a whole number of seconds from 1 to ${MAX_EMBED_VALID_SECONDS}`,
      });
    if (problems.length > 0) throw new ValidationError(problems);
    // Another organization's template is the store's 404, as everywhere.
    await (await this.#catalogue()).record(key.organization, eid as string);
    const link = await this.#sessions.issueEmbedToken(key, eid as string, (valid as number) * 1000);
    return {
      url: `${base.replace(/\/+$/, '')}/dashboard/embed/${link.token}`,
      requestTokenEid: link.eid,
      expiresAt: new Date(link.expiresAt).toISOString(),
    };
  }
}

const LOOPBACK = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Whether a browser keeps a `Secure` cookie from this request: over https, or from a loopback host
 * (browsers count `http://localhost` and `http://127.0.0.1` as secure for cookies).
 */
export function keepsSecureCookie(request: FastifyRequest): boolean {
  return request.protocol === 'https' || LOOPBACK.has(request.hostname.toLowerCase());
}

/**
 * `GET /dashboard/embed/:token`: uses the link and sends the frame on to the template's editor. Over
 * plain http to any host but loopback it answers 403 before the link is used: the browser would drop
 * the cookie, and the link would be spent on a page that is not signed in.
 */
export function embedLanding(app: FastifyInstance, sessions: Sessions): void {
  app.get<{ Params: { token: string } }>('/dashboard/embed/:token', async (request, reply) => {
    if (!keepsSecureCookie(request))
      throw forbidden(
        'Embedded editing needs https: a browser keeps the cross-site session cookie only from https (or loopback)',
        'protocol',
      );
    const { session, cookie } = await sessions.openEmbedded(request.params.token);
    const eid = session.templateEid!;
    return reply
      .header('set-cookie', embedCookie(cookie, Math.floor(sessions.ttlMs / 1000)))
      .header('cache-control', 'no-store')
      .header('referrer-policy', 'no-referrer')
      .redirect(`/dashboard/templates/${encodeURIComponent(eid)}`, 303);
  });
}

/** The template a path of the dashboard's API is about (`/dashboard/api/templates/:eid…`), if any. */
function templateOfApiPath(path: string): { eid: string; rest: string } | undefined {
  const m = /^\/dashboard\/api\/templates\/([^/?#]+)(\/[^?#]*)?$/.exec(path);
  if (!m || m[1] === 'import') return undefined;
  let eid: string;
  try {
    eid = decodeURIComponent(m[1]!);
  } catch {
    return undefined;
  }
  return { eid, rest: m[2] ?? '' };
}

/** What a limited session may do to its template: edit, publish, preview and read it; not delete or copy it. */
const ALLOWED = [
  /^GET (|\/pdf|\/proposals|\/versions\/-?\d+|\/diff|\/export)$/,
  /^PUT \/working$/,
  /^PATCH $/,
  /^POST (\/publish|\/preview)$/,
];

/** Refuses an API request a limited session may not make: 404 for another template, 403 for anything else. */
export function checkEmbeddedApi(request: FastifyRequest, session: Session): void {
  const scope = session.templateEid;
  if (scope === undefined) return;
  const path = request.url.split('?')[0]!;
  const target = templateOfApiPath(path);
  if (target && target.eid !== scope) throw new NotFoundError(`No template "${target.eid}"`, 'eid');
  const method = request.method === 'HEAD' ? 'GET' : request.method;
  if (target && ALLOWED.some((r) => r.test(`${method} ${target.rest.replace(/\/$/, '')}`))) return;
  throw outsideEmbed();
}

/** The pages a limited session may open: its template's editor and versions. */
export function embeddedPageAllowed(url: string, session: Session): boolean {
  if (session.templateEid === undefined) return true;
  const m = /^\/dashboard\/templates\/([^/?#]+)(\/versions)?\/?(?:[?#].*)?$/.exec(url);
  if (!m) return false;
  try {
    return decodeURIComponent(m[1]!) === session.templateEid;
  } catch {
    return false;
  }
}

/** The 403 of a limited session outside its template. */
export function outsideEmbed(): CastpressError {
  return forbidden('This session was opened by an embed link: it edits one template only', 'path');
}
