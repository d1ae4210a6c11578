/**
 * No data lost: a child process works packets forward on the embedded store
 * (create, sign URL, open, update the payload, sign, complete and seal) and is killed
 * with SIGKILL inside a chosen step, 100 times (CRASH_POINTS to change). After every kill
 * the store must hold each packet before or after a step, never in between: statuses
 * agree with each other, documents exist whole, and every committed state change has
 * exactly its events in the outbox. The next child carries interrupted packets on.
 * The kills are planned by step, not by time: the child names each step it begins and holds at the
 * planned one until told to go on, and the kill comes a planned delay after that, so every step class
 * is hit at delays from before its first instructions to past its end, on a loaded machine as on an idle one.
 * Each lane starts its next child while the current one works (CRASH_STANDBY=0: one at a time):
 * a child's start-up touches no store (it waits for `go`), so the kill points are the same,
 * and the time a lane spends on start-ups overlaps with the work, the kill and the check.
 * The steps the kills fell in, where the lanes' time went and the CPU the children and this
 * process used are printed at the end, never asserted.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdir, readFile, rm, stat, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { build } from 'esbuild';
import { asciiOnly, cjsBundleOptions } from '../scripts/bundle.mjs';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyPdf } from '../src/signing/index.js';
import { exited, waitForOutput } from './helpers/redis.js';
import { seededRandom } from './helpers/random.js';
import { tempDir } from './helpers/signing.js';

const POINTS = Number(process.env.CRASH_POINTS ?? 100);
/**
 * Lanes (separate stores) run side by side. Children are CPU-bound while they start, so on this
 * 2-core machine a third lane does not help; CRASH_LANES sets another count.
 */
const LANES = Number(process.env.CRASH_LANES ?? 2);
const STANDBY = process.env.CRASH_STANDBY !== '0';

let tmp: { dir: string; remove: () => Promise<void> };
let child: string;
const loader = path.resolve('test/helpers/code-cache-loader.cjs');

beforeAll(async () => {
  tmp = await tempDir('castpress-crash-');
  // The child as the CLI's bundles are built (scripts/bundle.mjs: pure-JS packages inlined), but
  // as one CommonJS file that code-cache-loader.cjs runs with V8's code cache, so each of the 200
  // starts neither decodes nor compiles the engine again (Node 20's ES-module loader does both
  // every time: 2.0 s of CPU to 'ready' before, 1.35 s with the cache, measured under load).
  // Two levels below the repository, as src/<capability>/ is, so paths taken from import.meta.url hold.
  const out = path.join(process.cwd(), 'test-output', `crash-child-${process.pid}`);
  await mkdir(out, { recursive: true });
  child = path.join(out, 'child.cjs');
  // Comments and indentation out (4.0 MB instead of 6.1), and ASCII only: a file with one other
  // character is read into a two-byte string, which took 120-140 ms of each child's start to read
  // and made compiling slower (55 ms and 80 ms less per start, measured). esbuild leaves a few
  // characters in regular-expression literals as they are: written here as \u escapes, which
  // mean the same character in a string, a regular expression or an identifier.
  await build({
    ...cjsBundleOptions(path.resolve('test/helpers/workflow-crash-child.ts'), child),
    charset: 'ascii',
    minifyWhitespace: true,
  });
  const source = await readFile(child, 'utf8');
  const ascii = asciiOnly(source);
  if (ascii !== source) await writeFile(child, ascii);
  // One run on a store of its own, past a whole packet, writes the code cache the lanes' children use.
  const primer = spawn(
    process.execPath,
    [loader, child, path.join(tmp.dir, 'primer'), path.join(tmp.dir, 'identity'), 'http://127.0.0.1:9/hooks'],
    {
      stdio: ['pipe', 'pipe', 'pipe'],
      env: { ...process.env, SAVE_CODE_CACHE: '1' },
    },
  );
  await waitForOutput(primer, /ready\n/, 120_000);
  const done = waitForOutput(primer, /done /, 120_000);
  primer.stdin!.write('go\n');
  await done;
  primer.stdin!.end('save\n');
  expect(await exited(primer)).toBe(0);
}, 180_000);

afterAll(async () => {
  // Children left by a failed lane (a standby, or the one a failed check left running).
  for (const c of live) {
    c.process.kill('SIGKILL');
    await exited(c.process);
  }
  await tmp?.remove();
  if (child) await rm(path.dirname(child), { recursive: true, force: true });
});

/** A blob file as it was when its bytes were found to hash to its name. */
type Seen = Map<string, string>;

