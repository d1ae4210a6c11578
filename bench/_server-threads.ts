/**
 * Where a fill or a Markdown generate spends its CPU through `castpress serve` against the engine in
 * this process: `npx tsx bench/_server-threads.ts fill|markdown [OPS] [ROUNDS] [--cpu-prof DIR]`.
 * One server (this checkout's bin: its bundle when fresh) is driven by @anvilco/anvil at concurrency 8,
 * and the engine here at the same concurrency, in alternating rounds of OPS operations (default 300
 * fills or 150 Markdown) after untimed ones; per round the CPU per operation of each side (/proc: every
 * thread of the process, Chromium none here) and of each of their threads that spent any, with the
 * second it started after its process (V8's platform threads start with it, the render threads with
 * the server's pool, libuv's on first use). `--cpu-prof DIR`: the server writes a V8 CPU profile per
 * thread there when it exits (the profiler samples wall time: a thread descheduled on a loaded machine
 * charges the function it was in). Not a row of `npm run bench` (the name starts with _).
 */
import { spawn } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { createEngine } from '../src/index.js';
import { w9Data, w9Template } from '../test/fixtures/fill/corpus.js';
import { treeCpuMs } from './_proc-stats.js';
import { markdownPayload, writeServerFiles } from './_server-load-targets.js';

const Anvil = anvilModule.default;
const KEY = 'bench-server-threads-key-0123456789';
const CONCURRENCY = 8;

const args = process.argv.slice(2);
const profAt = args.indexOf('--cpu-prof');
const profDir = profAt >= 0 ? args.splice(profAt, 2)[1] : undefined;
const [kindArg, opsArg, roundsArg] = args;
if (kindArg !== 'fill' && kindArg !== 'markdown') {
  console.error('usage: npx tsx bench/_server-threads.ts fill|markdown [OPS] [ROUNDS] [--cpu-prof DIR]');
  process.exit(2);
}
const kind = kindArg;
const OPS = Number(opsArg ?? (kind === 'fill' ? 300 : 150));
const ROUNDS = Number(roundsArg ?? 3);

/** user + sys CPU (ms) of each thread of `pid`, with the seconds between its process's start and its own. */
function threadCpu(pid: number): Map<number, { ms: number; startedAfter: number }> {
  const fields = (file: string) => {
    const text = readFileSync(file, 'utf8');
    return text.slice(text.lastIndexOf(')') + 2).split(' ');
  };
  // Field n of /proc/<pid>/stat is fields[n - 3]: utime 14, stime 15, starttime 22 (clock ticks of 10 ms).
  const processStart = Number(fields(`/proc/${pid}/stat`)[19]);
  const out = new Map<number, { ms: number; startedAfter: number }>();
  for (const tid of readdirSync(`/proc/${pid}/task`)) {
    try {
      const f = fields(`/proc/${pid}/task/${tid}/stat`);
      out.set(Number(tid), {
        ms: (Number(f[11]) + Number(f[12])) * 10,
        startedAfter: (Number(f[19]) - processStart) / 100,
      });
    } catch {
      // ended meanwhile
    }
  }
  return out;
}

function perThread(pid: number, before: ReturnType<typeof threadCpu>, ops: number): string {
  return [...threadCpu(pid)]
    .map(([tid, t]) => ({ tid, t, perOp: (t.ms - (before.get(tid)?.ms ?? 0)) / ops }))
    .filter((x) => x.perOp >= 0.05)
    .sort((a, b) => b.perOp - a.perOp)
    .map(
      ({ tid, t, perOp }) => `${tid === pid ? 'main' : `${tid} (+${t.startedAfter.toFixed(1)} s)`} ${perOp.toFixed(2)}`,
    )
    .join(', ');
}

async function concurrently(n: number, op: (i: number) => Promise<void>): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < n) await op(next++);
    }),
  );
}

const dir = await mkdtemp(path.join(tmpdir(), 'castpress-server-threads-'));
const { template, fields } = await w9Template();
const keys = await writeServerFiles(dir, KEY, template.pdf as Uint8Array, fields);
const bin = path.join(import.meta.dirname, '..', 'bin', 'castpress.js');
const serveArgs = ['serve', '--port', '0', '--keys', keys, '--templates', path.join(dir, 'templates')];
const child = spawn(
  process.execPath,
  [
    ...(profDir ? ['--cpu-prof', `--cpu-prof-dir=${profDir}`] : []),
    bin,
    ...serveArgs,
    '--data',
    path.join(dir, 'data'),
  ],
  { stdio: ['ignore', 'ignore', 'pipe'] },
);
const server = child.pid!;
const engine = createEngine({ templates: path.join(dir, 'templates') });
try {
  let stderr = '';
  const base = await new Promise<string>((resolve, reject) => {
    child.stderr!.on('data', (c: Buffer) => {
      stderr += c.toString();
      const m = /listening on (http:\/\/\S+)/.exec(stderr);
      if (m) resolve(m[1]!);
    });
    child.on('exit', (code) => reject(new Error(`castpress serve exited ${code}: ${stderr}`)));
  });
  const client = new Anvil({ apiKey: KEY, baseURL: base });
  const data = w9Data(fields);
  const viaServer = async (i: number) => {
    const r = kind === 'fill' ? await client.fillPDF('w9', { data }) : await client.generatePDF(markdownPayload(i));
    if (r.statusCode !== 200) throw new Error(`${r.statusCode}: ${JSON.stringify(r.errors)}`);
  };
  const inProcess = async (i: number) => {
    await (kind === 'fill' ? engine.fill('w9', { data }) : engine.generate(markdownPayload(i)));
  };
  // Untimed: both render threads and this process compile their hot code.
  await concurrently(OPS / 2, viaServer);
  await concurrently(OPS / 2, inProcess);
  let [serverSum, localSum] = [0, 0];
  for (let round = 1; round <= ROUNDS; round++) {
    const load = loadavg()
      .map((x) => x.toFixed(1))
      .join(' ');
    const s0 = treeCpuMs([server]);
    const st0 = threadCpu(server);
    await concurrently(OPS, viaServer);
    const serverMs = (treeCpuMs([server]) - s0) / OPS;
    const serverThreads = perThread(server, st0, OPS);
    const l0 = treeCpuMs([process.pid], [server]);
    const lt0 = threadCpu(process.pid);
    await concurrently(OPS, inProcess);
    const localMs = (treeCpuMs([process.pid], [server]) - l0) / OPS;
    const localThreads = perThread(process.pid, lt0, OPS);
    serverSum += serverMs;
    localSum += localMs;
    console.log(
      `${kind} round ${round} (load ${load}): server ${serverMs.toFixed(2)} ms/op, in-process ${localMs.toFixed(2)} ms/op, ratio ${(serverMs / localMs).toFixed(3)}`,
    );
    console.log(`  server threads, ms/op: ${serverThreads}`);
    console.log(`  in-process threads, ms/op: ${localThreads}`);
  }
  console.log(
    `${kind}, ${ROUNDS} rounds of ${OPS}: server ${(serverSum / ROUNDS).toFixed(2)} ms/op, in-process ${(localSum / ROUNDS).toFixed(2)} ms/op, ratio ${(serverSum / localSum).toFixed(3)}`,
  );
} finally {
  await engine.close();
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  await rm(dir, { recursive: true, force: true });
}
