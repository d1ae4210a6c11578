/**
 * Child of the workflow crash test: works packets forward on an embedded store until
 * it is killed (SIGKILL, inside a step the parent chose). Each run first
 * carries every unfinished packet to its end, so steps interrupted earlier are
 * retried on whatever state the kill left.
 *   argv: <store dir> <identity dir> <webhook url>
 * Start-up (code, signing identity, a warm engine) needs no store, so a child starts while the
 * one before it still works: it prints `ready`, then waits for `go [step]` on stdin before it opens
 * the store, and prints `opened` when its workflow is set up. Before each workflow step it prints
 * `at <step>`, so the parent can say which step each kill fell in; at the first `at` of the step named
 * in `go` it waits for `next`. A closed stdin (the parent is gone) ends it.
 * Built as one CommonJS bundle and run through code-cache-loader.cjs (see the test), so no
 * top-level await here: the work is in main().
 */
import Database from 'libsql';
import { createEngine } from '../../src/engine/index.js';
import { createPacketWorkflow, openSqliteStore } from '../../src/packets/index.js';
import { createSigningIdentity } from '../../src/signing/index.js';

const [dir, identityDir, hookUrl] = process.argv.slice(2) as [string, string, string];
const engine = createEngine({ now: () => new Date('2026-01-05T10:00:00Z') });

const sig = (id: string, y: number) => ({
  id,
  type: 'signature',
  pageNum: 0,
  rect: { x: 72, y, width: 200, height: 30 },
});
const body = (n: number) => ({
  name: `Crash ${n}`,
  allowUpdates: true,
  files: [
    {
      id: 'doc',
      filename: 'doc.pdf',
      title: 'Doc',
      fields: [
        { content: `Packet ${n}` },
        { id: 'amount', type: 'shortText', pageNum: 0, rect: { x: 72, y: 200, width: 200, height: 20 } },
        sig('a', 260),
        sig('b', 320),
      ],
    },
  ],
  data: { payloads: { doc: { data: { amount: `AMOUNT-${n}` } } } },
  signers: [
    {
      id: 'a',
      name: 'Ann',
      email: 'ann@example.com',
      signerType: 'embedded',
      routingOrder: 1,
      fields: [{ fileId: 'doc', fieldId: 'a' }],
    },
    {
      id: 'b',
      name: 'Ben',
      email: 'ben@example.com',
      signerType: 'embedded',
      routingOrder: 2,
      fields: [{ fileId: 'doc', fieldId: 'b' }],
    },
  ],
});

type Service = ReturnType<typeof createPacketWorkflow>['service'];

/** The step the parent said to hold at (its `go <step>` line), at its first announcement only. */
let holdAt: string | undefined;
/** Resolves the hold on the parent's `next` line. */
let release: (() => void) | undefined;

/**
 * Names the step about to run (the parent's record of where its kills fell). At the step named in
 * `go`, the first time, waits for the parent's `next`: the parent's kill then comes its planned delay
 * after the step really begins, not after the parent reads the announcement of a step that may be over.
 */
async function at(step: string): Promise<void> {
  process.stdout.write(`at ${step}\n`);
  if (step !== holdAt) return;
  holdAt = undefined;
  await new Promise<void>((resolve) => (release = resolve));
}

async function signNext(s: Service, eid: string): Promise<void> {
  await at('read packet');
  const packet = await s.etchPacket({ eid });
  const next = packet.documentGroup.signers.find((x) => x.status !== 'completed');
  if (!next) return;
  const who = next.aliasId ?? '?';
  await at(`sign URL ${who}`);
  const url = new URL(await s.generateEtchSignURL({ signerEid: next.eid, clientUserId: 'u' }));
  const access = { signerEid: next.eid, token: url.searchParams.get('token')! };
  await at(`open ${who}`);
  await s.openSigning(access);
  if (next.aliasId === 'b') {
    await at('update payload');
    await s.updateEtchPacket({ eid, payload: { doc: { data: { amount: `AMOUNT-${eid}` } } }, mergePayloads: true });
  }
  await at(`submit ${who}`);
  await s.submitSigning({
    ...access,
    inputs: {
      signature: {
        type: 'drawn',
        strokes: [
          [
            { x: 0, y: 0 },
            { x: 40, y: 10 },
          ],
        ],
      },
    },
  });
}

/**
 * Resolves on the parent's `go [step]` line (the step to hold at); later `next` lines end the hold. A closed
 * stdin ends the process.
 */
function go(): Promise<void> {
  return new Promise((resolve) => {
    let pending = '';
    let started = false;
    process.stdin.on('data', (d: Buffer) => {
      const lines = (pending + d.toString()).split('\n');
      pending = lines.pop()!;
      for (const line of lines) {
        if (!started && /^go( |$)/.test(line)) {
          started = true;
          holdAt = line.slice(3) || undefined;
          resolve();
        } else if (line === 'next') release?.();
      }
    });
    process.stdin.once('end', () => process.exit(0));
  });
}

async function main(): Promise<never> {
  const identity = await createSigningIdentity({ dataDir: identityDir });
  // Warm the engine before announcing: the parent's kill points should fall in workflow steps, not in start-up.
  await engine.generate({ data: [{ content: 'warm' }] });
  process.stdout.write('ready\n');
  await go();
  const store = await openSqliteStore({ dir });
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    // The crash test checks one document per packet sealed once (the per-signer default adds a certificate file).
    signatures: 'seal',
    baseUrl: 'http://castpress.test',
    webhook: { url: hookUrl, token: 't' },
    deliver: false,
    mailDir: `${dir}/mail`,
  });
  const s = flow.service;
  // The parent's kill window starts here, as it started at `ready` when children opened the store before it.
  process.stdout.write('opened\n');
  await at('list unfinished');
  // Every interrupted packet to its end first (two signers: signNext does nothing to a complete one).
  for (const eid of listUnfinished()) {
    await signNext(s, eid);
    await signNext(s, eid);
  }
  for (let n = 0; ; n++) {
    await at('create packet');
    const created = await s.createEtchPacket(body(n));
    await signNext(s, created.eid);
    await signNext(s, created.eid);
    process.stdout.write(`done ${created.eid}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});

function listUnfinished(): string[] {
  const db = new Database(`${dir}/packets.db`);
  const rows = db.prepare("SELECT eid FROM packets WHERE status <> 'complete' ORDER BY created_at").all() as Array<{
    eid: string;
  }>;
  db.close();
  return rows.map((r) => r.eid);
}
