/**
 * `castpress serve` under load, driven by the official client `@anvilco/anvil` at concurrency 8:
 * a fixed number of operations of each kind (fill of the W-9, Markdown and HTML generate,
 * createEtchPacket with an uploaded PDF and one signer, and the signer's submit as the signing
 * page posts it), on one instance and on two instances sharing one PostgreSQL (the clients split
 * between them), against the same work done in-process through the library (engine and packet
 * workflow on the same PostgreSQL) at the same concurrency. Phases of one kind run back to back for
 * the three set-ups, so load that comes and goes on a shared machine weighs on all three.
 *
 * Every answer is checked (a PDF, a packet, a completed signing, or else a typed error) and so is
 * every line of the servers' request logs (no 5xx): a kind with a bad answer has its rows marked
 * FAILED and no ratio.
 *
 * Goal: one instance at least 0.7 of the in-process throughput, per kind and overall. What the
 * server adds to each operation (HTTP, authentication, JSON and multipart, GraphQL, the hand-off to
 * its render threads, logging) is small next to rendering and signing a PDF; a server that loses
 * more than 30% of the engine's throughput spends a large share of its CPU on plumbing.
 *
 * Each kind runs in BENCH_SERVER_ROUNDS (default 3) rounds; a round runs the same number of operations
 * on each set-up, the set-ups in turn (the first of one round last in the next), so load that comes
 * and goes weighs on all three. The number is sized per kind (OPS_PER_ROUND, times BENCH_SERVER_SCALE,
 * default 1) to a second or more of CPU per set-up and round: a phase of a few hundred milliseconds is
 * decided by one scheduling hiccup on a loaded machine. CPU per operation (from /proc: the servers with
 * their Chromium, or this process with its own, plus PostgreSQL) is reported per kind and per round
 * beside ops/s and p50/p95: on a loaded machine it moves far less than throughput. Untimed operations
 * of each kind on each set-up come first: BENCH_SERVER_WARMUP (16), or a round when that is more
 * (fills and Markdown: CPU per operation still fell from one round to the next after half a round of
 * warm-up, as each render thread and this process compiled their hot code).
 * BENCH_SERVER_CONCURRENCY (8).
 */
