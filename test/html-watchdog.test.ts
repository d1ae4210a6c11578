import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { describe, expect, it } from 'vitest';
import { BrowserPool } from '../src/html/index.js';

/** Pids in /proc now. */
function pidsNow(): Set<number> {
  return new Set(
    fs
      .readdirSync('/proc')
      .filter((n) => /^\d+$/.test(n))
      .map(Number),
  );
}

describe('the memory watchdog', () => {
  it.skipIf(!fs.existsSync('/proc/self/stat'))(
    "reads only its browser's processes (and pids new since its last reading), not every process on the machine",
    { timeout: 120_000 },
    async () => {
      const pool = new BrowserPool({ jobTimeoutMs: 90_000 });
      try {
        const { tree, before, read, listings } = await pool.run(async () => {
          // While a job runs the watchdog reads once a second; the job holds its page across two readings.
          const tree = new Set((await pool.processes()).map((p) => p.pid));
          const before = pidsNow();
          const read = new Set<number>();
          let listings = 0;
          const { readFileSync, readdirSync } = fs;
          fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
            const m = /^\/proc\/(\d+)\//.exec(String(path));
            if (m) read.add(Number(m[1]));
            return (readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
          }) as typeof fs.readFileSync;
          fs.readdirSync = ((path: fs.PathLike, ...rest: unknown[]) => {
            if (String(path) === '/proc') listings++;
            return (readdirSync as (...a: unknown[]) => unknown)(path, ...rest);
          }) as typeof fs.readdirSync;
          syncBuiltinESMExports();
          try {
            await expect.poll(() => listings, { timeout: 60_000, interval: 100 }).toBeGreaterThanOrEqual(2);
          } finally {
            fs.readFileSync = readFileSync;
            fs.readdirSync = readdirSync;
            syncBuiltinESMExports();
          }
          return { tree, before, read, listings };
        });
        expect(listings).toBeGreaterThanOrEqual(2);
        expect(tree.size).toBeGreaterThan(1);
        // Read: the tree, or a process that did not exist when the job began (started since, by anyone).
        const outside = [...read].filter((pid) => !tree.has(pid) && before.has(pid));
        expect(outside).toEqual([]);
        expect(read.size).toBeGreaterThan(0);
        expect(before.size).toBeGreaterThan(tree.size + 10);
      } finally {
        await pool.close();
      }
    },
  );
});
