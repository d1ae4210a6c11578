/**
 * What one reading of the pool's Chromium process tree costs (the memory watchdog's reading, once a
 * second while a job runs): `npx tsx bench/_watchdog-reading.ts [readings]` launches a pool, runs a
 * job, then takes the readings through `pool.processes()` (the same reading) and prints the Node CPU
 * and the /proc files opened per reading, with the number of processes on the machine and in the tree.
 */
import fs from 'node:fs';
import { syncBuiltinESMExports } from 'node:module';
import { BrowserPool, renderHtml } from '../src/html/index.js';

const readings = Number(process.argv[2] ?? 200);
const pool = new BrowserPool({ maxPages: 1 });
try {
  await renderHtml(pool, { html: '<p>warm up</p>' });
  const tree = (await pool.processes()).length;
  let files = 0;
  const { readFileSync } = fs;
  fs.readFileSync = ((path: fs.PathOrFileDescriptor, ...rest: unknown[]) => {
    if (String(path).startsWith('/proc/')) files++;
    return (readFileSync as (...a: unknown[]) => unknown)(path, ...rest);
  }) as typeof fs.readFileSync;
  syncBuiltinESMExports();
  const machine = fs.readdirSync('/proc').filter((n) => /^\d+$/.test(n)).length;
  const cpu = process.cpuUsage();
  for (let i = 0; i < readings; i++) await pool.processes();
  const used = process.cpuUsage(cpu);
  fs.readFileSync = readFileSync;
  syncBuiltinESMExports();
  const ms = (used.user + used.system) / 1000 / readings;
  console.log(
    `processes on the machine ${machine}, in the tree ${tree}: ${(files / readings).toFixed(1)} /proc files and ` +
      `${ms.toFixed(2)} ms of Node CPU per reading (${readings} readings)`,
  );
} finally {
  await pool.close();
}
