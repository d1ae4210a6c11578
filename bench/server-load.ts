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
 * BENCH_SERVER_OPS (default 32) operations of each kind per set-up after BENCH_SERVER_WARMUP (16) untimed
 * ones, BENCH_SERVER_CONCURRENCY (8).
 */
import { readFileSync } from 'node:fs';
import { cp, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import anvilModule from '@anvilco/anvil';
import { createEngine } from '../src/index.js';
import { createPacketWorkflow, openPostgresStore } from '../src/packets/index.js';
import { createSigningIdentity } from '../src/signing/index.js';
import { w9Data, w9Pdf, w9Template } from '../test/fixtures/fill/corpus.js';
import { PostgresServer } from '../test/helpers/postgres.js';
import { startServe, stopServe, type ServeProcess } from '../test/helpers/serve.js';
import { childrenOf, commOf, peakRss, treeCpuMs, treePss } from './_proc-stats.js';
import type { BenchRow } from './types.js';

const Anvil = anvilModule.default;
type Client = InstanceType<typeof Anvil>;

const OPS = Number(process.env.BENCH_SERVER_OPS ?? 32);
/** Untimed operations of each kind first: every render thread of both instances compiles its hot code (a cold W-9 fill costs twice a warm one). */
const WARMUP = Number(process.env.BENCH_SERVER_WARMUP ?? 16);
const IDLE_MS = 5000;
const CONCURRENCY = Number(process.env.BENCH_SERVER_CONCURRENCY ?? 8);
const KEY = 'bench-server-load-key-0123456789';
const KINDS = ['fill', 'markdown', 'html', 'packet', 'submit'] as const;
type Kind = (typeof KINDS)[number];

/** What one operation found wrong with its answer, or undefined when the answer is right. */
type Problem = string | undefined;

/** A set-up under test: one operation of a kind for client slot `worker`, and the CPU its processes spent so far. */
interface Target {
  name: string;
  op: (kind: Kind, worker: number) => Promise<Problem>;
  /** Between the packet and the submit phases: a signing link for each packet made (checked, not timed). */
  prepareSubmits: () => Promise<Problem[]>;
  cpuMs: () => number;
}

interface Phase {
  ops: number;
  wallMs: number;
  cpuMs: number;
  /** This process's CPU meanwhile: for a server, the client's (@anvilco/anvil), which shares the machine's cores. */
  selfCpuMs: number;
  latencies: number[];
  bad: string[];
}

const markdownPayload = (i: number) => ({
  title: `Quarterly report ${i}`,
  data: [
    { heading: `Report ${i}` },
    ...Array.from({ length: 6 }, (_, s) => ({
      label: `Section ${s + 1}`,
      content: `The **quarter** closed with steady figures in every region. `.repeat(12),
    })),
    {
      table: {
        rows: [
          ['Region', 'Units', 'Revenue'],
          ...Array.from({ length: 30 }, (_, r) => [`R${r}`, `${r * 7}`, `${r * 91}.00`]),
        ],
      },
    },
  ],
});

const htmlPayload = (i: number) => ({
  type: 'html' as const,
  title: `Invoice ${i}`,
  data: {
    html:
      `<h1>Invoice ${i}</h1><p>Bill to: Ada Lovelace, 12 Analytical Row</p><table><thead><tr><th>Item</th><th>Qty</th><th>Price</th></tr></thead><tbody>` +
      Array.from(
        { length: 40 },
        (_, r) => `<tr><td>Item ${r}</td><td>${r + 1}</td><td>${(r * 9.5).toFixed(2)}</td></tr>`,
      ).join('') +
      '</tbody></table><p>Thank you for your business.</p>',
    css: 'body { font-family: sans-serif; font-size: 11pt } table { width: 100%; border-collapse: collapse } td, th { border-bottom: 1px solid #ccc; padding: 4px }',
  },
});

/** createEtchPacket's variables: the uploaded PDF (`file`, as the caller sends it) with one signature box for one embedded signer. */
const packetVariables = (i: number, file: unknown) => ({
  name: `Order ${i}`,
  isDraft: false,
  files: [
    {
      id: 'order',
      title: 'Order form',
      file,
      fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 680, width: 200, height: 30 } }],
    },
  ],
  signers: [
    {
      id: 'client',
      name: `Signer ${i}`,
      email: `signer${i}@example.com`,
      signerType: 'embedded',
      fields: [{ fileId: 'order', fieldId: 'sig' }],
    },
  ],
});
/** What the signing page posts once the signer has clicked the one box (each box is accepted by default). */
const ACCEPTED = [{ document: 0, fieldId: 'sig' }];

