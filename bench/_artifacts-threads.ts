/**
 * The artifact pass alone, this tree against another checkout in one process, alternating:
 * `node --expose-gc --import tsx bench/_artifacts-threads.ts <print.pdf> <old-tree> [pages] [rounds]`
 * (a print saved by `SAVE=/tmp/x npx tsx bench/_html-node-replay.ts 30 1`: /tmp/x-print.pdf). Opens the
 * print afresh each round and times markArtifacts over its first `pages` pages (96: the report's body):
 * Node CPU (every thread), the main thread's CPU (Linux schedstat) and wall, medians.
 */
import { readFileSync } from 'node:fs';
import { openForUpdate } from '../src/pdf/index.js';

const [file, oldTree, pagesArg, roundsArg] = process.argv.slice(2);
const pages = Number(pagesArg ?? 96);
const rounds = Number(roundsArg ?? 20);
type Kernel = typeof import('../src/pdf/index.js');
const mainMs = (): number =>
  Number(readFileSync(`/proc/self/task/${process.pid}/schedstat`, 'latin1').split(' ')[0]) / 1e6;
const bytes = readFileSync(file!);
const trees: Array<[string, Kernel]> = [
  ['new', await import('../src/pdf/index.js')],
  ['old', (await import(`${oldTree}/src/pdf/index.ts`)) as Kernel],
];
const rows = new Map<string, number[][]>();
for (let r = 0; r < rounds + 2; r++)
  for (const [name, kernel] of r % 2 ? trees : [...trees].reverse()) {
    const base = await openForUpdate(bytes, 'html');
    const body = base.doc.getPages().slice(0, pages);
    (globalThis as { gc?: () => void }).gc?.();
    const cpu = process.cpuUsage();
    const wall = performance.now();
    const main = mainMs();
    await kernel.markArtifacts(base.doc, body, new Map());
    const used = process.cpuUsage(cpu);
    if (r >= 2)
      rows.set(name, [
        ...(rows.get(name) ?? []),
        [(used.user + used.system) / 1000, mainMs() - main, performance.now() - wall],
      ]);
  }
const median = (xs: number[]): string => [...xs].sort((a, b) => a - b)[xs.length >> 1]!.toFixed(1);
for (const [name, r] of rows)
  console.log(
    `${name}: markArtifacts of ${pages} pages: Node CPU ${median(r.map((x) => x[0]!))}, main thread ${median(r.map((x) => x[1]!))}, ` +
      `wall ${median(r.map((x) => x[2]!))} ms (medians of ${r.length})`,
  );
