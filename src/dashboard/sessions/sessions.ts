/**
 * Dashboard sessions: a person signs in with an API key of the keys file and gets an opaque
 * cookie; the session itself is kept server-side (the server database's `dashboard_sessions`,
 * so every instance on one PostgreSQL honours it and signing out ends it everywhere), holding
 * the SHA-256 of the cookie's value, the key's digest and organization, the CSRF token and the
 * expiry. Each request looks the key up again by its digest: a key taken out of the keys file
 * ends its sessions.
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AuthorizationError, CastpressError } from '../../errors/index.js';
import type { EmbedTokenRecord, SessionRecord, SessionRecords } from '../../packets/index.js';

export const SESSION_COOKIE = 'castpress_dashboard';
/**
 * The cookie of a session an embed link opened: its own name, so a cross-site cookie never replaces
 * the Strict one of a person signed in to the whole dashboard on the same browser.
 */
export const EMBED_COOKIE = 'castpress_embed';
/** The header every mutating request carries (the value GET/POST /dashboard/session gave). */
export const CSRF_HEADER = 'x-csrf-token';
/** A session lasts a working day; signing in again makes a new one. */
export const DEFAULT_SESSION_TTL_MS = 8 * 60 * 60 * 1000;

/** An API key as the dashboard knows it: never the key, only its SHA-256. */
export interface DashboardKey {
  organization: string;
  label: string;
  kind: 'development' | 'production';
  /** SHA-256 (hex) of the key. */
  digest: string;
}

/** How the dashboard finds keys: by the key a person typed, then by the digest a session keeps. */
export interface DashboardKeys {
  find(apiKey: string): DashboardKey | undefined;
  byDigest(digest: string): DashboardKey | undefined;
}

/** A signed-in request's session. */
export interface Session {
  key: DashboardKey;
  csrfToken: string;
  tokenHash: string;
  expiresAt: number;
  /** A session an embed link opened reaches this template only. */
  templateEid?: string;
}

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const token = () => randomBytes(32).toString('base64url');
/** The shape of the tokens this file makes (256 bits, base64url): anything else is not looked up, and the request log redacts it. */
export const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;

/** 403: a mutating request without the session's CSRF token. */
export class CsrfError extends CastpressError {
  constructor() {
    const message = `Missing or wrong ${CSRF_HEADER} header: send the csrfToken of GET /dashboard/session`;
    super('ForbiddenError', 403, message, [{ message, property: CSRF_HEADER }]);
  }
}

/** Sessions in memory: a server without a database (they end with the process). */
export class MemorySessions implements SessionRecords {
  readonly #byHash = new Map<string, SessionRecord>();
  readonly #embeds = new Map<string, EmbedTokenRecord>();

  async insertEmbedToken(t: EmbedTokenRecord): Promise<void> {
    this.#embeds.set(t.tokenHash, { ...t });
  }

  async takeEmbedToken(tokenHash: string): Promise<EmbedTokenRecord | undefined> {
    const t = this.#embeds.get(tokenHash);
    this.#embeds.delete(tokenHash);
    return t;
  }

  async insert(s: SessionRecord): Promise<void> {
    this.#byHash.set(s.tokenHash, { ...s });
  }

  async get(tokenHash: string): Promise<SessionRecord | undefined> {
    const s = this.#byHash.get(tokenHash);
    return s && { ...s };
  }

  async remove(tokenHash: string): Promise<void> {
    this.#byHash.delete(tokenHash);
  }

