/**
 * Dashboard sessions in the server's database (migration 8): a second instance on the same
 * PostgreSQL honours a session the first one opened, and signing out ends it everywhere. Only the
 * SHA-256 of a session's cookie value is kept, as for signing tokens.
 */
import { num, type Row, type SqlExecutor, type SqlTransaction } from './sql-rows.js';

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
}

export interface SessionRecords {
  insert(session: SessionRecord): Promise<void>;
  get(tokenHash: string): Promise<SessionRecord | undefined>;
  remove(tokenHash: string): Promise<void>;
  /** Removes the sessions expired at `now`; how many. */
  purge(now: number): Promise<number>;
}

function sessionOf(r: Row): SessionRecord {
  return {
    tokenHash: String(r.token_hash),
    organization: String(r.organization),
    keyDigest: String(r.key_digest),
    keyLabel: String(r.key_label),
    csrfToken: String(r.csrf_token),
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
        'INSERT INTO dashboard_sessions (token_hash, organization, key_digest, key_label, csrf_token, created_at, expires_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
        [s.tokenHash, s.organization, s.keyDigest, s.keyLabel, s.csrfToken, s.createdAt, s.expiresAt],
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
    return this.transaction((sql) => sql.run('DELETE FROM dashboard_sessions WHERE expires_at <= ?', [now]));
  }
}
