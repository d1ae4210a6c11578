/**
 * Welds crash safety. Two ways of killing a child (test/helpers/welds-crash-child.ts) that
 * submits a two-forge workflow's forms on an embedded store:
 *
 * - **By step** (as test/workflow-crash.test.ts names its steps): the child announces each step and
 *   waits; the parent kills it (SIGKILL) inside a chosen one: a submission's transaction before its
 *   commit, between the last submission and its packet, inside the packet's transaction, and just
 *   after createEtchPacket returned (the window where the packet was stored and the run's pointer
 *   to it was not). Then a restart: the browser posts the interrupted form
 *   again and the background pass runs. Every run must have exactly one packet once all its forges
 *   are in, each submission once, and nothing the child acknowledged lost.
 * - **At random moments** (WELD_CRASH_POINTS, default 3) with packets failing, so only the store
 *   step is under test: runs and submissions agree after every kill.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import { build } from 'esbuild';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cjsBundleOptions } from '../scripts/bundle.mjs';
import { createEngine } from '../src/engine/index.js';
import { createPacketWorkflow, openSqliteStore, type PacketStore } from '../src/packets/index.js';
import { createSigningIdentity, type SigningIdentity } from '../src/signing/index.js';
import { loadWorkflows, SubmissionConflictError, WorkflowService } from '../src/workflows/index.js';
import { exited } from './helpers/redis.js';
import { tempDir } from './helpers/signing.js';

const POINTS = Number(process.env.WELD_CRASH_POINTS ?? 3);
const CHILD_SOURCE = path.join(import.meta.dirname, 'helpers', 'welds-crash-child.ts');
/**
 * The child as one CommonJS bundle (scripts/bundle.mjs cjsBundleOptions, as workflow-crash builds its
 * child), built once per file: each start then loads plain JavaScript instead of having tsx
 * transform every source file again (what most of a child's start cost under load). Two levels
 * below the repository, as src/<capability>/ is, so paths taken from import.meta.url hold.
 */
let CHILD = '';
let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
const engine = createEngine();

async function uploadPdf(): Promise<string> {
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  return Buffer.from(await doc.save()).toString('base64');
}

const definition = (packetFile: Record<string, unknown>) => ({
  eid: 'weldCrash',
  slug: 'crash',
  title: 'Crash',
  forges: [
    {
      eid: 'f1',
      slug: 'one',
      name: 'One',
      fields: [{ name: 'name', type: 'shortText', label: 'Name', required: true }],
    },
    { eid: 'f2', slug: 'two', name: 'Two', fields: [{ name: 'note', type: 'longText', label: 'Note' }] },
  ],
  packet: {
    name: 'P {{one.name}}',
    files: [packetFile],
    signers: [
      {
        id: 's',
        name: 'Sam Signer',
        email: 'sam@example.com',
        signerType: 'embedded',
        fields: [{ fileId: 'doc', fieldId: 'sig' }],
      },
    ],
  },
});

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-crash-');
  const out = path.join(process.cwd(), 'test-output', `welds-crash-child-${process.pid}`);
  await mkdir(out, { recursive: true });
  CHILD = path.join(out, 'child.cjs');
  await build(cjsBundleOptions(CHILD_SOURCE, CHILD));
  // An uploaded PDF (no page rendering): a child's packet is assembled without a browser.
  const file = {
    id: 'doc',
    file: { data: await uploadPdf(), filename: 'doc.pdf', mimetype: 'application/pdf' },
    fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } }],
  };
  await mkdir(path.join(tmp.dir, 'wf'), { recursive: true });
  await writeFile(path.join(tmp.dir, 'wf', 'crash.json'), JSON.stringify(definition(file)));
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'identity') });
}, 60_000);

afterAll(async () => {
  await engine.close();
  await tmp?.remove();
  if (CHILD) await rm(path.dirname(CHILD), { recursive: true, force: true });
});

const spawnChild = (args: string[]): ChildProcess =>
  spawn(process.execPath, [CHILD, ...args], { stdio: ['pipe', 'pipe', 'pipe'] });

