/**
 * Start-up of the processes and threads castpress starts, each against an anchor
 * timed alternately in the same run, with the absolute figure for the record:
 *  - `castpress worker --queue` (bin/castpress.js, the bundle) until it says it is ready on the
 *    queue (its engine thread warm, BullMQ connected to a private redis-server), against
 *    `node -e 0`. Goal: under 1 s on an idle machine. Its CPU (user+sys, all threads, /proc) until then
 *    too, against Node's own start: the figure a loaded machine moves least.
 *  - one thread of the render pool (and of batch and the queue worker): a worker_threads Worker
 *    until it has loaded the pool's worker file (src/batch/worker-entry.mjs, which loads the
 *    bundle), against a thread that loads nothing. Goal: under 300 ms.
 * The bundle is built first when it is missing or older than the sources.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import { WORKER_FILE } from '../src/batch/worker-file.js';
import { exited, RedisServer, waitForOutput } from '../test/helpers/redis.js';
import { freshBundle, OWN_SCRIPT_COMMANDS } from '../bin/bundle.js';
import { interleaved, type BenchRow } from './types.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(root, 'bin', 'castpress.js');

/** The CLI's bundles the bin runs: the ES-module one, the CommonJS one, and the commands' own CommonJS files. */
const BIN_BUNDLES = ['castpress.mjs', 'castpress.cjs', ...OWN_SCRIPT_COMMANDS.map((c) => `castpress-${c}.cjs`)];

/** Builds dist/bundle unless the files named are fresh, and fails rather than timing the sources. */
export function ensureBundle(names: string[] = BIN_BUNDLES): void {
  if (names.every((b) => freshBundle(b))) return;
  const built = spawnSync(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')], {
    cwd: root,
    stdio: 'inherit',
  });
  if (built.status !== 0 || !names.every((b) => freshBundle(b))) throw new Error('node scripts/bundle.mjs failed');
}

/**
 * user + sys CPU of a live process so far, all its threads (ms; /proc, Linux, in clock ticks of
 * 10 ms; 0 elsewhere): less moved by other processes' load than its wall time.
 */
async function cpuMs(pid: number): Promise<number> {
  try {
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** user + sys CPU (ms) a Node process has used when its script starts: Node's own start. */
async function nodeStartCpuMs(): Promise<number> {
  const p = spawn(
    process.execPath,
    ['-e', 'const u = process.cpuUsage(); process.stdout.write(String((u.user + u.system) / 1000))'],
    { stdio: ['ignore', 'pipe', 'ignore'] },
  );
  let out = '';
  p.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  await exited(p);
  return Number(out);
}

async function nodeNothing(): Promise<void> {
  const p = spawn(process.execPath, ['-e', '0'], { stdio: 'ignore' });
  await exited(p);
}

/** Resolves when a thread running `code` (an ES module) posts its first message. */
function thread(code: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const w = new Worker(new URL(`data:text/javascript,${encodeURIComponent(code)}`));
    w.once('message', () => {
      resolve();
      void w.terminate();
    });
    w.once('error', reject);
  });
}

export async function run(): Promise<BenchRow[]> {
  ensureBundle();
  const rows: BenchRow[] = [];
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-startup-'));
  try {
    await mkdir(path.join(dir, 'redis'));
    const redis = await RedisServer.start(path.join(dir, 'redis'));
    try {
      // The worker's clock includes its SIGTERM and exit: only its ready line is wanted.
      const timedWorker = async () => {
        const t = performance.now();
        const p = spawn(
          process.execPath,
          [bin, 'worker', '--queue', redis.url, '--name', 'startup', '--out', path.join(dir, 'out')],
          { stdio: ['ignore', 'pipe', 'pipe'] },
        );
        await waitForOutput(p, /ready on/, 120_000);
        const ms = performance.now() - t;
        const cpu = await cpuMs(p.pid!);
        p.kill('SIGTERM');
        await exited(p);
        return { ms, cpu };
      };
      await timedWorker();
      const workerMs: number[] = [];
      const workerCpu: number[] = [];
      const anchorMs: number[] = [];
      const anchorCpu: number[] = [];
      for (let i = 0; i < 7; i++) {
        const w = await timedWorker();
        workerMs.push(w.ms);
        workerCpu.push(w.cpu);
        const t = performance.now();
        await nodeNothing();
        anchorMs.push(performance.now() - t);
        anchorCpu.push(await nodeStartCpuMs());
      }
      const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
      const w = median(workerMs);
      const a = median(anchorMs);
      rows.push({
        name: 'worker-ready: `castpress worker --queue` ready (engine thread warm, on Redis) vs `node -e 0`',
        value: w,
        unit: 'ms',
        baseline: a,
        ratio: w / a,
        goal: '< 1000 ms idle',
      });
      if (workerCpu.every((c) => c > 0)) {
        const wc = median(workerCpu);
        const ac = median(anchorCpu);
        rows.push({
          name: 'worker-ready CPU: user+sys of the worker (all threads) until ready vs `node -e 0`',
          value: wc,
          unit: 'ms',
          baseline: ac,
          ratio: ac > 0 ? wc / ac : undefined,
        });
      }
    } finally {
      await redis.stop();
    }

    const entry = pathToFileURL(WORKER_FILE).href;
    const [pool, bare] = await interleaved(
      () =>
        thread(
          `import ${JSON.stringify(entry)}; import { parentPort } from 'node:worker_threads'; parentPort.postMessage(0);`,
        ),
      () => thread(`import { parentPort } from 'node:worker_threads'; parentPort.postMessage(0);`),
      9,
    );
    rows.push({
      name: 'thread-ready: render-pool thread ready (worker file loaded) vs an empty thread',
      value: pool,
      unit: 'ms',
      baseline: bare,
      ratio: pool / bare,
      goal: '< 300 ms idle',
    });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return rows;
}
