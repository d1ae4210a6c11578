/**
 * Dashboard sessions in the server's database (migrations 8 and 9): a second instance on the same
 * PostgreSQL honours a session the first one opened, and signing out ends it everywhere. Only the
 * SHA-256 of a session's cookie value is kept, as for signing tokens; so for the single-use embed
 * links, which are deleted by the request that uses them (a second use finds nothing).
 */
import { num, strOrNull, type Row, type SqlExecutor, type SqlTransaction } from './sql-rows.js';

/** One signed-in browser. Times are epoch milliseconds. */
export interface SessionRecord {
  /** SHA-256 (hex) of the cookie's value. */
  tokenHash: string;
  organization: string;
  /** SHA-256 (hex) of the API key it was opened with: the session ends when the key leaves the keys file. */
  keyDigest: string;
  keyLabel: string;
  /** What mutating requests carry in `X-CSRF-Token`. */
  csrfToken: string;
  createdAt: number;
  expiresAt: number;
  /** Set for a session an embed link opened: it reaches this template's editor and nothing else. */
  templateEid?: string;
}

/** An embed link not used yet: what the session it opens will be. Times are epoch milliseconds. */
export interface EmbedTokenRecord {
  /** SHA-256 (hex) of the link's token. */
  tokenHash: string;
  /** The link's public id (`requestTokenEid`). */
  eid: string;
  organization: string;
  keyDigest: string;
  keyLabel: string;
  templateEid: string;
  createdAt: number;
  expiresAt: number;
}

export interface SessionRecords {
  insert(session: SessionRecord): Promise<void>;
  get(tokenHash: string): Promise<SessionRecord | undefined>;
  remove(tokenHash: string): Promise<void>;
  /** Removes the sessions and embed links expired at `now`; how many. */
  purge(now: number): Promise<number>;
  insertEmbedToken(token: EmbedTokenRecord): Promise<void>;
  /** The link, removed in the same step: of two requests with one token, one gets it and the other nothing. */
  takeEmbedToken(tokenHash: string): Promise<EmbedTokenRecord | undefined>;
}

function sessionOf(r: Row): SessionRecord {
  const templateEid = strOrNull(r.template_eid);
  return {
    tokenHash: String(r.token_hash),
    organization: String(r.organization),
    keyDigest: String(r.key_digest),
    keyLabel: String(r.key_label),
    csrfToken: String(r.csrf_token),
    createdAt: num(r.created_at),
    expiresAt: num(r.expires_at),
    ...(templateEid !== null ? { templateEid } : {}),
  };
}

function embedTokenOf(r: Row): EmbedTokenRecord {
  return {
    tokenHash: String(r.token_hash),
    eid: String(r.eid),
    organization: String(r.organization),
    keyDigest: String(r.key_digest),
    keyLabel: String(r.key_label),
    templateEid: String(r.template_eid),
    createdAt: num(r.created_at),
    expiresAt: num(r.expires_at),
  };
}

export class SqlSessions implements SessionRecords {
  constructor(
    private readonly read: SqlExecutor,
    private readonly transaction: SqlTransaction,
  ) {}

  async insert(s: SessionRecord): Promise<void> {
    await this.transaction((sql) =>
      sql.run(
        'INSERT INTO dashboard_sessions (token_hash, organization, key_digest, key_label, csrf_token, created_at, expires_at, template_eid) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [
          s.tokenHash,
          s.organization,
          s.keyDigest,
          s.keyLabel,
          s.csrfToken,
          s.createdAt,
          s.expiresAt,
          s.templateEid ?? null,
        ],
      ),
    );
  }

  async get(tokenHash: string): Promise<SessionRecord | undefined> {
    const [r] = await this.read.all('SELECT * FROM dashboard_sessions WHERE token_hash = ?', [tokenHash]);
    return r && sessionOf(r);
  }

  async remove(tokenHash: string): Promise<void> {
    await this.transaction((sql) => sql.run('DELETE FROM dashboard_sessions WHERE token_hash = ?', [tokenHash]));
  }

  purge(now: number): Promise<number> {
    return this.transaction(
      async (sql) =>
        (await sql.run('DELETE FROM dashboard_sessions WHERE expires_at <= ?', [now])) +
        (await sql.run('DELETE FROM dashboard_embed_tokens WHERE expires_at <= ?', [now])),
    );
  }

  async insertEmbedToken(t: EmbedTokenRecord): Promise<void> {
    await this.transaction((sql) =>
      sql.run(
        'INSERT INTO dashboard_embed_tokens (token_hash, eid, organization, key_digest, key_label, template_eid, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
        [t.tokenHash, t.eid, t.organization, t.keyDigest, t.keyLabel, t.templateEid, t.createdAt, t.expiresAt],
      ),
    );
  }

  takeEmbedToken(tokenHash: string): Promise<EmbedTokenRecord | undefined> {
    return this.transaction(async (sql) => {
      const [r] = await sql.all('SELECT * FROM dashboard_embed_tokens WHERE token_hash = ?', [tokenHash]);
      if (!r) return undefined;
      // Only the request whose DELETE removed the row uses the link (PostgreSQL's read committed lets two read it).
      const removed = await sql.run('DELETE FROM dashboard_embed_tokens WHERE token_hash = ?', [tokenHash]);
      return removed === 1 ? embedTokenOf(r) : undefined;
    });
  }
}