import { readFileSync } from 'node:fs';
import { cp, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { createEngine } from '../src/index.js';
import { createPacketWorkflow, openPostgresStore } from '../src/packets/index.js';
import { createSigningIdentity } from '../src/signing/index.js';
import { w9Data, w9Pdf, w9Template } from '../test/fixtures/fill/corpus.js';
import { PostgresServer } from '../test/helpers/postgres.js';
import { startServe, stopServe, type ServeProcess } from '../test/helpers/serve.js';
import { childrenOf, commOf, peakRss, treePss } from './_proc-stats.js';
import {
  inProcessTarget,
  KINDS,
  loggedServerErrors,
  serverTarget,
  type Kind,
  type Problem,
  type Target,
  type Work,
  writeServerFiles,
} from './_server-load-targets.js';
import type { BenchRow } from './types.js';

const Anvil = anvilModule.default;

/**
 * Operations of each kind per set-up and round, at BENCH_SERVER_SCALE 1: ~1-3 s of CPU each on the
 * 2-core machine (fill ~7 ms, Markdown ~22 ms, HTML ~100 ms, a packet ~210 ms, a submit ~170 ms).
 */
const OPS_PER_ROUND: Record<Kind, number> = { fill: 160, markdown: 96, html: 24, packet: 16, submit: 16 };
const SCALE = Number(process.env.BENCH_SERVER_SCALE ?? 1);
const ROUNDS = Number(process.env.BENCH_SERVER_ROUNDS ?? 3);
const opsPerRound = (kind: Kind) => Math.max(1, Math.round(OPS_PER_ROUND[kind] * SCALE));
/** Untimed operations of each kind before its timed ones: every render thread of both instances started and its hot code compiled. */
const WARMUP = Number(process.env.BENCH_SERVER_WARMUP ?? 16);
const IDLE_MS = 5000;
const CONCURRENCY = Number(process.env.BENCH_SERVER_CONCURRENCY ?? 8);
const KEY = 'bench-server-load-key-0123456789';
interface Phase {
  ops: number;
  wallMs: number;
  cpuMs: number;
  /** This process's CPU meanwhile: for a server, the client's (@anvilco/anvil), which shares the machine's cores. */
  selfCpuMs: number;
  latencies: number[];
  bad: string[];
}

/** Runs `n` operations of `kind` on `target`, `CONCURRENCY` at a time; latencies and CPU of the target's processes. */
async function phase(target: Target, kind: Kind, n: number, concurrency = CONCURRENCY): Promise<Phase> {
  const latencies: number[] = [];
  const bad: string[] = [];
  let next = 0;
  const cpu0 = target.cpuMs();
  const self0 = process.cpuUsage();
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async (_, worker) => {
      while (next < n) {
        next++;
        const t = performance.now();
        let problem: Problem;
        try {
          problem = await target.op(kind, worker);
        } catch (e) {
          problem = `threw ${e instanceof Error ? e.message : String(e)}`;
        }
        latencies.push(performance.now() - t);
        if (problem) {
          bad.push(`${target.name} ${kind}: ${problem}`);
          if (bad.length === 1) process.stderr.write(`  bad answer: ${bad[0]}\n`);
        }
      }
    }),
  );
  const wallMs = performance.now() - t0;
  const self = process.cpuUsage(self0);
  return {
    ops: n,
    wallMs,
    cpuMs: target.cpuMs() - cpu0,
    selfCpuMs: (self.user + self.system) / 1000,
    latencies: latencies.sort((a, b) => a - b),
    bad,
  };
}

