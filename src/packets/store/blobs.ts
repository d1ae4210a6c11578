/**
 * Documents by content hash. On disk: `<dir>/<first two hex>/<sha256>`, written to a
 * temporary name, flushed and renamed, so a blob is either whole or absent; a failed write
 * removes its temporary file at once, and a crashed writer's are swept when the store opens. In SQL
 * (PostgreSQL): a `blobs` table, so several server instances share documents.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { InsufficientStorageError, isStorageFull } from '../../errors/index.js';
import type { SqlExecutor } from './sql-store.js';
import type { BlobStore } from './store.js';

export const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const HASH = /^[0-9a-f]{64}$/;

/** `<hash>.<pid>-<random>.tmp`: the writer's process id tells a crashed writer's leftovers from a live one's. */
const TEMP = /^[0-9a-f]{64}\.(?:(\d+)-)?[0-9a-f]+\.tmp$/;

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: it exists, run by someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A full disk (or quota) becomes the typed 507 naming the documents; anything else is thrown as it was. */
function storageError(e: unknown): unknown {
  return isStorageFull(e)
    ? new InsufficientStorageError("The server's disk is full: the document was not stored", 'packets.documents', 507, {
        cause: e,
      })
    : e;
}

export class DiskBlobs implements BlobStore {
  readonly #dir: string;

  constructor(dir: string) {
    this.#dir = dir;
  }

  #file(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`Not a blob hash: ${hash}`);
    return path.join(this.#dir, hash.slice(0, 2), hash);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = hashOf(bytes);
    const file = this.#file(hash);
    const temp = `${file}.${process.pid}-${randomBytes(6).toString('hex')}.tmp`;
    try {
      await mkdir(path.dirname(file), { recursive: true });
      const handle = await open(temp, 'w');
      try {
        await handle.writeFile(bytes);
        await handle.sync();
      } finally {
        await handle.close();
      }
      await rename(temp, file);
    } catch (e) {
      // Nothing half-written stays: a write that ran out of space (or failed otherwise) leaves no temporary file.
      await rm(temp, { force: true }).catch(() => undefined);
      throw storageError(e);
    }
    return hash;
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.#file(hash)));
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw e;
    }
  }

  /**
   * Removes temporary files a crashed writer left (the store calls it on opening): those of a process that
   * is gone, and this process id's from before it started (a restarted container often gets the same id).
   * A live process's writes in progress are left alone. How many were removed.
   */
  async sweepTemporaries(): Promise<number> {
    const started = Date.now() - process.uptime() * 1000;
    let removed = 0;
    let folders: string[];
    try {
      folders = await readdir(this.#dir);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return 0;
      throw e;
    }
    for (const folder of folders) {
      if (!/^[0-9a-f]{2}$/.test(folder)) continue;
      const names = await readdir(path.join(this.#dir, folder)).catch(() => [] as string[]);
      for (const name of names) {
        const m = TEMP.exec(name);
        if (!m) continue;
        const file = path.join(this.#dir, folder, name);
        // Without a process id (written before ids were part of the name): by age, like this process id's.
        const pid = m[1] === undefined ? process.pid : Number(m[1]);
        const stale =
          pid === process.pid
            ? ((await stat(file).catch(() => undefined))?.mtimeMs ?? Infinity) < started
            : !alive(pid);
        if (
          stale &&
          (await rm(file, { force: true }).then(
            () => true,
            () => false,
          ))
        )
          removed++;
      }
    }
    return removed;
  }
}

export class SqlBlobs implements BlobStore {
  readonly #sql: SqlExecutor;

  constructor(sql: SqlExecutor) {
    this.#sql = sql;
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = hashOf(bytes);
    await this.#sql.run('INSERT INTO blobs (hash, bytes) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING', [
      hash,
      Buffer.from(bytes),
    ]);
    return hash;
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    const [row] = await this.#sql.all('SELECT bytes FROM blobs WHERE hash = ?', [hash]);
    return row ? new Uint8Array(row.bytes as Buffer) : undefined;
  }
}
