/**
 * The workflows' runs and submissions in the packet store, the same assertions on the embedded
 * store (SQLite) and on a real PostgreSQL the test starts: submissions in order, double and racing
 * posts committed once, a run's packet made exactly once even by two makers at the same moment (two
 * instances' passes), weldComplete queued once with its organization's webhook, and weld(eid) answering
 * only the workflow's organization. Packets are real (an uploaded PDF, so no browser is needed).
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { PDFDocument } from '@cantoo/pdf-lib';
import Database from 'libsql';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createEngine } from '../src/engine/index.js';
import { NotFoundError } from '../src/errors/index.js';
import {
  createPacketWorkflow,
  openSqliteStore,
  parseOrganizationFile,
  type PacketService,
  type PacketStore,
  type PacketWorkflow,
} from '../src/packets/index.js';
import { MIGRATIONS } from '../src/packets/store/migrations.js';
import { createSigningIdentity, type SigningIdentity } from '../src/signing/index.js';
import {
  loadWorkflows,
  SubmissionConflictError,
  WELD_RETRY,
  WorkflowService,
  type WorkflowCatalogue,
} from '../src/workflows/index.js';
import { tempDir } from './helpers/signing.js';
import { tokenOf, workflowStores } from './helpers/workflow.js';

let tmp: { dir: string; remove: () => Promise<void> };
let identity: SigningIdentity;
let catalogue: WorkflowCatalogue;
const engine = createEngine();
const kinds = workflowStores(() => tmp.dir);
const organizations = parseOrganizationFile({
  organizations: {
    acme: { name: 'Acme', slug: 'acme-inc', webhook: { url: 'https://hooks.acme.example/weld', token: 'acme-token' } },
    globex: { name: 'Globex', webhook: { url: 'https://hooks.globex.example/weld' } },
  },
});

beforeAll(async () => {
  tmp = await tempDir('castpress-welds-store-');
  const doc = await PDFDocument.create();
  doc.addPage([612, 792]);
  const definition = {
    eid: 'weldStore',
    slug: 'store',
    title: 'Store',
    organization: 'acme',
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
      files: [
        {
          id: 'doc',
          file: { data: Buffer.from(await doc.save()).toString('base64'), filename: 'doc.pdf' },
          fields: [{ id: 'sig', type: 'signature', pageNum: 0, rect: { x: 72, y: 300, width: 200, height: 30 } }],
        },
      ],
      signers: [
        {
          id: 's',
          name: 'Sam',
          email: 'sam@example.com',
          signerType: 'embedded',
          fields: [{ fileId: 'doc', fieldId: 'sig' }],
        },
      ],
    },
  };
  await mkdir(path.join(tmp.dir, 'wf'), { recursive: true });
  await writeFile(path.join(tmp.dir, 'wf', 'store.json'), JSON.stringify(definition));
  // One forge whose value names the signer: a name of invisible characters can never make the packet.
  const never = {
    ...definition,
    eid: 'weldNever',
    slug: 'never',
    forges: [definition.forges[0]],
    packet: { ...definition.packet, signers: [{ ...definition.packet.signers[0], name: '{{one.name}}' }] },
  };
  await writeFile(path.join(tmp.dir, 'wf', 'never.json'), JSON.stringify(never));
  catalogue = await loadWorkflows(path.join(tmp.dir, 'wf'));
  identity = await createSigningIdentity({ dataDir: path.join(tmp.dir, 'identity') });
}, 60_000);

afterAll(async () => {
  await engine.close();
  await kinds.stop();
  await tmp?.remove();
}, 60_000);

const conflict = (p: Promise<unknown>) => expect(p).rejects.toBeInstanceOf(SubmissionConflictError);

/** Both forges of a run of `store`, the second with the first's link. */
async function fillBoth(welds: WorkflowService, name: string) {
  const first = await welds.submitForge({
    weld: 'store',
    forge: 'one',
    body: { submissionEid: welds.newSubmissionEid(), name },
  });
  const done = await welds.submitForge({
    weld: 'store',
    forge: 'two',
    weldDataEid: first.run.eid,
    token: first.token,
    body: { submissionEid: welds.newSubmissionEid() },
  });
  return { first, done };
}