const quantile = (xs: number[], q: number) => xs[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? Number.NaN;
const perSecond = (p: Phase) => p.ops / (p.wallMs / 1000);

export async function run(): Promise<BenchRow[]> {
  const dir = await mkdtemp(path.join(tmpdir(), 'castpress-bench-server-load-'));
  const postgres = await PostgresServer.start();
  const pgPid = postgresPid();
  const servers: ServeProcess[] = [];
  const engine = createEngine({ templates: path.join(dir, 'templates') });
  let flowClose: (() => Promise<void>) | undefined;
  try {
    const { template, fields } = await w9Template();
    const work: Work = { fillData: w9Data(fields), uploadPdf: w9Pdf() };
    const keys = await writeServerFiles(dir, KEY, template.pdf as Uint8Array, fields);

    // One signing CA for every instance (docs/deployment.md: copy `signing/` before the first start).
    await createSigningIdentity({ dataDir: path.join(dir, 'data-a') });
    await cp(path.join(dir, 'data-a', 'signing'), path.join(dir, 'data-b', 'signing'), { recursive: true });
    await cp(path.join(dir, 'data-a', 'signing'), path.join(dir, 'data-in-process', 'signing'), { recursive: true });
    const start = async (data: string) => {
      const serve = startServe([
        '--port',
        '0',
        '--keys',
        keys,
        '--templates',
        path.join(dir, 'templates'),
        '--data',
        path.join(dir, data),
        '--postgres',
        postgres.connectionString,
      ]);
      servers.push(serve);
      const base = await serve.url;
      return { serve, base, client: new Anvil({ apiKey: KEY, baseURL: base }) };
    };
    const a = await start('data-a');
    const b = await start('data-b');
    // Memory with Chromium: read between phases (reading smaps costs tens of ms per process, which a
    // sampler would charge to this process's CPU and event loop, the in-process set-up's).
    let peakPss = 0;
    const readPss = () => (peakPss = Math.max(peakPss, treePss([a.serve.child.pid!, b.serve.child.pid!])));

    const store = await openPostgresStore({ connectionString: postgres.connectionString });
    const identity = await createSigningIdentity({ dataDir: path.join(dir, 'data-in-process') });
    const flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.bench',
      mailDir: path.join(dir, 'data-in-process', 'mail'),
      signatures: 'seal', // the server's default
    });
    flowClose = async () => {
      await flow.close();
      await store.close();
    };
    const inProcess = inProcessTarget(engine, flow, [...servers.map((s) => s.child.pid!), pgPid], pgPid, work);
    const targets = [
      serverTarget('1 instance', [a], pgPid, work),
      serverTarget('2 instances', [a, b], pgPid, work),
      inProcess,
    ];

    const bad: string[] = [];
    const results = new Map<string, Map<Kind, Phase[]>>(targets.map((t) => [t.name, new Map()]));
    for (const kind of KINDS) {
      // The signing links of every packet made (warm-up's and timed), checked, not timed.
      if (kind === 'submit')
        for (const t of targets) bad.push(...(await t.prepareSubmits()).filter((p): p is string => p !== undefined));
      // Warm-up of this kind just before its timed phases, untimed but checked: the pool ends a render
      // thread after 60 s idle, and a new one (modules, engine, fonts, cold code) would be timed otherwise.
      // Packets and submits warm up alike: each submit signs a packet made before it.
      const n = opsPerRound(kind);
      const warmup = kind === 'packet' || kind === 'submit' ? WARMUP : Math.max(WARMUP, n);
      for (const t of targets) bad.push(...(await phase(t, kind, warmup)).bad);
      for (let round = 0; round < ROUNDS; round++) {
        // The set-ups in turn, starting one further each round: none is always first after the warm-up.
        for (let j = 0; j < targets.length; j++) {
          const t = targets[(round + j) % targets.length]!;
          const p = await phase(t, kind, n);
          const list = results.get(t.name)!.get(kind) ?? [];
          list.push(p);
          results.get(t.name)!.set(kind, list);
          process.stderr.write(
            `  ${kind} round ${round + 1} on ${t.name} (load ${loadAverage()}): ${p.ops} ops in ${(p.wallMs / 1000).toFixed(1)} s, CPU ${(p.cpuMs / 1000).toFixed(2)} s = ${(p.cpuMs / p.ops).toFixed(2)} ms/op (${(p.cpuMs / p.wallMs).toFixed(2)} cores), this process ${(p.selfCpuMs / 1000).toFixed(2)} s\n`,
          );
          if (t !== inProcess) readPss();
        }
      }
    }

    // What the counted processes spend doing nothing (Chromium, PostgreSQL's background work, timers),
    // which a slower phase accrues longer: the same quiet 5 s for every set-up, everything started.
    await new Promise((r) => setTimeout(r, 2000));
    const idle0 = targets.map((t) => t.cpuMs());
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idle = new Map(targets.map((t, i) => [t.name, (t.cpuMs() - idle0[i]!) / IDLE_MS]));

    for (const s of servers) bad.push(...loggedServerErrors(s));
    return rows(results, idle, bad, {
      rssA: peakRss(a.serve.child.pid!),
      rssB: peakRss(b.serve.child.pid!),
      peakPss,
    });
  } finally {
    await flowClose?.();
    for (const s of servers) await stopServe(s);
    await engine.close();
    await postgres.stop();
    await rm(dir, { recursive: true, force: true });
  }
}

function loadAverage(): string {
  return readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
}

/** The PostgreSQL server the helper started: this process's child named `postgres`. */
function postgresPid(): number {
  const pid = childrenOf(process.pid).find((p) => commOf(p) === 'postgres');
  if (pid === undefined) throw new Error('no postgres child process');
  return pid;
}

const MB = 1024 ** 2;

