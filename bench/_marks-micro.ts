/**
 * The artifact scan alone: `npx tsx bench/_marks-micro.ts <print.pdf> [old-tree] [rounds]` decodes every
 * page's content of a saved print and times markUncovered over all of them, in this tree and another
 * checkout alternating (Node CPU, medians), checking both give the same bytes.
 */
import { readFileSync } from 'node:fs';
import { openForUpdate } from '../src/pdf/index.js';
import { pageContent } from '../src/pdf/content/drop-glyphs.js';

const [file, oldTree, roundsArg] = process.argv.slice(2);
const rounds = Number(roundsArg ?? 15);
const base = await openForUpdate(readFileSync(file!), 'html');
const streams = base.doc
  .getPages()
  .map((p) => pageContent(p.node.Contents(), (o) => base.doc.context.lookup(o)))
  .filter((c): c is Uint8Array => typeof c !== 'string');
type Mod = typeof import('../src/pdf/structure/marked-content.js');
const mods: Array<[string, Mod]> = [['new', await import('../src/pdf/structure/marked-content.js')]];
if (oldTree) mods.push(['old', (await import(`${oldTree}/src/pdf/structure/marked-content.ts`)) as Mod]);
const times = new Map<string, number[]>();
const outs = new Map<string, Array<Uint8Array | undefined>>();
for (let r = 0; r <= rounds; r++)
  for (const [name, m] of r % 2 ? mods : [...mods].reverse()) {
    const t = process.cpuUsage();
    const out = streams.map((s) => m.markUncovered(s));
    const u = process.cpuUsage(t);
    if (r > 0) times.set(name, [...(times.get(name) ?? []), (u.user + u.system) / 1000]);
    outs.set(name, out);
  }
const median = (xs: number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const bytes = streams.reduce((n, s) => n + s.length, 0);
for (const [name, ts] of times)
  console.log(`${name}: markUncovered over ${streams.length} streams (${bytes} bytes) ${median(ts).toFixed(1)} ms`);
if (oldTree) {
  const [a, b] = [outs.get('new')!, outs.get('old')!];
  console.log(`same output: ${a.every((x, i) => (x && b[i] ? Buffer.compare(x, b[i]!) === 0 : x === b[i]))}`);
}