function typedRest(errors: unknown): Problem {
  const list = Array.isArray(errors) ? (errors as Array<Record<string, unknown>>) : [];
  const typed =
    list.length > 0 &&
    list.every((e) => typeof e.name === 'string' && typeof e.message === 'string' && Array.isArray(e.fields));
  return typed ? undefined : `untyped error body ${JSON.stringify(errors).slice(0, 200)}`;
}

/** A REST answer of the client: a 200 with a PDF, else a typed error below 500 (still a failure here). */
function checkPdf(r: { statusCode: number; data?: unknown; errors?: unknown }): Problem {
  if (r.statusCode === 200 && Buffer.isBuffer(r.data) && r.data.subarray(0, 5).toString('latin1') === '%PDF-')
    return undefined;
  return `${r.statusCode}: ${typedRest(r.errors) ?? JSON.stringify(r.errors).slice(0, 200)}`;
}

/** A GraphQL answer: a 200 without errors, else each error with a message and its name in extensions. */
function checkGraphql(r: { statusCode: number; errors?: unknown }): Problem {
  if (r.statusCode === 200 && r.errors === undefined) return undefined;
  const list = Array.isArray(r.errors)
    ? (r.errors as Array<{ message?: unknown; extensions?: { name?: unknown } }>)
    : [];
  const typed =
    list.length > 0 && list.every((e) => typeof e.message === 'string' && typeof e.extensions?.name === 'string');
  return `${r.statusCode}: ${typed ? '' : 'untyped '}${JSON.stringify(r.errors).slice(0, 200)}`;
}

/** A 5xx among the answers a server logged (pino JSON lines: `res.statusCode`). */
function loggedServerErrors(s: ServeProcess): string[] {
  const bad: string[] = [];
  for (const line of s.stdout().split('\n')) {
    if (!line.includes('"statusCode":5')) continue;
    try {
      const entry = JSON.parse(line) as { res?: { statusCode?: number }; req?: { url?: string } };
      if ((entry.res?.statusCode ?? 0) >= 500) bad.push(`logged ${entry.res!.statusCode} ${line.slice(0, 200)}`);
    } catch {
      // not a log line
    }
  }
  return bad;
}