/** A kind's rounds on one set-up as one phase: operations, times and CPU summed, latencies pooled. */
function merged(rounds: Phase[]): Phase {
  return {
    ops: rounds.reduce((s, p) => s + p.ops, 0),
    wallMs: rounds.reduce((s, p) => s + p.wallMs, 0),
    cpuMs: rounds.reduce((s, p) => s + p.cpuMs, 0),
    selfCpuMs: rounds.reduce((s, p) => s + p.selfCpuMs, 0),
    latencies: rounds.flatMap((p) => p.latencies).sort((a, b) => a - b),
    bad: rounds.flatMap((p) => p.bad),
  };
}

function rows(
  perRound: Map<string, Map<Kind, Phase[]>>,
  idle: Map<string, number>,
  bad: string[],
  memory: { rssA: number; rssB: number; peakPss: number },
): BenchRow[] {
  const results = new Map(
    [...perRound].map(([name, kinds]) => [name, new Map([...kinds].map(([k, ps]) => [k, merged(ps)]))] as const),
  );
  const one = results.get('1 instance')!;
  const two = results.get('2 instances')!;
  const local = results.get('in-process')!;
  const out: BenchRow[] = [];
  const failed = (kinds: Kind[], ...phases: Array<Map<Kind, Phase>>) =>
    phases.flatMap((m) => kinds.flatMap((k) => m.get(k)!.bad)).length;
  const label = (name: string, badCount: number) => (badCount > 0 ? `FAILED (${badCount} bad answers): ${name}` : name);
  const ratioRow = (
    name: string,
    value: number,
    baseline: number,
    unit: string,
    goal: string | undefined,
    badCount: number,
  ): BenchRow => ({
    name: label(name, badCount),
    value: badCount > 0 ? Number.NaN : value,
    unit,
    baseline,
    ratio: badCount > 0 ? Number.NaN : value / baseline,
    ...(goal ? { goal } : {}),
  });
  for (const kind of KINDS) {
    const [o, t, l] = [one.get(kind)!, two.get(kind)!, local.get(kind)!];
    const nOne = failed([kind], one, local);
    const nTwo = failed([kind], two, one);
    out.push(ratioRow(`${kind}: 1 instance vs in-process`, perSecond(o), perSecond(l), 'ops/s', '>= 0.7', nOne));
    out.push(ratioRow(`${kind}: 2 instances vs 1`, perSecond(t), perSecond(o), 'ops/s', 'reported', nTwo));
    out.push(
      ratioRow(
        `${kind} CPU per operation: 1 instance vs in-process`,
        o.cpuMs / o.ops,
        l.cpuMs / l.ops,
        'ms',
        'reported',
        nOne,
      ),
    );
    // The same ratio round by round (each round's phases ran back to back): how far one round's figure is to be trusted.
    const perRoundRatios = perRound
      .get('1 instance')!
      .get(kind)!
      .map(
        (p, r) =>
          p.cpuMs /
          p.ops /
          (perRound.get('in-process')!.get(kind)![r]!.cpuMs / perRound.get('in-process')!.get(kind)![r]!.ops),
      );
    out.push({
      name: label(
        `${kind} CPU per operation, 1 instance vs in-process, per round (${o.ops / perRoundRatios.length} ops): ${perRoundRatios.map((x) => x.toFixed(2)).join(', ')}; highest / lowest`,
        nOne,
      ),
      value: nOne > 0 ? Number.NaN : Math.max(...perRoundRatios) / Math.min(...perRoundRatios),
      unit: 'x',
      goal: 'reported',
    });
    for (const q of [0.5, 0.95]) {
      const name = `p${q * 100}`;
      out.push(
        ratioRow(
          `${kind} ${name}: 1 instance vs in-process`,
          quantile(o.latencies, q),
          quantile(l.latencies, q),
          'ms',
          'reported',
          nOne,
        ),
      );
      out.push(
        ratioRow(
          `${kind} ${name}: 2 instances vs 1`,
          quantile(t.latencies, q),
          quantile(o.latencies, q),
          'ms',
          'reported',
          nTwo,
        ),
      );
    }
  }
  const total = (m: Map<Kind, Phase>) => {
    const ps = [...m.values()];
    const ops = ps.reduce((s, p) => s + p.ops, 0);
    const wallMs = ps.reduce((s, p) => s + p.wallMs, 0);
    const cpuMs = ps.reduce((s, p) => s + p.cpuMs, 0);
    const selfCpuMs = ps.reduce((s, p) => s + p.selfCpuMs, 0);
    return {
      perSecond: ops / (wallMs / 1000),
      cpuPerOp: cpuMs / ops,
      cores: cpuMs / wallMs,
      clientPerOp: selfCpuMs / ops,
    };
  };
  const [o, t, l] = [total(one), total(two), total(local)];
  const allOne = failed([...KINDS], one, local);
  const allTwo = failed([...KINDS], two, one);
  out.push(ratioRow('all kinds: 1 instance vs in-process', o.perSecond, l.perSecond, 'ops/s', '>= 0.7', allOne));
  out.push(ratioRow('all kinds: 2 instances vs 1', t.perSecond, o.perSecond, 'ops/s', 'reported', allTwo));
  out.push(ratioRow('CPU per operation: 1 instance vs in-process', o.cpuPerOp, l.cpuPerOp, 'ms', 'reported', allOne));
  out.push(ratioRow('CPU per operation: 2 instances vs 1', t.cpuPerOp, o.cpuPerOp, 'ms', 'reported', allTwo));
  out.push(
    ratioRow(
      "client CPU per operation (@anvilco/anvil, this process) vs the server's: 1 instance",
      o.clientPerOp,
      o.cpuPerOp,
      'ms',
      'reported',
      allOne,
    ),
  );
  out.push(ratioRow('cores used: 1 instance vs in-process', o.cores, l.cores, 'cores', 'reported', allOne));
  out.push(ratioRow('cores used: 2 instances vs 1', t.cores, o.cores, 'cores', 'reported', allTwo));
  const [iOne, iTwo, iLocal] = [idle.get('1 instance')!, idle.get('2 instances')!, idle.get('in-process')!];
  out.push({
    name: 'idle CPU of the processes counted: 1 instance vs in-process',
    value: iOne,
    unit: 'cores',
    baseline: iLocal,
    ratio: iOne / iLocal,
    goal: 'reported',
  });
  out.push({
    name: 'idle CPU of the processes counted: 2 instances vs 1',
    value: iTwo,
    unit: 'cores',
    baseline: iOne,
    ratio: iTwo / iOne,
    goal: 'reported',
  });
  out.push({ name: 'peak RSS, server process A (VmHWM)', value: memory.rssA / MB, unit: 'MB', goal: 'reported' });
  out.push({ name: 'peak RSS, server process B (VmHWM)', value: memory.rssB / MB, unit: 'MB', goal: 'reported' });
  out.push({
    name: 'PSS of both servers with their Chromium, largest after a phase',
    value: memory.peakPss / MB,
    unit: 'MB',
    goal: 'reported',
  });
  // Answers outside a timed phase (warm-up, signing links, the servers' logs): they fail the whole table's verdict.
  const checked = [...results.values()].flatMap((m) => [...m.values()]).reduce((s, p) => s + p.ops, 0);
  out.push({
    name: label(`answers checked (typed, no 5xx, logs read), bad outside the timed phases: ${bad.length}`, bad.length),
    value: checked,
    unit: 'answers',
  });
  const all = [...bad, ...[...results.values()].flatMap((m) => [...m.values()].flatMap((p) => p.bad))];
  for (const b of all.slice(0, 20)) process.stderr.write(`  bad answer: ${b}\n`);
  return out;
}

if (import.meta.url === `file://${process.argv[1]}`) console.table(await run());
