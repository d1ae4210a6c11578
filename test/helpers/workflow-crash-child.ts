/**
 * Child of the workflow crash test: works packets forward on an embedded store until
 * it is killed (SIGKILL, at a random moment chosen by the parent). Each run first
 * carries every unfinished packet one step on, so steps interrupted earlier are
 * retried on whatever state the kill left.
 *   argv: <store dir> <identity dir> <webhook url>
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

async function signNext(s: Service, eid: string): Promise<void> {
  const packet = await s.etchPacket({ eid });
  const next = packet.documentGroup.signers.find((x) => x.status !== 'completed');
  if (!next) return;
  const url = new URL(await s.generateEtchSignURL({ signerEid: next.eid, clientUserId: 'u' }));
  const access = { signerEid: next.eid, token: url.searchParams.get('token')! };
  await s.openSigning(access);
  if (next.aliasId === 'b')
    await s.updateEtchPacket({ eid, payload: { doc: { data: { amount: `AMOUNT-${eid}` } } }, mergePayloads: true });
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

async function main(): Promise<never> {
  const identity = await createSigningIdentity({ dataDir: identityDir });
  const store = await openSqliteStore({ dir });
  const flow = createPacketWorkflow({
    store,
    engine,
    identity,
    // The crash test checks one document per packet sealed once (#31's per-signer default adds a certificate file).
    signatures: 'seal',
    baseUrl: 'http://castpress.test',
    webhook: { url: hookUrl, token: 't' },
    deliver: false,
    mailDir: `${dir}/mail`,
  });
  const s = flow.service;
  // Warm the engine before announcing: the parent's kill points should fall in workflow steps, not in start-up.
  await engine.generate({ data: [{ content: 'warm' }] });
  process.stdout.write('ready\n');
  for (const eid of listUnfinished()) await signNext(s, eid);
  for (let n = 0; ; n++) {
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
