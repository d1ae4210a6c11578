/**
 * PostgreSQL store for several server instances: rows locked with FOR UPDATE while
 * a step commits, outbox events leased with SKIP LOCKED so two dispatchers never
 * take the same one, documents in the `blobs` table so every instance sees them.
 */
import type pg from 'pg';
import { SqlBlobs } from './blobs.js';
import { CLAIMABLE_OUTBOX, claimableParams, settleStatement } from './sql-outbox.js';
import { migrate, outboxOf, SqlQueries, type Row, type SqlExecutor } from './sql-store.js';
import type { OutboxKind, OutboxOutcome, OutboxRecord } from './records.js';
import type { PacketStore, PacketWrites } from './store.js';
import { SqlTemplateCatalogue } from './sql-templates.js';
import { SqlSessions } from './sql-sessions.js';

/** `?` placeholders numbered as `$1, $2, …` (the store's statements hold no literal question marks). */
const numbered = (sql: string): string => {
  let n = 0;
  return sql.replace(/\?/g, () => `$${++n}`);
};

function executor(client: pg.Pool | pg.PoolClient): SqlExecutor {
  return {
    all: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rows as Row[],
    run: async (sql, params = []) => (await client.query(numbered(sql), [...params])).rowCount ?? 0,
  };
}

export interface PostgresStoreOptions {
  /** `postgres://user@host:port/db` */
  connectionString: string;
  /** Connections in the pool; default 10. */
  max?: number;
}

/** Serialises migrations of instances starting at once. */
const MIGRATION_LOCK = 0x63617374; // "cast"

class PostgresStore extends SqlQueries implements PacketStore {
  readonly kind = 'postgres' as const;
  readonly blobs: SqlBlobs;
  readonly templates: SqlTemplateCatalogue;
  readonly sessions: SqlSessions;
  readonly #pool: pg.Pool;

  constructor(pool: pg.Pool) {
    const sql = executor(pool);
    super(sql, ' FOR UPDATE');
    this.#pool = pool;
    this.blobs = new SqlBlobs(sql);
    const inTransaction = <T>(fn: (tx: SqlExecutor) => Promise<T>) => this.#inTransaction(fn);
    this.templates = new SqlTemplateCatalogue(sql, inTransaction, this.blobs, ' FOR UPDATE');
    this.sessions = new SqlSessions(sql, inTransaction);
  }

  async #inTransaction<T>(fn: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    const client = await this.#pool.connect();
    try {
      await client.query('BEGIN');
      const result = await fn(executor(client));
      await client.query('COMMIT');
      return result;
    } catch (e) {
      await client.query('ROLLBACK').catch(() => undefined);
      throw e;
    } finally {
      client.release();
    }
  }

  transaction<T>(fn: (tx: PacketWrites) => Promise<T>): Promise<T> {
    return this.#inTransaction((sql) => fn(new SqlQueries(sql, ' FOR UPDATE')));
  }

  async migrate(): Promise<void> {
    const client = await this.#pool.connect();
    try {
      await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
      const sql = executor(client);
      await migrate(sql, async (fn) => {
        await client.query('BEGIN');
        try {
          await fn(sql);
          await client.query('COMMIT');
        } catch (e) {
          await client.query('ROLLBACK');
          throw e;
        }
      });
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
  }

  async claimOutbox(
    kind: OutboxKind,
    now: number,
    limit: number,
    leaseMs: number,
    perReceiver?: number,
  ): Promise<OutboxRecord[]> {
    // Row locks cannot go with the window function: the chosen rows are locked by an outer select that checks
    // again that they are still free (a row another instance leased meanwhile is skipped or fails the re-check).
    const rows = await executor(this.#pool).all(
      `UPDATE outbox SET lease_until = ? WHERE id IN (
         SELECT id FROM outbox WHERE id IN (${CLAIMABLE_OUTBOX}) AND status = 'pending' AND lease_until <= ? FOR UPDATE SKIP LOCKED)
       RETURNING *`,
      [now + leaseMs, ...claimableParams(kind, now, limit, perReceiver), now],
    );
    return rows.map(outboxOf).sort((a, b) => a.createdAt - b.createdAt || a.id.localeCompare(b.id));
  }

  async settleOutbox(id: string, c: OutboxOutcome): Promise<void> {
    await executor(this.#pool).run(...settleStatement(id, c));
  }

  close(): Promise<void> {
    return this.#pool.end();
  }
}

/** Connects to PostgreSQL and migrates the schema. */
export async function openPostgresStore(options: PostgresStoreOptions): Promise<PacketStore> {
  // pg (and undici, through its runtime check) loads here, on the first PostgreSQL store: the
  // server on SQLite, the CLI and every worker thread that imports the packets floor never pay for it.
  const { default: pgModule } = await import('pg');
  const pool = new pgModule.Pool({ connectionString: options.connectionString, max: options.max ?? 10 });
  // An idle client that loses its server must not crash the process.
  pool.on('error', () => undefined);
  const store = new PostgresStore(pool);
  try {
    await store.migrate();
  } catch (e) {
    await pool.end();
    throw e;
  }
  return store;
}
