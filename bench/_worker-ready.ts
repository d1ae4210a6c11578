/**
 * `castpress worker --queue` until it says it is ready, alternating between checkouts (before and after
 * a change), on one private redis-server: `npx tsx bench/_worker-ready.ts RUNS CHECKOUT [CHECKOUT...]`
 * (each checkout with a fresh bundle: `node scripts/bundle.mjs` in it). Per checkout, the medians and
 * every run of the wall time and of the CPU (user+sys of the worker, all its threads, read from /proc
 * at the ready line: Linux). A first round, not counted, writes each checkout's code cache. Not a row of
 * `npm run bench` (the name starts with _); the row is bench/startup.ts's worker-ready.
 */
import { spawn } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { exited, RedisServer, waitForOutput } from '../test/helpers/redis.js';

const [runs, ...checkouts] = process.argv.slice(2);
if (!runs || checkouts.length === 0) {
  console.error('usage: npx tsx bench/_worker-ready.ts RUNS CHECKOUT [CHECKOUT...]');
  process.exit(2);
}

/** user + sys CPU of a live process so far, all its threads (ms; /proc counts clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10;
}

const dir = await mkdtemp(path.join(tmpdir(), 'castpress-worker-ready-'));
await mkdir(path.join(dir, 'redis'));
const redis = await RedisServer.start(path.join(dir, 'redis'));
const results = new Map<string, { wall: number[]; cpu: number[] }>(checkouts.map((c) => [c, { wall: [], cpu: [] }]));
const loads = [loadavg()[0]!];
try {
  for (let round = 0; round <= Number(runs); round++) {
    for (const checkout of checkouts) {
      const t = performance.now();
      const p = spawn(
        process.execPath,
        [path.join(checkout, 'bin', 'castpress.js'), 'worker', '--queue', redis.url, '--name', 'bench', '--out', 'out'],
        { stdio: ['ignore', 'pipe', 'pipe'], env: process.env, cwd: dir },
      );
      await waitForOutput(p, /ready on/, 120_000);
      const wall = performance.now() - t;
      const cpu = await cpuMs(p.pid!);
      p.kill('SIGTERM');
      await exited(p);
      if (round === 0) continue;
      results.get(checkout)!.wall.push(wall);
      results.get(checkout)!.cpu.push(cpu);
    }
    loads.push(loadavg()[0]!);
  }
} finally {
  await redis.stop();
  await rm(dir, { recursive: true, force: true });
}
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
for (const [checkout, r] of results)
  console.log(
    `${checkout}: wall median ${median(r.wall).toFixed(0)} ms [${r.wall.map((x) => x.toFixed(0)).join(' ')}], ` +
      `CPU median ${median(r.cpu)} ms [${r.cpu.join(' ')}]`,
  );
console.log(`load average (1 min) over the rounds: ${loads.map((l) => l.toFixed(1)).join(' ')}`);