  async purge(now: number): Promise<number> {
    let n = 0;
    for (const [hash, s] of this.#byHash)
      if (s.expiresAt <= now) {
        this.#byHash.delete(hash);
        n++;
      }
    for (const [hash, t] of this.#embeds)
      if (t.expiresAt <= now) {
        this.#embeds.delete(hash);
        n++;
      }
    return n;
  }
}

/** The value of cookie `name` in a Cookie header (the first one sent). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of (header ?? '').split(';')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    if (part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}

/** The session cookie: HttpOnly, SameSite=Strict, only under /dashboard, Secure when the request came over https. */
export function sessionCookie(value: string, maxAgeSeconds: number, secure: boolean): string {
  return [
    `${SESSION_COOKIE}=${value}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=Strict',
    `Max-Age=${maxAgeSeconds}`,
    ...(secure ? ['Secure'] : []),
  ].join('; ');
}

/**
 * The cookie of an embedded editor: sent in a frame of another site, so `SameSite=None`, which a
 * browser keeps only with `Secure`; `Partitioned` keeps it in the jar of the site that frames it
 * (and lets a browser that blocks third-party cookies keep it).
 */
export function embedCookie(value: string, maxAgeSeconds: number): string {
  return [
    `${EMBED_COOKIE}=${value}`,
    'Path=/dashboard',
    'HttpOnly',
    'SameSite=None',
    'Secure',
    'Partitioned',
    `Max-Age=${maxAgeSeconds}`,
  ].join('; ');
}

export class Sessions {
  readonly #records: () => Promise<SessionRecords>;
  readonly #keys: DashboardKeys;
  readonly #now: () => number;
  readonly #ttlMs: number;

  constructor(records: () => Promise<SessionRecords>, keys: DashboardKeys, now: () => number, ttlMs: number) {
    this.#records = records;
    this.#keys = keys;
    this.#now = now;
    this.#ttlMs = ttlMs;
  }

  get ttlMs(): number {
    return this.#ttlMs;
  }

  /** A new session for the key `apiKey`, or the 401 of a key the keys file does not hold; the cookie's value with it. */
  async open(apiKey: unknown): Promise<{ session: Session; cookie: string }> {
    const key = typeof apiKey === 'string' && apiKey.length <= 1000 ? this.#keys.find(apiKey) : undefined;
    if (!key) {
      const message = 'Invalid API key.';
      throw new CastpressError('AuthorizationError', 401, message, [{ message, property: 'apiKey' }]);
    }
    const records = await this.#records();
    const now = this.#now();
    // Expired sessions go as new ones come: the table stays the size of the people signed in.
    await records.purge(now);
    return this.#start(records, key, now);
  }

  /**
   * The request's session, or the 401 of a missing, unknown or expired one (or one whose key is gone).
   * A person signed in to the whole dashboard keeps that session where an embed cookie is sent too.
   */
  async of(request: FastifyRequest): Promise<Session> {
    const values = [SESSION_COOKIE, EMBED_COOKIE].flatMap((name) => cookieValue(request.headers.cookie, name) ?? []);
    if (values.length === 0) throw new AuthorizationError('Not signed in to the dashboard.');
    for (const value of values) {
      const session = await this.#lookUp(value);
      if (session) return session;
    }
    throw new AuthorizationError('The dashboard session has ended: sign in again.');
  }

  async #lookUp(value: string): Promise<Session | undefined> {
    const records = await this.#records();
    const hash = sha256(value);
    const record = await records.get(hash);
    const key = record && this.#keys.byDigest(record.keyDigest);
    if (!record || record.expiresAt <= this.#now() || !key || key.organization !== record.organization) {
      if (record) await records.remove(hash);
      return undefined;
    }
    return {
      key,
      csrfToken: record.csrfToken,
      tokenHash: hash,
      expiresAt: record.expiresAt,
      ...(record.templateEid !== undefined ? { templateEid: record.templateEid } : {}),
    };
  }

  /**
   * A single-use link to one template's editor for `key`: its token (only the SHA-256 is kept) and
   * public id, valid for `validMs` from now.
   */
  async issueEmbedToken(
    key: DashboardKey,
    templateEid: string,
    validMs: number,
  ): Promise<{ token: string; eid: string; expiresAt: number }> {
    const records = await this.#records();
    const now = this.#now();
    await records.purge(now);
    const value = token();
    const eid = randomBytes(15).toString('base64url');
    const expiresAt = now + validMs;
    await records.insertEmbedToken({
      tokenHash: sha256(value),
      eid,
      organization: key.organization,
      keyDigest: key.digest,
      keyLabel: key.label,
      templateEid,
      createdAt: now,
      expiresAt,
    });
    return { token: value, eid, expiresAt };
  }

  /**
   * Uses an embed link: the session it opens (limited to its template) and the cookie's value, or the
   * 401 of a link that is unknown, used already or expired (one answer for the three: nothing to probe).
   */
  async openEmbedded(value: string): Promise<{ session: Session; cookie: string }> {
    const records = await this.#records();
    const taken = TOKEN_SHAPE.test(value) ? await records.takeEmbedToken(sha256(value)) : undefined;
    const now = this.#now();
    const key = taken && this.#keys.byDigest(taken.keyDigest);
    if (!taken || taken.expiresAt <= now || !key || key.organization !== taken.organization)
      throw new AuthorizationError('This embed link has been used or has expired: ask for a new one.');
    return this.#start(records, key, now, taken.templateEid);
  }

  /** Stores a new session of `key` (limited to one template when `templateEid` is given) and gives its cookie. */
  async #start(
    records: SessionRecords,
    key: DashboardKey,
    now: number,
    templateEid?: string,
  ): Promise<{ session: Session; cookie: string }> {
    const cookie = token();
    const record: SessionRecord = {
      tokenHash: sha256(cookie),
      organization: key.organization,
      keyDigest: key.digest,
      keyLabel: key.label,
      csrfToken: token(),
      createdAt: now,
      expiresAt: now + this.#ttlMs,
      ...(templateEid !== undefined ? { templateEid } : {}),
    };
    await records.insert(record);
    const { csrfToken, tokenHash, expiresAt } = record;
    const session: Session = {
      key,
      csrfToken,
      tokenHash,
      expiresAt,
      ...(templateEid !== undefined ? { templateEid } : {}),
    };
    return { session, cookie };
  }

  /** Refuses a request that does not carry the session's CSRF token (compared in constant time). */
  checkCsrf(request: FastifyRequest, session: Session): void {
    const sent = request.headers[CSRF_HEADER];
    const a = Buffer.from(typeof sent === 'string' ? sent : '', 'utf8');
    const b = Buffer.from(session.csrfToken, 'utf8');
    if (a.length !== b.length || !timingSafeEqual(a, b)) throw new CsrfError();
  }

  async close(session: Session): Promise<void> {
    await (await this.#records()).remove(session.tokenHash);
  }
}