/**
 * A blob exists whole: its bytes hash to its name. Blobs are content-addressed and written once,
 * so one that was whole at an earlier check and whose file is the same one (inode, size, mtime)
 * is not read and hashed again: a rewrite or a torn write after a kill changes the stat and is
 * hashed again, and the work of a check does not grow with the kills before it.
 */
async function checkBlob(dir: string, hash: string, whole: Seen): Promise<void> {
  const file = path.join(dir, 'blobs', hash.slice(0, 2), hash);
  const s = await stat(file);
  const id = `${s.ino}:${s.size}:${s.mtimeMs}`;
  if (whole.get(file) === id) return;
  expect(
    createHash('sha256')
      .update(await readFile(file))
      .digest('hex'),
  ).toBe(hash);
  whole.set(file, id);
}

/**
 * One row per packet with everything the check compares, in one query: its signers in routing
 * order (status, tokens marked signed, whether the inputs' hash is set), its webhook events by
 * action and its documents' hashes. A query per packet and per signer made the check's cost grow
 * with the packets the kills left behind.
 */
const STATE = `
  SELECT p.eid, p.status,
    (SELECT json_group_array(json_object(
        'status', s.status,
        'signed', (SELECT count(*) FROM tokens t WHERE t.signer_eid = s.eid AND t.signed_at IS NOT NULL),
        'inputs', s.inputs_hash IS NOT NULL) ORDER BY s.idx)
      FROM signers s WHERE s.packet_eid = p.eid) AS signers,
    (SELECT count(*) FROM outbox o WHERE o.packet_eid = p.eid AND o.kind = 'webhook'
      AND json_extract(o.payload, '$.action') = 'signerComplete') AS signer_events,
    (SELECT count(*) FROM outbox o WHERE o.packet_eid = p.eid AND o.kind = 'webhook'
      AND json_extract(o.payload, '$.action') = 'etchPacketComplete') AS packet_events,
    (SELECT json_group_array(json_array(d.assembled_hash, d.current_hash)) FROM documents d WHERE d.packet_eid = p.eid)
      AS documents
  FROM packets p`;

interface PacketState {
  eid: string;
  status: string;
  signers: string;
  signer_events: number;
  packet_events: number;
  documents: string;
}

/** Everything the store must agree on after a kill; returns the eids of complete and unfinished packets. */
async function check(
  dir: string,
  verified: Set<string>,
  whole: Seen,
): Promise<{ complete: string[]; unfinished: string[] }> {
  const db = new Database(path.join(dir, 'packets.db'));
  let packets: PacketState[];
  try {
    expect(db.prepare('PRAGMA integrity_check').get()).toEqual(expect.objectContaining({ integrity_check: 'ok' }));
    packets = db.prepare(STATE).all() as PacketState[];
  } finally {
    db.close();
  }
  const complete: string[] = [];
  const unfinished: string[] = [];
  for (const p of packets) {
    const { eid } = p;
    const signers = JSON.parse(p.signers) as Array<{ status: string; signed: number; inputs: number }>;
    expect(signers, `signers of ${eid}`).toHaveLength(2);
    const done = signers.filter((s) => s.status === 'completed').length;
    const expected = done === signers.length ? 'complete' : done > 0 ? 'partial' : 'sent';
    expect(p.status, `packet ${eid}`).toBe(expected);
    // Routing: the second signer never signed before the first.
    if (signers[1]!.status === 'completed') expect(signers[0]!.status).toBe('completed');
    expect(Number(p.signer_events), `signerComplete events of ${eid}`).toBe(done);
    expect(Number(p.packet_events), `etchPacketComplete events of ${eid}`).toBe(expected === 'complete' ? 1 : 0);
    for (const s of signers) {
      const completed = s.status === 'completed';
      expect(s, `a signer of ${eid}`).toMatchObject({ signed: completed ? 1 : 0, inputs: completed ? 1 : 0 });
    }
    const docs = JSON.parse(p.documents) as Array<[string, string]>;
    expect(docs).toHaveLength(1);
    for (const [assembled, current] of docs) {
      for (const hash of [assembled, current]) await checkBlob(dir, hash, whole);
      if (expected === 'sent') expect(current).toBe(assembled);
      else expect(current).not.toBe(assembled);
      if (expected === 'complete' && !verified.has(eid)) {
        const root = await readFile(path.join(tmp.dir, 'identity', 'signing', 'root-ca.pem'), 'utf8');
        const result = await verifyPdf(
          new Uint8Array(await readFile(path.join(dir, 'blobs', current.slice(0, 2), current))),
          { trustAnchors: [root] },
        );
        expect(result.signatures[0]).toMatchObject({ valid: true, coversWholeDocument: true });
        verified.add(eid);
      }
    }
    (expected === 'complete' ? complete : unfinished).push(eid);
  }
  return { complete, unfinished };
}

