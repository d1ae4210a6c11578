/**
 * Child of the welds crash test: submits forges of a two-forge workflow on an embedded store, as
 * fast as it can, until the parent kills it (SIGKILL). After each submission's transaction returns
 * it prints `ok <submissionEid>`: the parent checks every printed submission survived the kill.
 *   argv: <store dir> <workflows dir>
 */
import { openSqliteStore, type PacketService } from '../../src/packets/index.js';
import { loadWorkflows, WeldService } from '../../src/welds/index.js';

async function main(): Promise<void> {
  const [dir, workflows] = process.argv.slice(2) as [string, string];
  const store = await openSqliteStore({ dir });
  // No packets here: the store step is under test. Making the packet fails and is recorded on the run.
  const packets = {
    createEtchPacket: async () => {
      throw new Error('no packets in the crash child');
    },
  } as unknown as PacketService;
  const welds = new WeldService({
    catalogue: await loadWorkflows(workflows),
    store,
    packets,
    baseUrl: 'http://127.0.0.1',
    pollMs: 0,
  });
  process.stdout.write('ready\n');
  for (let n = 0; ; n++) {
    const first = await welds.submitForge({
      weld: 'crash',
      forge: 'one',
      body: { submissionEid: welds.newSubmissionEid(), name: `Run ${n}` },
    });
    process.stdout.write(`ok ${first.submission.eid}\n`);
    const second = await welds.submitForge({
      weld: 'crash',
      forge: 'two',
      weldDataEid: first.run.eid,
      token: first.token,
      body: { submissionEid: welds.newSubmissionEid(), note: `Note ${n}` },
    });
    process.stdout.write(`ok ${second.submission.eid}\n`);
  }
}

void main();
