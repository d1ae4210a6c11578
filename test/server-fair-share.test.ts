/**
 * One organization's load does not stall another's: the render pool serves organizations in
 * turn, each with its own queue and a cap of threads in use. Counted, not timed: organization B fills
 * the pool with jobs the test holds (test/helpers/held-jobs.ts), organization A sends one small real
 * job, and the test releases B's jobs one at a time until A's job starts. The count of B's jobs released
 * before A's start is what a first-come-first-served pool makes grow with B's backlog (all of it) and
 * what the fair share bounds (none while a thread is left for A; one per thread without the cap).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FairShare } from '../src/server/pool/fair-share.js';
import { startServer, type RunningServer } from '../src/server/index.js';
import { HELD_WORKER, HeldJobs, heldBody, heldPacketName } from './helpers/held-jobs.js';
import { makePdf, tempDir } from './helpers/signing.js';

const A = 'fair-a-prod-key-0123456789';
const B = 'fair-b-prod-key-0123456789';
const auth = (key: string) => `Basic ${Buffer.from(`${key}:`).toString('base64')}`;

interface Answer {
  status: number;
  text: string;
}

async function post(base: string, path: string, key: string, body: unknown): Promise<Answer> {
  const res = await fetch(`${base}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: auth(key) },
    body: JSON.stringify(body),
  });
  return { status: res.status, text: await res.text() };
}

/** The pool's gauges as `/metrics` shows them: jobs waiting (every lane) and threads running one. */
async function poolLoad(base: string): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const gauge = (name: string) => Number(new RegExp(`^${name} (\\d+)$`, 'm').exec(text)?.[1] ?? NaN);
  return gauge('castpress_render_pool_queue_depth') + gauge('castpress_render_pool_busy_workers');
}

/**
 * Sends B's held jobs, waits until the first has started, sends A's job (`aId`: the title or packet name
 * it reports its start under), waits until A's job has started or is in the pool (all jobs counted by the
 * gauges), then releases B's running jobs one at a time (oldest first) until A's job starts. Returns how
 * many of B's jobs were released before that.
 */
async function releasedBeforeA(
  base: string,
  held: HeldJobs,
  bIds: string[],
  sendB: (id: string) => Promise<Answer>,
  sendA: () => Promise<Answer>,
  aId: string,
): Promise<{ released: number; a: Answer; b: Answer[] }> {
  const started = new Set<string>();
  const startOf = new Map(
    bIds.map((id) => [
      id,
      held.started(id).then(
        () => void started.add(id),
        () => undefined,
      ),
    ]),
  );
  const bAnswers = bIds.map((id) => sendB(id));
  await startOf.get(bIds[0]!);
  const aAnswer = sendA();
  let aStarted = false;
  const aStart = held.started(aId, aAnswer).then(() => void (aStarted = true));
  await expect
    .poll(async () => aStarted || (await poolLoad(base)) === bIds.length + 1, { timeout: 120_000 })
    .toBe(true);
  let released = 0;
  const done = new Set<string>();
  while (!aStarted) {
    const next = bIds.find((id) => started.has(id) && !done.has(id));
    if (!next) {
      // The freed thread took another job: wait for it to be A's or a B job's start.
      await Promise.race([aStart, ...bIds.filter((id) => !started.has(id)).map((id) => startOf.get(id))]);
      continue;
    }
    done.add(next);
    released++;
    held.release(next);
    await Promise.race([aStart, bAnswers[bIds.indexOf(next)]]);
  }
  // The rest in order, each once it runs (a release sent before its job starts is not seen by it).
  for (const id of bIds) {
    if (done.has(id)) continue;
    await startOf.get(id);
    held.release(id);
  }
  return { released, a: await aAnswer, b: await Promise.all(bAnswers) };
}

/** Lets started jobs run to their first await (a job starts a microtask after its turn is given). */
const settle = () => new Promise((r) => setImmediate(r));