describe.each(kinds.stores)('workflow runs on the %s', (_name, open) => {
  let store: PacketStore;
  let flow: PacketWorkflow;
  /** Packets the makers stored, by the eid createEtchPacket's transaction gave them (committed or rolled back). */
  const attempted: string[] = [];
  let barrier: { waiting: number; release?: () => void } | undefined;
  /** Calls of createEtchPacket, whatever their outcome. */
  let makeCalls = 0;

  /** The packet service as one instance sees it: it records each packet's eid, and may wait for a second maker. */
  const packets = (): PacketService =>
    ({
      createEtchPacket: async (...[body, scope, options]: Parameters<PacketService['createEtchPacket']>) => {
        makeCalls++;
        if (barrier) {
          const b = barrier;
          b.waiting++;
          if (b.waiting === 2) b.release?.();
          else await new Promise<void>((r) => (b.release = r));
        }
        return flow.service.createEtchPacket(body, scope, {
          inTransaction: async (tx, packet) => {
            attempted.push(packet.eid);
            await options?.inTransaction?.(tx, packet);
          },
        });
      },
      generateEtchSignURL: (...args: Parameters<PacketService['generateEtchSignURL']>) =>
        flow.service.generateEtchSignURL(...args),
      registerMail: (...args: Parameters<PacketService['registerMail']>) => flow.service.registerMail(...args),
    }) as unknown as PacketService;
  /** One instance's workflow service; `clock` replaces the real clock. */
  const service = (clock?: () => Date) =>
    new WorkflowService({
      catalogue,
      store,
      packets: packets(),
      organizations,
      baseUrl: 'http://castpress.test',
      pollMs: 0,
      ...(clock ? { clock } : {}),
    });

  beforeAll(async () => {
    store = await open();
    flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      organizations,
      deliver: false,
      mailDir: path.join(tmp.dir, 'mail'),
    });
  }, 90_000);

  afterAll(async () => {
    await flow?.close();
    await store?.close();
  });

  it('stores forges in order; double and racing posts commit once; the last forge makes one packet with the run', async () => {
    const welds = service();
    const sub = (): string => welds.newSubmissionEid();
    // The same first form posted twice at once: one run.
    const firstForm = { submissionEid: sub(), name: 'Ada' };
    const firstPosts = await Promise.allSettled([
      welds.submitForge({ weld: 'store', forge: 'one', body: firstForm }),
      welds.submitForge({ weld: 'store', forge: 'one', body: firstForm }),
    ]);
    expect(firstPosts.map((p) => p.status).sort()).toEqual(['fulfilled', 'rejected']);
    const rejected = firstPosts.find((p) => p.status === 'rejected')!;
    expect(rejected.reason).toBeInstanceOf(SubmissionConflictError);
    const first = (
      firstPosts.find((p) => p.status === 'fulfilled') as PromiseFulfilledResult<
        Awaited<ReturnType<WorkflowService['submitForge']>>
      >
    ).value;
    expect(first.run).toMatchObject({ status: 'open', organization: 'acme', packetEid: null });
    const run = { weldDataEid: first.run.eid, token: first.token };
    // A replay, the same forge again, a wrong token: refused, nothing changed.
    await conflict(welds.submitForge({ weld: 'store', forge: 'one', ...run, body: firstForm }));
    await conflict(
      welds.submitForge({ weld: 'store', forge: 'one', ...run, body: { submissionEid: sub(), name: 'B' } }),
    );
    await expect(
      welds.submitForge({ weld: 'store', forge: 'two', ...run, token: 'wrong', body: { submissionEid: sub() } }),
    ).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.welds.submissions(first.run.eid)).toHaveLength(1);

    // Two different posts of the last form racing: one commits and makes the packet, the other is a 409.
    const lastPosts = await Promise.allSettled([
      welds.submitForge({ weld: 'store', forge: 'two', ...run, body: { submissionEid: sub(), note: 'x' } }),
      welds.submitForge({ weld: 'store', forge: 'two', ...run, body: { submissionEid: sub(), note: 'y' } }),
    ]);
    expect(lastPosts.map((p) => p.status).sort()).toEqual(['fulfilled', 'rejected']);
    expect((lastPosts.find((p) => p.status === 'rejected') as PromiseRejectedResult).reason).toBeInstanceOf(
      SubmissionConflictError,
    );
    const stored = (await store.welds.weldData(first.run.eid))!;
    expect(stored.status).toBe('sent');
    expect((await store.welds.submissions(stored.eid)).map((s) => s.forgeSlug)).toEqual(['one', 'two']);
    const packet = (await store.packet(stored.packetEid!))!;
    expect(packet).toMatchObject({ organization: 'acme', name: 'P Ada', status: 'sent' });
    await welds.close();
  }, 120_000);

  it('reads a run’s submissions back in the order they were made, when both share a millisecond', async () => {
    // A stopped clock: both submissions get the same created_at. The second's eid sorts before the first's,
    // so an order by time, then eid (what the store did) reads them back the wrong way round.
    const stopped = service(() => new Date('2026-03-01T12:00:00Z'));
    const one = await stopped.submitForge({
      weld: 'store',
      forge: 'one',
      body: { submissionEid: 'sub_zzzzzzzzzzzzzzzzzzzz', name: 'Zed' },
    });
    const run = { weldDataEid: one.run.eid, token: one.token };
    await stopped.submitForge({
      weld: 'store',
      forge: 'two',
      ...run,
      body: { submissionEid: 'sub_aaaaaaaaaaaaaaaaaaaa', note: 'last' },
    });
    const subs = await store.welds.submissions(one.run.eid);
    expect(subs.map((s) => [s.forgeSlug, s.index, s.createdAt])).toEqual([
      ['one', 0, Date.parse('2026-03-01T12:00:00Z')],
      ['two', 1, Date.parse('2026-03-01T12:00:00Z')],
    ]);
    await stopped.close();
  }, 120_000);

  it('two instances making the same run’s packet at the same moment store one packet', async () => {
    // A run whose packet failed to be made (its maker failed): `submitted`, retried by the passes.
    const failing = new WorkflowService({
      catalogue,
      store,
      packets: {
        createEtchPacket: async () => {
          throw new Error('assembly service down');
        },
        registerMail: () => undefined,
      } as unknown as PacketService,
      baseUrl: 'http://castpress.test',
      pollMs: 0,
    });
    const { first, done } = await fillBoth(failing, 'Bo');
    await failing.close();
    expect(done.run.status).toBe('submitted');
    const failed = (await store.welds.weldData(done.run.eid))!;
    expect(failed).toMatchObject({ status: 'submitted', attempts: 1 });
    expect(JSON.parse(failed.lastError!)).toEqual({ name: 'Error', message: 'assembly service down', fields: [] });

    // Two instances' passes once the retry is due, each let through only once both are about to create the packet.
    attempted.length = 0;
    barrier = { waiting: 0 };
    const due = () => new Date(failed.nextAttemptAt);
    const [a, b] = [service(due), service(due)];
    await Promise.all([a.runPass(), b.runPass()]);
    barrier = undefined;
    await Promise.all([a.close(), b.close()]);
    expect(attempted).toHaveLength(2);
    const run = (await store.welds.weldData(first.run.eid))!;
    expect(run).toMatchObject({ status: 'sent', lastError: null });
    const kept = await Promise.all(attempted.map((eid) => store.packet(eid)));
    // The second maker's transaction rolled back: its packet never existed.
    expect(kept.filter((p) => p !== undefined).map((p) => p!.eid)).toEqual([run.packetEid]);
  }, 120_000);

  it('a completed packet completes its run once, weldComplete to its organization’s webhook; weld(eid) only for that organization', async () => {
    const welds = service();
    const [run] = (await store.welds.weldDatas('weldStore')).filter((r) => r.status === 'sent');
    const signer = (await store.signers(run!.packetEid!))[0]!;
    const url = await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'sam' });
    await flow.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'Sam' } } });
    const other = service();
    await Promise.all([welds.runPass(), other.runPass()]);
    await other.close();
    expect((await store.welds.weldData(run!.eid))!.status).toBe('completed');
    const events = (await store.outbox({ packetEid: run!.packetEid!, kind: 'webhook' })).filter(
      (e) => e.payload.action === 'weldComplete',
    );
    expect(events).toHaveLength(1);
    expect(events[0]!.payload).toMatchObject({ url: 'https://hooks.acme.example/weld', organization: 'acme' });

    // weld(eid): the workflow's organization sees its runs; another organization's key gets the unknown workflow's 404.
    const acme = await welds.weld({ eid: 'weldStore' }, { organization: 'acme', testOnly: false });
    expect(acme.weldDatas.find((r) => r.eid === run!.eid)).toMatchObject({
      status: 'completed',
      completionPercentage: 100,
    });
    const unknown = await welds
      .weld({ eid: 'nope' }, { organization: 'acme', testOnly: false })
      .catch((e: unknown) => e);
    const foreign = await welds
      .weld({ eid: 'weldStore' }, { organization: 'globex', testOnly: false })
      .catch((e: unknown) => e);
    expect(foreign).toBeInstanceOf(NotFoundError);
    // The same answer as an unknown eid; only the eid in the message differs.
    const shape = (e: unknown) => {
      const x = e as NotFoundError;
      return [x.name, x.status, x.fields.map((f) => f.property), x.message.replace(/"[^"]*"/, '"…"')];
    };
    expect(shape(foreign)).toEqual(shape(unknown));
    // A development key of the organization sees no production runs.
    expect((await welds.weld({ eid: 'weldStore' }, { organization: 'acme', testOnly: true })).weldDatas).toEqual([]);
    await welds.close();
  }, 120_000);

  it('a completed packet completes its run behind more than 100 runs whose packets wait for signatures', async () => {
    const welds = service();
    const start = async (name: string) => {
      const { done } = await fillBoth(welds, name);
      expect(done.run.status).toBe('sent');
      return done.run;
    };
    const waiting = await start('Waits');
    const signed = await start('Signs');
    // 120 older runs whose packet is still out for signature (rows written straight into the store: cheap).
    await store.transaction(async (tx) => {
      for (let i = 0; i < 120; i++)
        await tx.welds.insertWeldData({
          ...waiting,
          eid: `wd_open${String(i).padStart(3, '0')}`,
          createdAt: 1,
          updatedAt: 1,
        });
    });
    const signer = (await store.signers(signed.packetEid!))[0]!;
    const url = await flow.service.generateEtchSignURL({ signerEid: signer.eid, clientUserId: 'sam' });
    await flow.service.submitSigning({ ...tokenOf(url), inputs: { signature: { type: 'typed', text: 'Sam' } } });
    await welds.runPass();
    expect((await store.welds.weldData(signed.eid))!.status).toBe('completed');
    expect((await store.welds.weldData(waiting.eid))!.status).toBe('sent');
    const events = (await store.outbox({ packetEid: signed.packetEid!, kind: 'webhook' })).filter(
      (e) => e.payload.action === 'weldComplete',
    );
    expect(events).toHaveLength(1);
    await welds.close();
  }, 120_000);

  it('a run whose packet can never be made is retried with growing waits, then failed with its typed error and one weldFailed', async () => {
    let now = Date.parse('2026-05-01T00:00:00Z');
    const welds = service(() => new Date(now));
    makeCalls = 0;
    // Zero-width and bidi characters only: the form takes the text, the packet refuses it as an empty name.
    const made = await welds.submitForge({
      weld: 'never',
      forge: 'one',
      body: { submissionEid: welds.newSubmissionEid(), name: '\u200b\u202e\u200d' },
    });
    const read = async () => (await store.welds.weldData(made.run.eid))!;
    let run = await read();
    expect(run).toMatchObject({ status: 'submitted', attempts: 1 });
    expect(makeCalls).toBe(1);
    // A pass before the wait is over tries nothing.
    await welds.runPass();
    expect(makeCalls).toBe(1);
    const waits: number[] = [];
    for (let i = 0; i < 20 && run.status === 'submitted'; i++) {
      waits.push(run.nextAttemptAt - now);
      now = run.nextAttemptAt;
      await welds.runPass();
      run = await read();
    }
    expect(run.status).toBe('failed');
    expect(run.attempts).toBe(WELD_RETRY.maxAttempts);
    expect(makeCalls).toBe(WELD_RETRY.maxAttempts);
    // Each wait twice the one before, from the first retry's, up to the cap.
    expect(waits).toEqual(waits.map((_w, i) => Math.min(WELD_RETRY.maxMs, WELD_RETRY.baseMs * 2 ** i)));
    const error = JSON.parse(run.lastError!) as { name: string; message: string; fields: Array<{ property: string }> };
    expect(error.name).toBe('ValidationError');
    expect(error.fields.map((f) => f.property).join()).toMatch(/signers\[0\]\.name/);
    // Failed for good: later passes try nothing.
    now += 24 * 3_600_000;
    await welds.runPass();
    expect(makeCalls).toBe(WELD_RETRY.maxAttempts);

    const view = await welds.weld({ eid: 'weldNever' }, { organization: 'acme', testOnly: false });
    expect(view.weldDatas.find((r) => r.eid === run.eid)).toMatchObject({ status: 'failed', lastError: error });
    const hooks = (await store.outbox({ packetEid: run.eid, kind: 'webhook' })).filter(
      (e) => e.payload.action === 'weldFailed',
    );
    expect(hooks).toHaveLength(1);
    expect(hooks[0]!.payload).toMatchObject({
      url: 'https://hooks.acme.example/weld',
      organization: 'acme',
      data: { isComplete: false, eid: run.eid, documents: [], weld: { eid: 'weldNever', slug: 'never' }, error },
    });
    await welds.close();
  }, 120_000);
});