/** Instances of `castpress serve` behind the target; the client slot `worker` uses instance worker % n. */
function serverTarget(
  name: string,
  instances: Array<{ serve: ServeProcess; base: string; client: Client }>,
  pgPid: number,
): Target {
  const packets: Array<{ signerEid: string; made: number }> = [];
  const links: Array<{ url: string; made: number }> = [];
  let count = 0;
  const op = async (kind: Kind, worker: number): Promise<Problem> => {
    const at = worker % instances.length;
    const { client, base } = instances[at]!;
    const i = count++;
    switch (kind) {
      case 'fill':
        return checkPdf(await client.fillPDF('w9', { data: fillData }));
      case 'markdown':
        return checkPdf(await client.generatePDF(markdownPayload(i)));
      case 'html':
        return checkPdf(await client.generatePDF(htmlPayload(i)));
      case 'packet': {
        const r = await client.createEtchPacket({
          variables: packetVariables(
            i,
            Anvil.prepareGraphQLFile(Buffer.from(uploadPdf), { filename: 'order.pdf', mimetype: 'application/pdf' }),
          ),
        });
        const bad = checkGraphql(r);
        if (bad) return bad;
        const created = (
          r.data as { data?: { createEtchPacket?: { documentGroup?: { signers?: Array<{ eid?: string }> } } } }
        ).data?.createEtchPacket;
        const signerEid = created?.documentGroup?.signers?.[0]?.eid;
        if (!signerEid) return `createEtchPacket answered no signer: ${JSON.stringify(r.data).slice(0, 200)}`;
        packets.push({ signerEid, made: at });
        return undefined;
      }
      case 'submit': {
        const link = links.shift();
        if (!link) return 'no signing link left';
        // On the other instance when there are two: whichever instance a signer reaches, the packet is there.
        const to = instances[(link.made + 1) % instances.length]!.base;
        const u = new URL(link.url);
        const signerEid = decodeURIComponent(u.pathname.split('/').pop()!);
        const res = await fetch(`${to}/sign/${encodeURIComponent(signerEid)}/submit`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', origin: to },
          body: JSON.stringify({
            token: u.searchParams.get('token'),
            signature: { type: 'typed', text: `Signer ${i}` },
            accepted: ACCEPTED,
          }),
        });
        const text = await res.text();
        let answer: {
          event?: { action?: unknown; documentGroupStatus?: unknown; error?: unknown; message?: unknown };
        } = {};
        try {
          answer = JSON.parse(text) as typeof answer;
        } catch {
          return `${res.status}: not JSON ${text.slice(0, 200)}`;
        }
        const e = answer.event;
        if (res.status === 200 && e?.action === 'signerComplete' && e.documentGroupStatus === 'completed')
          return undefined;
        const typed = typeof e?.error === 'string' && typeof e.message === 'string';
        return `${res.status}: ${typed ? '' : 'untyped '}${text.slice(0, 200)}`;
      }
    }
  };
  return {
    name,
    op,
    prepareSubmits: async () => {
      const problems: Problem[] = [];
      for (const p of packets.splice(0)) {
        const r = await instances[p.made]!.client.generateEtchSignUrl({
          variables: { signerEid: p.signerEid, clientUserId: p.signerEid },
        });
        if (r.errors || !r.url)
          problems.push(`generateEtchSignUrl: ${r.statusCode} ${JSON.stringify(r.errors).slice(0, 200)}`);
        else links.push({ url: r.url, made: p.made });
      }
      return problems;
    },
    cpuMs: () => treeCpuMs([...instances.map((s) => s.serve.child.pid!), pgPid]),
  };
}

let fillData: Record<string, unknown> = {};
let uploadPdf: Uint8Array = new Uint8Array();

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
    fillData = w9Data(fields);
    uploadPdf = w9Pdf();
    await mkdir(path.join(dir, 'templates', 'w9'), { recursive: true });
    await writeFile(path.join(dir, 'templates', 'w9', 'template.pdf'), template.pdf as Uint8Array);
    await writeFile(
      path.join(dir, 'templates', 'w9', 'v1.json'),
      JSON.stringify({ title: 'W-9', pdf: 'template.pdf', fields }),
    );
    const keys = path.join(dir, 'keys.json');
    // The client throttles itself to what the server announces: announce more than this machine can serve.
    await writeFile(
      keys,
      JSON.stringify({ keys: [{ key: KEY, kind: 'production' }], rateLimit: { limit: 10_000, intervalMs: 1000 } }),
    );

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
    const inProcess = inProcessTarget(engine, flow, [...servers.map((s) => s.child.pid!), pgPid], pgPid);
    const targets = [serverTarget('1 instance', [a], pgPid), serverTarget('2 instances', [a, b], pgPid), inProcess];

    // Warm-up, untimed but checked: threads, Chromium, JIT and the store's migrations.
    const bad: string[] = [];
    for (const t of targets)
      for (const kind of KINDS) {
        if (kind === 'submit') bad.push(...(await t.prepareSubmits()).filter((p): p is string => p !== undefined));
        bad.push(...(await phase(t, kind, WARMUP)).bad);
      }

    // What the counted processes spend doing nothing (Chromium, PostgreSQL's background work, timers),
    // which a slower phase accrues longer: the same quiet 5 s for every set-up.
    await new Promise((r) => setTimeout(r, 2000));
    const idle0 = targets.map((t) => t.cpuMs());
    await new Promise((r) => setTimeout(r, IDLE_MS));
    const idle = new Map(targets.map((t, i) => [t.name, (t.cpuMs() - idle0[i]!) / IDLE_MS]));

    const results = new Map<string, Map<Kind, Phase>>(targets.map((t) => [t.name, new Map()]));
    for (const kind of KINDS)
      for (const t of targets) {
        if (kind === 'submit') bad.push(...(await t.prepareSubmits()).filter((p): p is string => p !== undefined));
        process.stderr.write(`  ${kind} on ${t.name} (load ${loadAverage()})\n`);
        const p = await phase(t, kind, OPS);
        results.get(t.name)!.set(kind, p);
        process.stderr.write(
          `    ${p.ops} ops in ${(p.wallMs / 1000).toFixed(1)} s, CPU ${(p.cpuMs / 1000).toFixed(1)} s (${(p.cpuMs / p.wallMs).toFixed(2)} cores), this process ${(p.selfCpuMs / 1000).toFixed(1)} s\n`,
        );
        if (t !== inProcess) readPss();
      }
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

