import { readdir, rename, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { threadId } from 'node:worker_threads';

// Temporary names say which host and process wrote them, so a process that starts
// (or stops) can remove what a killed one on the same host left behind, and never
// touches a file another live process or another machine is still writing.
const host = os.hostname().replace(/[^\w-]/g, '_');
let counter = 0;
const TEMP = /\.~([\w-]+)~(\d+)~[\w-]+\.part$/;

/**
 * Writes `dir/name` as a whole or not at all: a temporary file, then a rename. The
 * rename is atomic and idempotent, so a job run twice (a stalled job taken over by
 * another worker) leaves one complete file, never a partial one or two copies.
 */
export async function writeAtomic(dir: string, name: string, bytes: Uint8Array | string): Promise<void> {
  const target = path.join(dir, name);
  const temp = `${target}.~${host}~${process.pid}~${threadId}-${counter++}.part`;
  try {
    await writeFile(temp, bytes);
    await rename(temp, target);
  } catch (e) {
    await rm(temp, { force: true });
    throw e;
  }
}

function alive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** Removes temporary files left in `dir` by processes of this host that no longer run; returns how many. */
export async function sweepTemporaries(dir: string): Promise<number> {
  let removed = 0;
  let names: string[];
  try {
    names = await readdir(dir);
  } catch {
    return 0;
  }
  for (const name of names) {
    const m = TEMP.exec(name);
    if (!m || m[1] !== host || alive(Number(m[2]))) continue;
    await rm(path.join(dir, name), { force: true });
    removed++;
  }
  return removed;
}
