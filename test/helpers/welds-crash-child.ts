/**
 * Child of the welds crash tests: runs a two-forge workflow on an embedded store until the parent
 * kills it (SIGKILL). After each submission's transaction returns it prints `ok <submissionEid>`
 * (the parent checks every printed submission survived the kill).
 *   argv: <store dir> <workflows dir> free
 *     forges submitted as fast as it can; making the packet fails (the store step alone is under test)
 *   argv: <store dir> <workflows dir> steps <identity dir> <run prefix>
 *     a real packet workflow makes each run's packet. Before each step it prints `at <step>` (as
 *     workflow-crash-child.ts does) and waits for a `next` line, so the parent kills it *in* a chosen
 *     step: `submit <forge>`, `commit submission` (inside the submission's transaction, before its
 *     commit), `make packet`, `commit packet` (inside the packet's transaction, before its commit),
 *     `packet created` (createEtchPacket has returned). Before each post it prints
 *     `form {"forge","body","weldDataEid","token"}`, the form a browser would post again after a crash.
 */
import { createEngine } from '../../src/engine/index.js';
import {
  createPacketWorkflow,
  openSqliteStore,
  type PacketService,
  type PacketStore,
  type PacketWrites,
} from '../../src/packets/index.js';
import { createSigningIdentity } from '../../src/signing/index.js';
import { loadWorkflows, WorkflowService } from '../../src/workflows/index.js';

const [dir, workflows, mode, identityDir, prefix] = process.argv.slice(2) as [string, string, string, string, string];
const stepping = mode === 'steps';
let stdin = '';
if (stepping) {
  process.stdin.on('data', (d: Buffer) => (stdin += d.toString()));
  // A closed stdin: the parent is gone.
  process.stdin.once('end', () => process.exit(0));
}

/** Names the step about to run; in steps mode waits for the parent's `next` (which it never sends before a kill). */
async function at(step: string): Promise<void> {
  if (!stepping) return;
  process.stdout.write(`at ${step}\n`);
  while (!stdin.includes('next\n')) await new Promise((r) => setTimeout(r, 2));
  stdin = stdin.replace('next\n', '');
}

/** The store, with a step announced inside each transaction just before it commits (what it wrote names the step). */
function announcing(store: PacketStore): PacketStore {
  const transaction = <T>(fn: (tx: PacketWrites) => Promise<T>): Promise<T> =>
    store.transaction(async (tx) => {
      let wrote = 'other';
      const welds = new Proxy(tx.welds, {
        get(target, key) {
          const v = Reflect.get(target, key, target) as unknown;
          if (typeof v !== 'function') return v;
          if (key === 'insertSubmission') wrote = 'submission';
          return (v as (...a: unknown[]) => unknown).bind(target);
        },
      });
      const spy = new Proxy(tx, {
        get(target, key) {
          if (key === 'welds') return welds;
          if (key === 'insertPacket') wrote = 'packet';
          const v = Reflect.get(target, key, target) as unknown;
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
        },
      });
      const result = await fn(spy);
      if (wrote !== 'other') await at(`commit ${wrote}`);
      return result;
    });
  return new Proxy(store, {
    get(target, key) {
      if (key === 'transaction') return transaction;
      const v = Reflect.get(target, key, target) as unknown;
      return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(target) : v;
    },
  });
}

async function packetService(store: PacketStore): Promise<PacketService> {
  if (!stepping)
    return {
      createEtchPacket: async () => {
        throw new Error('no packets in the crash child');
      },
      registerMail: () => undefined,
    } as unknown as PacketService;
  const flow = createPacketWorkflow({
    store,
    engine: createEngine(),
    identity: await createSigningIdentity({ dataDir: identityDir }),
    baseUrl: 'http://castpress.test',
    deliver: false,
    mailDir: `${dir}/mail`,
  });
  const service = flow.service;
  return new Proxy(service, {
    get(target, key) {
      const v = Reflect.get(target, key, target) as unknown;
      if (key !== 'createEtchPacket') return typeof v === 'function' ? (v as () => unknown).bind(target) : v;
      return async (...args: Parameters<PacketService['createEtchPacket']>) => {
        await at('make packet');
        const made = await target.createEtchPacket(...args);
        await at('packet created');
        return made;
      };
    },
  });
}

async function main(): Promise<void> {
  const opened = await openSqliteStore({ dir });
  const store = stepping ? announcing(opened) : opened;
  const welds = new WorkflowService({
    catalogue: await loadWorkflows(workflows),
    store,
    packets: await packetService(store),
    baseUrl: 'http://127.0.0.1',
    pollMs: 0,
  });
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) {
    const body1 = { submissionEid: welds.newSubmissionEid(), name: `${prefix ?? 'Run'} ${n}` };
    process.stdout.write(`form ${JSON.stringify({ forge: 'one', body: body1 })}\n`);
    await at('submit one');
    const first = await welds.submitForge({ weld: 'crash', forge: 'one', body: body1 });
    process.stdout.write(`ok ${first.submission.eid}\n`);
    const body2 = { submissionEid: welds.newSubmissionEid(), note: `Note ${n}` };
    const run = { weldDataEid: first.run.eid, token: first.token };
    process.stdout.write(`form ${JSON.stringify({ forge: 'two', body: body2, ...run })}\n`);
    await at('submit two');
    const second = await welds.submitForge({ weld: 'crash', forge: 'two', ...run, body: body2 });
    process.stdout.write(`ok ${second.submission.eid}\n`);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
