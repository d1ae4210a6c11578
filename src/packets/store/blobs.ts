/**
 * Documents by content hash. On disk: `<dir>/<first two hex>/<sha256>`, written to a
 * temporary name, flushed and renamed, so a blob is either whole or absent. In SQL
 * (PostgreSQL): a `blobs` table, so several server instances share documents.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdir, open, readFile, rename, rm } from 'node:fs/promises';
import path from 'node:path';
import type { SqlExecutor } from './sql-store.js';
import type { BlobStore } from './store.js';

export const hashOf = (bytes: Uint8Array): string => createHash('sha256').update(bytes).digest('hex');

const HASH = /^[0-9a-f]{64}$/;

export class DiskBlobs implements BlobStore {
  constructor(private readonly dir: string) {}

  #file(hash: string): string {
    if (!HASH.test(hash)) throw new Error(`Not a blob hash: ${hash}`);
    return path.join(this.dir, hash.slice(0, 2), hash);
  }

  async put(bytes: Uint8Array): Promise<string> {
    const hash = hashOf(bytes);
    const file = this.#file(hash);
    await mkdir(path.dirname(file), { recursive: true });
    const temp = `${file}.${randomBytes(6).toString('hex')}.tmp`;
    const handle = await open(temp, 'w');
    try {
      await handle.writeFile(bytes);
      await handle.sync();
    } finally {
      await handle.close();
    }
    try {
      await rename(temp, file);
    } catch (e) {
      await rm(temp, { force: true });
      throw e;
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
}

export class SqlBlobs implements BlobStore {
  constructor(private readonly sql: SqlExecutor) {}

  async put(bytes: Uint8Array): Promise<string> {
    const hash = hashOf(bytes);
    await this.sql.run('INSERT INTO blobs (hash, bytes) VALUES (?, ?) ON CONFLICT (hash) DO NOTHING', [hash, Buffer.from(bytes)]);
    return hash;
  }

  async get(hash: string): Promise<Uint8Array | undefined> {
    const [row] = await this.sql.all('SELECT bytes FROM blobs WHERE hash = ?', [hash]);
    return row ? new Uint8Array(row.bytes as Buffer) : undefined;
  }
}