interface Form {
  forge: string;
  body: Record<string, string>;
  weldDataEid?: string;
  token?: string;
}

/** A child in steps mode, killed in the `occurrence`th `at <step>` it announces (every other step goes on). */
class SteppedChild {
  readonly process: ChildProcess;
  readonly committed: string[] = [];
  lastForm: Form | undefined;
  readonly killed: Promise<void>;
  stderr = '';

  constructor(store: string, prefix: string, step: string, occurrence: number) {
    this.process = spawnChild([store, path.join(tmp.dir, 'wf'), 'steps', path.join(tmp.dir, 'identity'), prefix]);
    const seen = new Map<string, number>();
    let pending = '';
    this.process.stderr!.on('data', (d: Buffer) => (this.stderr = (this.stderr + d.toString()).slice(-4000)));
    this.killed = new Promise((resolve, reject) => {
      this.process.once('exit', (code, signal) =>
        signal === 'SIGKILL' ? resolve() : reject(new Error(`child exited ${code} before ${step}: ${this.stderr}`)),
      );
    });
    this.process.stdout!.on('data', (d: Buffer) => {
      const lines = (pending + d.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (line.startsWith('ok ')) this.committed.push(line.slice(3));
        else if (line.startsWith('form ')) this.lastForm = JSON.parse(line.slice(5)) as Form;
        else if (line.startsWith('at ')) {
          const at = line.slice(3);
          const n = (seen.get(at) ?? 0) + 1;
          seen.set(at, n);
          // The child waits in the step: killed there, it has begun the step and gone no further.
          if (at === step && n === occurrence) this.process.kill('SIGKILL');
          else this.process.stdin!.write('next\n');
        }
      }
    });
  }
}

/** Packets by name, read from the database file (the store has no list of packets). */
function packetsByName(store: string): Map<string, string[]> {
  const db = new Database(path.join(store, 'packets.db'));
  try {
    const rows = db.prepare('SELECT eid, name FROM packets').all() as Array<{ eid: string; name: string }>;
    const out = new Map<string, string[]>();
    for (const r of rows) out.set(r.name, [...(out.get(r.name) ?? []), r.eid]);
    return out;
  } finally {
    db.close();
  }
}

/** The restart: the interrupted form posted again, one background pass; what the replay did. */
async function restart(store: PacketStore, form: Form | undefined): Promise<'stored' | 'refused' | 'none'> {
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    baseUrl: 'http://castpress.test',
    deliver: false,
    mailDir: path.join(tmp.dir, 'mail'),
  });
  const welds = new WorkflowService({
    catalogue: await loadWorkflows(path.join(tmp.dir, 'wf')),
    store,
    packets: flow.service,
    baseUrl: 'http://castpress.test',
    pollMs: 0,
  });
  try {
    let replay: 'stored' | 'refused' | 'none' = 'none';
    if (form) {
      const wasStored = (await store.welds.submission(form.body.submissionEid!)) !== undefined;
      const outcome = await welds
        .submitForge({ weld: 'crash', ...form })
        .then(() => 'stored' as const)
        .catch((e: unknown) => {
          if (e instanceof SubmissionConflictError) return 'refused' as const;
          throw e;
        });
      // A form stored before the kill is refused (no double submission); one that was not is stored now.
      expect(outcome).toBe(wasStored ? 'refused' : 'stored');
      replay = outcome;
    }
    await welds.runPass();
    return replay;
  } finally {
    await welds.close();
    await flow.close();
  }
}