type Flow = ReturnType<typeof createPacketWorkflow>;

/** The same work through the library in this process: the engine and a packet workflow on the same PostgreSQL. */
function inProcessTarget(
  engine: ReturnType<typeof createEngine>,
  flow: Flow,
  exclude: number[],
  pgPid: number,
): Target {
  const s = flow.service;
  const signers: string[] = [];
  const links: string[] = [];
  let count = 0;
  const pdf = (bytes: Uint8Array): Problem =>
    Buffer.from(bytes.subarray(0, 5)).toString('latin1') === '%PDF-' ? undefined : 'not a PDF';
  const op = async (kind: Kind): Promise<Problem> => {
    const i = count++;
    switch (kind) {
      case 'fill':
        return pdf(await engine.fill('w9', { data: fillData }));
      case 'markdown':
        return pdf(await engine.generate(markdownPayload(i)));
      case 'html':
        return pdf(await engine.generate(htmlPayload(i)));
      case 'packet': {
        const created = await s.createEtchPacket(
          packetVariables(i, { data: uploadPdf, filename: 'order.pdf', mimetype: 'application/pdf' }),
        );
        const eid = created.documentGroup.signers[0]?.eid;
        if (!eid) return 'no signer';
        signers.push(eid);
        return undefined;
      }
      case 'submit': {
        const link = links.shift();
        if (!link) return 'no signing link left';
        const u = new URL(link);
        const event = await s.submitSigning({
          signerEid: decodeURIComponent(u.pathname.split('/').pop()!),
          token: u.searchParams.get('token')!,
          inputs: { signature: { type: 'typed', text: `Signer ${i}` } },
          accepted: ACCEPTED,
          ip: '127.0.0.1',
          userAgent: 'bench',
        });
        return event.action === 'signerComplete' && event.documentGroupStatus === 'completed'
          ? undefined
          : `not completed: ${JSON.stringify(event).slice(0, 200)}`;
      }
    }
  };
  return {
    name: 'in-process',
    op,
    prepareSubmits: async () => {
      for (const eid of signers.splice(0))
        links.push(await s.generateEtchSignURL({ signerEid: eid, clientUserId: eid }));
      return [];
    },
    // This process (with its Chromium) and PostgreSQL, not the servers this process started.
    cpuMs: () => treeCpuMs([process.pid, pgPid], exclude),
  };
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

function rows(
  results: Map<string, Map<Kind, Phase>>,
  idle: Map<string, number>,
  bad: string[],
  memory: { rssA: number; rssB: number; peakPss: number },
): BenchRow[] {
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
