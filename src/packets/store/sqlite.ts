/**
 * The embedded store: SQLite through libsql (a prebuilt binary from npm, no build
 * step), in WAL mode with full sync, one connection for writes (transactions run
 * one at a time behind a queue) and one for reads (which see only committed data).
 * Documents are files by content hash beside the database.
 */
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import Database from 'libsql';
import { InsufficientStorageError, isStorageFull } from '../../errors/index.js';
import { DiskBlobs } from './blobs.js';
import { CLAIMABLE_OUTBOX, claimableParams, settleStatement } from './sql-outbox.js';
import { migrate, outboxOf, SqlQueries, type Row, type SqlExecutor } from './sql-store.js';
import type { OutboxKind, OutboxOutcome, OutboxRecord } from './records.js';
import type { BlobStore, PacketStore, PacketWrites } from './store.js';
import { SqlTemplateCatalogue } from './sql-templates.js';
import { SqlSessions } from './sql-sessions.js';

type Db = InstanceType<typeof Database>;

/** SQLITE_FULL becomes the typed 507 naming the database; SQLite has rolled the statement (or transaction) back. */
function storageError(e: unknown): unknown {
  return isStorageFull(e) && !(e instanceof InsufficientStorageError)
    ? new InsufficientStorageError("The server's disk is full: the change was not recorded", 'packets.database', 507, {
        cause: e,
      })
    : e;
}

function executor(db: Db): SqlExecutor {
  const bind = (params: readonly unknown[] = []) => params.map((p) => (p === undefined ? null : p));
  const guard = <T>(fn: () => T): T => {
    try {
      return fn();
    } catch (e) {
      throw storageError(e);
    }
  };
  return {
    all: async (sql, params) => guard(() => db.prepare(sql).all(...bind(params)) as Row[]),
    run: async (sql, params) => guard(() => Number(db.prepare(sql).run(...bind(params)).changes)),
  };
}

export interface SqliteStoreOptions {
  /** Folder of the database (`packets.db`) and the documents (`blobs/`). */
  dir: string;
  /** How long a writer waits for another process's lock; default 10 s. */
  busyTimeoutMs?: number;
}

class SqliteStore extends SqlQueries implements PacketStore {
  readonly kind = 'sqlite' as const;
  readonly blobs: BlobStore;
  readonly templates: SqlTemplateCatalogue;
  readonly sessions: SqlSessions;
  readonly #writer: Db;
  readonly #reader: Db;
  readonly #write: SqlExecutor;
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(writer: Db, reader: Db, blobs: BlobStore) {
    super(executor(reader), '');
    this.#writer = writer;
    this.#reader = reader;
    this.#write = executor(writer);
    this.blobs = blobs;
    const inTransaction = <T>(fn: (sql: SqlExecutor) => Promise<T>) => this.#exclusive(fn);
    this.templates = new SqlTemplateCatalogue(this.sql, inTransaction, blobs, '');
    this.sessions = new SqlSessions(this.sql, inTransaction);
  }

  /** One write transaction at a time on the writer connection; BEGIN IMMEDIATE takes the file's write lock at once. */
  #exclusive<T>(fn: (sql: SqlExecutor) => Promise<T>): Promise<T> {
    const run = async (): Promise<T> => {
      if (this.#closed) throw new Error('The packet store is closed');
      this.#writer.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn(this.#write);
        this.#writer.exec('COMMIT');
        return result;
      } catch (e) {
        if (this.#writer.inTransaction) this.#writer.exec('ROLLBACK');
        // COMMIT itself is where a full disk usually shows (the WAL grows there).
        throw storageError(e);
      }
    };
    const next = this.#queue.then(run, run);
    this.#queue = next.catch(() => undefined);
    return next;
  }

  transaction<T>(fn: (tx: PacketWrites) => Promise<T>): Promise<T> {
    return this.#exclusive((sql) => fn(new SqlQueries(sql, '')));
  }

  migrate(): Promise<void> {
    return migrate(this.#write, (fn) => this.#exclusive(fn));
  }

  claimOutbox(
    kind: OutboxKind,
    now: number,
    limit: number,
    leaseMs: number,
    perReceiver?: number,
  ): Promise<OutboxRecord[]> {
    return this.#exclusive(async (sql) => {
      // One writer at a time (BEGIN IMMEDIATE): the claim and its leases are one step for every process.
      const ids = (await sql.all(CLAIMABLE_OUTBOX, claimableParams(kind, now, limit, perReceiver))).map((r) =>
        String(r.id),
      );
      const claimed: OutboxRecord[] = [];
      for (const id of ids) {
        await sql.run('UPDATE outbox SET lease_until = ? WHERE id = ?', [now + leaseMs, id]);
        const [r] = await sql.all('SELECT * FROM outbox WHERE id = ?', [id]);
        if (r) claimed.push(outboxOf(r));
      }
      return claimed;
    });
  }

  async settleOutbox(id: string, c: OutboxOutcome): Promise<void> {
    await this.#exclusive((sql) => sql.run(...settleStatement(id, c)));
  }

  async close(): Promise<void> {
    await this.#queue;
    if (this.#closed) return;
    this.#closed = true;
    this.#writer.close();
    this.#reader.close();
  }
}

/** Opens (and migrates) the embedded store in `dir`. */
export async function openSqliteStore(options: SqliteStoreOptions): Promise<PacketStore> {
  await mkdir(options.dir, { recursive: true });
  const file = path.join(options.dir, 'packets.db');
  const open = (): Db => {
    const db = new Database(file);
    db.exec(`PRAGMA busy_timeout = ${Math.max(0, Math.floor(options.busyTimeoutMs ?? 10_000))}`);
    db.exec('PRAGMA foreign_keys = ON');
    return db;
  };
  const writer = open();
  writer.exec('PRAGMA journal_mode = WAL');
  // FULL: a committed transaction survives a power cut, not only a killed process.
  writer.exec('PRAGMA synchronous = FULL');
  const reader = open();
  const blobs = new DiskBlobs(path.join(options.dir, 'blobs'));
  // A crash (or a full disk) may have left partial documents: they go before any new write.
  await blobs.sweepTemporaries();
  const store = new SqliteStore(writer, reader, blobs);
  await store.migrate();
  return store;
}