/** An embedded store's database as a version that applied migrations up to `version` left it. */
async function oldStore(name: string, version: number): Promise<{ dir: string; db: Database.Database }> {
  const dir = path.join(tmp.dir, name);
  await mkdir(dir, { recursive: true });
  const db = new Database(path.join(dir, 'packets.db'));
  db.prepare('CREATE TABLE schema_migrations (version INTEGER PRIMARY KEY, name TEXT NOT NULL)').run();
  for (const m of MIGRATIONS.filter((x) => x.version <= version)) {
    for (const q of m.sql) db.prepare(q).run();
    db.prepare('INSERT INTO schema_migrations (version, name) VALUES (?, ?)').run(m.version, m.name);
  }
  return { dir, db };
}

describe('store migration: submissions stored before their place was kept', () => {
  it('get the place their (time, eid) order gave them, so a store opened after the upgrade reads them as before', async () => {
    const { dir, db } = await oldStore('old-submissions', 5);
    db.prepare(
      `INSERT INTO weld_datas (eid, weld_eid, weld_version, organization, status, is_test, token_hash, display_title, created_at, updated_at, version)
       VALUES ('wd_old', 'weldStore', 1, 'acme', 'open', 0, 'h', 'Old', 1, 1, 0)`,
    ).run();
    const insert = db.prepare(
      `INSERT INTO weld_submissions (eid, weld_data_eid, forge_eid, forge_slug, resolved_payload, created_at) VALUES (?, 'wd_old', ?, ?, '{}', ?)`,
    );
    insert.run('sub_b', 'f2', 'two', 5);
    insert.run('sub_c', 'f3', 'three', 5);
    insert.run('sub_a', 'f1', 'one', 2);
    db.close();
    const store = await openSqliteStore({ dir });
    try {
      const subs = await store.welds.submissions('wd_old');
      expect(subs.map((s) => [s.eid, s.index])).toEqual([
        ['sub_a', 0],
        ['sub_b', 1],
        ['sub_c', 2],
      ]);
    } finally {
      await store.close();
    }
  });
});