describe('FairShare', () => {
  /** Jobs that end when the test says so; `order` records starts. */
  function harness(share: FairShare) {
    const order: string[] = [];
    const ends = new Map<string, () => void>();
    const run = (lane: string, id: string) =>
      share.run(lane, () => {
        order.push(id);
        return new Promise<void>((resolve) => ends.set(id, resolve));
      });
    const end = async (id: string) => {
      ends.get(id)!();
      // The freed slot is handed over when the job's promise settles.
      await settle();
    };
    return { order, run, end };
  }

  it("serves lanes in turn: a lane's backlog delays another lane's job by at most the jobs running", async () => {
    const share = new FairShare({ slots: 2 });
    const { order, run, end } = harness(share);
    const jobs = ['b0', 'b1', 'b2', 'b3', 'b4'].map((id) => run('b', id));
    jobs.push(run('a', 'a0'), run('a', 'a1'), run('c', 'c0'));
    await settle();
    expect(order).toEqual(['b0', 'b1']);
    expect(share.counts()).toEqual({ waiting: 6, running: 2 });
    // Each freed slot goes to the next lane in turn: a, c, b, a, b…, not to b's earlier jobs.
    await end('b0');
    await end('b1');
    expect(order).toEqual(['b0', 'b1', 'a0', 'c0']);
    await end('a0');
    await end('c0');
    expect(order).toEqual(['b0', 'b1', 'a0', 'c0', 'b2', 'a1']);
    for (const id of ['b2', 'a1', 'b3', 'b4']) await end(id);
    await Promise.all(jobs);
    expect(order).toEqual(['b0', 'b1', 'a0', 'c0', 'b2', 'a1', 'b3', 'b4']);
    expect(share.counts()).toEqual({ waiting: 0, running: 0 });
  });

  it('a cap per lane keeps a thread for the others; a waiting job can be withdrawn; a full lane queue is a 503', async () => {
    const share = new FairShare({ slots: 2, perLane: 1, maxWaiting: 2 });
    const { order, run, end } = harness(share);
    const b = [run('b', 'b0'), run('b', 'b1')];
    const withdrawn = new AbortController();
    const b2 = share.run('b', async () => order.push('b2'), withdrawn.signal);
    // b is at its cap with one thread free: A starts at once.
    const a = run('a', 'a0');
    await settle();
    expect(order).toEqual(['b0', 'a0']);
    await expect(run('b', 'b3')).rejects.toMatchObject({ name: 'RenderError', status: 503 });
    withdrawn.abort(new Error('client left'));
    await expect(b2).rejects.toThrow('client left');
    await end('b0');
    await end('a0');
    await end('b1');
    await Promise.all([...b, a]);
    expect(order).toEqual(['b0', 'a0', 'b1']);
    expect(share.counts()).toEqual({ waiting: 0, running: 0 });
  });
});

describe('server: two organizations share the render pool', () => {
  let server: RunningServer;
  let held: HeldJobs;
  let tmp: { dir: string; remove: () => Promise<void> };
  beforeAll(async () => {
    tmp = await tempDir('castpress-fair-');
    held = new HeldJobs();
    server = await startServer({
      port: 0,
      config: {
        keys: [
          { key: A, kind: 'production', organization: 'a' },
          { key: B, kind: 'production', organization: 'b' },
        ],
      },
      metrics: true,
      packets: { dataDir: tmp.dir, deliver: false },
      // Real jobs render as always; jobs from `heldBody`/`heldPacketName` wait until the test releases them.
      renderPool: { threads: 2, deadlineMs: 300_000, workerFile: HELD_WORKER, onThreadExit: held.exited },
    });
    // Both threads warm before anything is counted.
    const small = { title: 'warm', data: [{ content: 'Hello' }] };
    for (let i = 0; i < 2; i++)
      await Promise.all([
        post(server.url, '/api/v1/generate-pdf', A, small),
        post(server.url, '/api/v1/generate-pdf', B, small),
      ]);
  }, 180_000);
  afterAll(async () => {
    held?.close();
    await server?.close();
    await tmp?.remove();
  });

  it("A's small Markdown starts while B's six jobs are held (a first-come pool ran all six first)", async () => {
    const bIds = Array.from({ length: 6 }, (_, i) => `md-b${i}`);
    const r = await releasedBeforeA(
      server.url,
      held,
      bIds,
      (id) => post(server.url, '/api/v1/generate-pdf', B, heldBody('wait', id)),
      () => post(server.url, '/api/v1/generate-pdf', A, { title: 'a-small', data: [{ content: 'Hello' }] }),
      'a-small',
    );
    expect(r.a.status, r.a.text).toBe(200);
    for (const b of r.b) expect(b.status, b.text).toBe(200);
    // At most one running job per thread but A's own; with two organizations B holds one thread of two.
    expect(r.released).toBeLessThanOrEqual(1);
  }, 300_000);

  it("A's one-page packet is assembled while B's six are held (the lane follows the GraphQL request)", async () => {
    const mutation =
      'mutation($name: String, $files: [EtchFile!], $signers: [JSON!]){ createEtchPacket(name: $name, isDraft: true, files: $files, signers: $signers){ eid } }';
    const page = Buffer.from(await makePdf(1)).toString('base64');
    const variables = (name: string) => ({
      name,
      files: [
        {
          id: 'f0',
          title: 'Lease',
          file: page,
          fields: [{ id: 's', type: 'signature', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 30 } }],
        },
      ],
      signers: [{ id: 'x', name: 'X Y', email: 'x@example.com', fields: [{ fileId: 'f0', fieldId: 's' }] }],
    });
    const bIds = Array.from({ length: 6 }, (_, i) => `pkt-b${i}`);
    const r = await releasedBeforeA(
      server.url,
      held,
      bIds,
      (id) => post(server.url, '/graphql', B, { query: mutation, variables: variables(heldPacketName('wait', id)) }),
      () => post(server.url, '/graphql', A, { query: mutation, variables: variables('A lease') }),
      'A lease',
    );
    expect(r.a.status, r.a.text).toBe(200);
    expect(JSON.parse(r.a.text).data.createEtchPacket.eid).toMatch(/^pkt_/);
    for (const b of r.b) expect(b.status, b.text).toBe(200);
    expect(r.released).toBeLessThanOrEqual(1);
  }, 300_000);
});