/**
 * The steps the child announces (`at <step>`, test/helpers/workflow-crash-child.ts), in the order a
 * packet goes through them: each is a kill target.
 */
const STEPS = [
  'list unfinished',
  'create packet',
  'read packet',
  'sign URL a',
  'open a',
  'submit a',
  'sign URL b',
  'open b',
  'update payload',
  'submit b',
];
/**
 * How long after the child goes on into the target step its kill comes (ms): 0 is before it runs any of
 * the step, the fractions of a millisecond land inside the short steps (reading the packet, a sign URL:
 * ~1-3 ms), the longer ones inside the long steps (the first signature, the completion and seal) or,
 * past a step's end, in the steps after it.
 */
const DELAYS = [0, 0.25, 0.5, 1, 2, 4, 16, 64, 128, 256];

/** Waits `ms`: under a millisecond by watching the clock, since a timer cannot wait less than one. */
async function pause(ms: number): Promise<void> {
  if (ms >= 1) {
    await new Promise((r) => setTimeout(r, ms));
    return;
  }
  const until = performance.now() + ms;
  while (performance.now() < until);
}

/** A kill: once the child has begun `step`, wait `delay` ms, then SIGKILL. */
interface KillPoint {
  step: string;
  delay: number;
}

/**
 * The kills in order: every hundred holds each (step, delay) pair once (a Latin square: step k mod 10,
 * delay (k + k div 10) mod 10), so the lanes' halves each hit every step at five delays spread over
 * the range.
 */
function killPlan(points: number): KillPoint[] {
  return Array.from({ length: points }, (_, k) => ({
    step: STEPS[k % STEPS.length]!,
    delay: DELAYS[(k + Math.floor(k / STEPS.length)) % DELAYS.length]!,
  }));
}

/** A started child: ready once it has printed `ready`; `step` is the last step it said it began. */
interface Child {
  process: ChildProcess;
  ready: Promise<void>;
  step: string;
  /** How many times it began each step. */
  begun: Map<string, number>;
  /** Called on each step the child begins. */
  onStep?: () => void;
  stderr: string;
}

const live = new Set<Child>();
/** Where the lanes' time went (ms, summed over lanes; printed at the end, never asserted). */
const spent = { ready: 0, opened: 0, kill: 0, check: 0 };
async function timed<T>(what: keyof typeof spent, work: Promise<T>): Promise<T> {
  const t = performance.now();
  try {
    return await work;
  } finally {
    spent[what] += performance.now() - t;
  }
}
/** Children whose loader said V8 rejected the code cache (must stay 0: each would compile the whole bundle). */
let cacheRejected = 0;
/** Where the kills fell: the step each killed child had last announced, with counts. */
const killedIn = new Map<string, number>();
/** CPU seconds the killed children used from their start to their planned step (/proc, Linux), printed at the end. */
let childrenCpu = 0;

/** user + sys CPU seconds of a live process so far (0 where /proc cannot say). */
async function cpuOf(pid: number): Promise<number> {
  try {
    // Fields after the command's closing parenthesis: state is the first, utime the 12th, stime the 13th,
    // in clock ticks (USER_HZ, 100 on Linux).
    const fields = (await readFile(`/proc/${pid}/stat`, 'utf8')).split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
}

function start(dir: string): Child {
  const p = spawn(
    process.execPath,
    [loader, child, path.join(dir, 'store'), path.join(tmp.dir, 'identity'), 'http://127.0.0.1:9/hooks'],
    { stdio: ['pipe', 'pipe', 'pipe'] },
  );
  // A ceiling for a very busy machine, not a speed check: the error carries the child's output.
  const ready = waitForOutput(p, /ready\n/, 120_000);
  const c: Child = { process: p, ready, step: 'waiting for go', begun: new Map(), stderr: '' };
  // A standby killed by afterAll never gets ready; its rejection is nobody's failure.
  ready.catch(() => undefined);
  let pending = '';
  p.stdout!.on('data', (d: Buffer) => {
    const lines = (pending + d.toString()).split('\n');
    pending = lines.pop()!;
    for (const line of lines) {
      if (!line.startsWith('at ')) continue;
      c.step = line.slice(3);
      c.begun.set(c.step, (c.begun.get(c.step) ?? 0) + 1);
      c.onStep?.();
    }
  });
  p.stderr!.on('data', (d: Buffer) => {
    c.stderr = (c.stderr + d.toString()).slice(-4000);
    // The loader says so when V8 refuses the primer's cache (other flags, another V8): every start then compiles.
    if (d.toString().includes('code cache rejected')) cacheRejected++;
  });
  live.add(c);
  p.once('exit', () => live.delete(c));
  return c;
}

/**
 * Lets a ready child open the store and work, holding at the first `hold` step it begins (until `next`);
 * resolves when it has opened the store (the kill window starts there).
 */
async function go(c: Child, hold = ''): Promise<void> {
  await c.ready;
  const opened = waitForOutput(c.process, /opened\n/, 120_000);
  c.process.stdin!.write(hold ? `go ${hold}\n` : 'go\n');
  await opened;
}

/** Resolves once the child has begun `step` (or has exited: the caller says so). */
function stepBegun(c: Child, step: string): Promise<void> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!c.begun.has(step) && c.process.exitCode === null) return;
      c.onStep = undefined;
      resolve();
    };
    c.onStep = check;
    c.process.once('exit', check);
    check();
  });
}