describe('store migration: runs stored before links were per party', () => {
  it('keep their token as their starter’s link, and open the forms of definitions without assignees', async () => {
    const { dir, db } = await oldStore('old-links', 6);
    const hash = createHash('sha256').update('old-run-token').digest('hex');
    db.prepare(
      `INSERT INTO weld_datas (eid, weld_eid, weld_version, organization, status, is_test, token_hash, display_title, created_at, updated_at, version)
       VALUES ('wd_before', 'weldStore', 1, 'acme', 'open', 0, ?, 'Old', 1, 1, 0)`,
    ).run(hash);
    db.close();
    const store = await openSqliteStore({ dir });
    const flow = createPacketWorkflow({
      store,
      engine,
      identity,
      baseUrl: 'http://castpress.test',
      deliver: false,
      mailDir: path.join(dir, 'mail'),
    });
    const welds = new WorkflowService({
      catalogue,
      store,
      packets: flow.service,
      baseUrl: 'http://castpress.test',
      pollMs: 0,
    });
    try {
      const link = await welds.link('store', 'wd_before', 'old-run-token');
      expect([link.party, link.forges.map((f) => f.slug)]).toEqual([0, ['one', 'two']]);
      expect(link.run).toMatchObject({ attempts: 0, nextAttemptAt: 0 });
      await expect(welds.link('store', 'wd_before', 'another-token')).rejects.toBeInstanceOf(NotFoundError);
    } finally {
      await welds.close();
      await flow.close();
      await store.close();
    }
  });
});