describe('kills at announced steps of a submission', () => {
  // Each point in the child's second run (its first run goes through whole): [step, occurrence].
  const points: Array<[string, number]> = [
    ['commit submission', 3], // the first forge's transaction, before its commit
    ['commit submission', 4], // the last forge's
    ['make packet', 2], // the last submission committed, createEtchPacket not called yet
    ['commit packet', 2], // inside the packet's transaction
    ['packet created', 2], // createEtchPacket returned: the packet committed (the old crash window)
  ];

  it(`each of ${points.length} kill points, after a restart, leaves exactly one packet per run and each submission once`, async () => {
    const outcomes: string[] = [];
    // The next child starts while this one works and is checked (separate stores): start-ups overlap.
    const start = (i: number) =>
      new SteppedChild(path.join(tmp.dir, `store-${i}`), `K${i}`, points[i]![0], points[i]![1]);
    let next: SteppedChild | undefined = start(0);
    for (let i = 0; i < points.length; i++) {
      const child: SteppedChild = next!;
      await child.killed;
      next = i + 1 < points.length ? start(i + 1) : undefined;
      const dir = path.join(tmp.dir, `store-${i}`);
      const store = await openSqliteStore({ dir });
      try {
        const replay = await restart(store, child.lastForm);
        outcomes.push(`${points[i]!.join(' #')}: replay ${replay}`);
        const packets = packetsByName(dir);
        const runs = await store.welds.weldDatas('weldCrash');
        let inRuns = 0;
        for (const run of runs) {
          const subs = await store.welds.submissions(run.eid);
          // Forges in order, each once.
          expect(subs.map((s) => s.forgeSlug)).toEqual(['one', 'two'].slice(0, subs.length));
          expect(subs.length).toBeGreaterThan(0);
          const name = `P ${String(subs[0]!.resolvedPayload.name!.value)}`;
          if (subs.length < 2) {
            expect(run.status).toBe('open');
            expect(packets.get(name)).toBeUndefined();
            continue;
          }
          inRuns++;
          expect(run.status, run.eid).toBe('sent');
          // Exactly one packet, the one the run points at.
          expect(packets.get(name), `packets of ${run.eid}`).toEqual([run.packetEid]);
        }
        expect([...packets.values()].flat()).toHaveLength(inRuns);
        expect(inRuns).toBeGreaterThanOrEqual(1);
        for (const eid of child.committed) expect(await store.welds.submission(eid), eid).toBeDefined();
      } finally {
        await store.close();
      }
    }
    console.log(`welds crash: ${outcomes.join('; ')}`);
  }, 600_000);
});

/** Runs the free child until it has committed a few submissions, then kills it at a random moment; the eids it saw committed. */
async function killOnce(): Promise<string[]> {
  const child = spawnChild([path.join(tmp.dir, 'store'), path.join(tmp.dir, 'wf'), 'free']);
  const committed: string[] = [];
  let out = '';
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += c.toString();
      const lines = out.split('\n');
      out = lines.pop()!;
      for (const l of lines) if (l.startsWith('ok ')) committed.push(l.slice(3));
      if (committed.length >= 2) resolve();
    });
    child.on('exit', (code) => reject(new Error(`child exited ${code} before working`)));
  });
  // Kill somewhere in the next few submissions (each is a transaction of a few milliseconds).
  await new Promise((r) => setTimeout(r, Math.random() * 60));
  child.kill('SIGKILL');
  await exited(child);
  return committed;
}

it(`a kill at ${POINTS} random points loses no committed submission and leaves no half-stored run`, async () => {
  const seen: string[] = [];
  for (let k = 0; k < POINTS; k++) {
    seen.push(...(await killOnce()));
    const store = await openSqliteStore({ dir: path.join(tmp.dir, 'store') });
    try {
      const runs = await store.welds.weldDatas('weldCrash');
      expect(runs.length).toBeGreaterThan(0);
      let submissions = 0;
      for (const run of runs) {
        const subs = await store.welds.submissions(run.eid);
        submissions += subs.length;
        expect(subs.map((s) => s.forgeSlug)).toEqual(['one', 'two'].slice(0, subs.length));
        expect(subs.length).toBeGreaterThan(0);
        expect(run.status).toBe(subs.length === 2 ? 'submitted' : 'open');
      }
      for (const eid of seen) expect(await store.welds.submission(eid), eid).toBeDefined();
      expect(submissions).toBeGreaterThanOrEqual(seen.length);
    } finally {
      await store.close();
    }
  }
}, 300_000);