async function lane(n: number, plan: KillPoint[]): Promise<{ kills: number; complete: number }> {
  const dir = path.join(tmp.dir, `lane-${n}`);
  // The lane's points in a shuffled order, so a step is killed on stores left in various states.
  const random = seededRandom(1000 + n);
  const points = [...plan];
  for (let i = points.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [points[i], points[j]] = [points[j]!, points[i]!];
  }
  const verified = new Set<string>();
  const whole: Seen = new Map();
  let next: Child | undefined;
  for (const point of points) {
    const c = next ?? start(dir);
    await timed('ready', c.ready);
    await timed('opened', go(c, point.step));
    // The next child starts up now, beside this one's work; it waits for its own go.
    next = STANDBY ? start(dir) : undefined;
    const kill = performance.now();
    // The child holds at the step's start: the delay runs from the moment it goes on, however
    // late this process reads its announcement (on a loaded machine, after a short step's end).
    await stepBegun(c, point.step);
    if (c.process.exitCode !== null) throw new Error(`child exited by itself (${c.process.exitCode}): ${c.stderr}`);
    // Its CPU so far is read while it holds (reading /proc between `next` and the kill would add to the delay).
    childrenCpu += await cpuOf(c.process.pid!);
    c.process.stdin!.write('next\n');
    await pause(point.delay);
    spent.kill += performance.now() - kill;
    if (c.process.exitCode !== null) throw new Error(`child exited by itself (${c.process.exitCode}): ${c.stderr}`);
    c.process.kill('SIGKILL');
    await exited(c.process);
    killedIn.set(c.step, (killedIn.get(c.step) ?? 0) + 1);
    await timed('check', check(path.join(dir, 'store'), verified, whole));
  }
  // A last run without a kill carries every interrupted packet to the end.
  const before = await check(path.join(dir, 'store'), verified, whole);
  const c = next ?? start(dir);
  await c.ready;
  const done = waitForOutput(c.process, /done /, 120_000);
  await go(c);
  await done;
  c.process.kill('SIGKILL');
  await exited(c.process);
  const after = await check(path.join(dir, 'store'), verified, whole);
  for (const eid of before.unfinished) expect(after.complete, `packet ${eid} finished after the kills`).toContain(eid);
  return { kills: points.length, complete: after.complete.length };
}

describe('workflow crash test', () => {
  it(`${POINTS} SIGKILLs inside planned steps leave every packet before or after a step, and the next run finishes them`, async () => {
    const cpu = process.cpuUsage();
    const plan = killPlan(POINTS);
    const per = Math.ceil(POINTS / LANES);
    const results = await Promise.all(
      Array.from({ length: LANES }, (_, n) => lane(n, plan.slice(n * per, (n + 1) * per))),
    );
    const kills = results.reduce((a, r) => a + r.kills, 0);
    const complete = results.reduce((a, r) => a + r.complete, 0);
    const own = process.cpuUsage(cpu);
    console.log(`crash: ${kills} kills, ${complete} packets completed and sealed`);
    console.log(
      `crash: kills by the step they fell in: ${[...killedIn]
        .sort((a, b) => b[1] - a[1])
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
    );
    console.log(
      `crash: lanes' time (s, summed): ${Object.entries(spent)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)}`)
        .join(', ')}`,
    );
    console.log(
      `crash: CPU (s): killed children to their planned step ${childrenCpu.toFixed(1)} (${((childrenCpu / kills) * 1000).toFixed(0)} ms a kill), ` +
        `this process (checks) ${((own.user + own.system) / 1e6).toFixed(1)}`,
    );
    console.log(`crash: children whose code cache V8 rejected: ${cacheRejected}`);
    expect(kills).toBeGreaterThanOrEqual(POINTS);
    expect(cacheRejected).toBe(0);
    expect(complete).toBeGreaterThan(0);
    // The timeout is a ceiling for a very busy machine, not a speed check.
  }, 3_600_000);
});
